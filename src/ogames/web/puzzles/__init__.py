"""Puzzles on the site (`routes.py`: /puzzles, /puzzles/ID and their JSON) over the proven set of
`ogames.teach.puzzles` (its `PuzzleSet`, read once per process; the day's puzzle): `catalogue.py`
says how many a list page shows and draws the next puzzle to train on, `play.py` puts
the judge (`ogames.teach.puzzles.judge`) behind the API's refusals, `records.py` rates a
visitor's first try (ogames/ratings/puzzles.py)."""

from ogames.web.puzzles.routes import daily_puzzle, puzzle_record, router

__all__ = ["daily_puzzle", "puzzle_record", "router"]
