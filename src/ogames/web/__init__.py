"""Layer 6, the web face: a FastAPI server with pages, a JSON API and WebSockets for live play,
storing games through SQLAlchemy (SQLite by default). `create_app(settings)` makes the app;
`ogames serve` runs it on uvicorn."""

from __future__ import annotations

from typing import Any

from ogames.web.core.settings import Settings


def create_app(settings: Settings | None = None) -> Any:
    """The web application (imported on first use: the library does not need the web stack)."""
    from ogames.web.app import create_app as make

    return make(settings)


__all__ = ["Settings", "create_app"]
