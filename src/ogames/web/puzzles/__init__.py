"""Puzzles on the site (`routes.py`: /puzzles, /puzzles/ID and their JSON) over the proven set of
`ogames.teach.puzzles`: `catalogue.py` reads the set and picks the day's puzzle, `play.py` judges a
move against the stored line, `records.py` rates a visitor's first try (ogames/ratings/puzzles.py)."""

from ogames.web.puzzles.routes import daily_puzzle, puzzle_record, router

__all__ = ["daily_puzzle", "puzzle_record", "router"]
