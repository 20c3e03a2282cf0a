"""The opening explorer's pages (`routes.py`: /explore and /api/explore) over `ogames.teach.explorer`,
with the site's finished games counted in an index of their own (`site.py`)."""
