"""The computer as a teacher: an opening explorer (`explorer`), game reviews (`review`, its win
chance calibrated by `calibration`, measured by `planted`) and proven puzzles (`puzzles`).

The package imports nothing itself: the explorer stays light for the web pages, and the review,
which needs the search, is imported where it is used (`from ogames.teach.review import review`).
"""
