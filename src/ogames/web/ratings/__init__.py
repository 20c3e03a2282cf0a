"""Ratings on the site (docs/web.md, "Ratings"): which games may be rated (`rules`), rating a
rated game once when it ends and the changes its players are shown (`finish`), what the pages
read from the database (`records`), the profile's rating graph (`graph`) and the profile and
leaderboard pages (`routes`). The ratings themselves are `ogames.ratings`."""
