"""A player's own games (`mine.py`: the "my games" page) and the archive of finished games
(`search.py`: searched by player, game, variant, outcome and dates); their pages in `routes.py`."""

from ogames.web.archive.routes import router

__all__ = ["router"]
