"""The opening explorer's pages (`routes.py`: /explore and /api/explore) over `ogames.teach.explorer`,
with the site's finished games read into a tree per board and kept a while (`site.py`)."""

from ogames.web.explore.routes import router

__all__ = ["router"]
