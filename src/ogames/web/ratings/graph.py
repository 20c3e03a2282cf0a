"""A player's rating history in one pool as a small SVG line, drawn on the server (no script):
one point after each rated game, the band of one deviation around it, the lowest and highest
rating written at the left. Only numbers go into the drawing."""

from __future__ import annotations

from collections.abc import Sequence

from ogames.ratings import HistoryPoint

WIDTH, HEIGHT = 400.0, 130.0  # drawn at about this size: its numbers stay readable on a phone
LEFT, RIGHT, TOP, BOTTOM = 36.0, 8.0, 10.0, 10.0  # room for the scale's numbers at the left


def rating_graph(points: Sequence[HistoryPoint], label: str) -> str:
    """The SVG of a rating's history (oldest first); `label` is the drawing's accessible name
    (escaped by the caller's template: it is given here already escaped)."""
    if not points:
        return ""
    ratings = [point.rating for point in points]
    low = min(rating - point.deviation for rating, point in zip(ratings, points, strict=True))
    high = max(rating + point.deviation for rating, point in zip(ratings, points, strict=True))
    low, high = min(low, min(ratings) - 50), max(high, max(ratings) + 50)
    span = high - low

    def x(index: int) -> float:
        inner = WIDTH - LEFT - RIGHT
        return LEFT + (inner / 2 if len(points) == 1 else inner * index / (len(points) - 1))

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / span

    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ratings))
    upper = [f"{x(i):.1f},{y(p.rating + p.deviation):.1f}" for i, p in enumerate(points)]
    lower = [f"{x(i):.1f},{y(p.rating - p.deviation):.1f}" for i, p in reversed(list(enumerate(points)))]
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(r):.1f}" r="2.5"/>' for i, r in enumerate(ratings))
    top, bottom = max(ratings), min(ratings)
    return (
        f'<svg class="rating-graph" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" role="img" aria-label="{label}">'
        f'<polygon class="band" points="{" ".join(upper + lower)}"/>'
        f'<polyline class="line" points="{line}"/><g class="dots">{dots}</g>'
        f'<text x="2" y="{y(top) + 4:.1f}">{round(top)}</text>'
        + (f'<text x="2" y="{y(bottom) + 4:.1f}">{round(bottom)}</text>' if round(bottom) != round(top) else "")
        + "</svg>"
    )


__all__ = ["rating_graph"]
