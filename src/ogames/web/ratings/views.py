"""What the pages show of a rating: one typed view, shared by the board games and Omiga."""

from __future__ import annotations

from ogames.web.core.protocol import Declared


class RatingChangeView(Declared):
    """What a rated game did to one person's rating (web/ratings/finish.py): "1500?" → "1523" ("+23")."""

    seat: int
    name: str
    before: str
    after: str
    diff: str


__all__ = ["RatingChangeView"]
