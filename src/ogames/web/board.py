"""The board drawing on the game page: one function, `board_svg(state)`, so that the full drawings
of `ogames.draw` plug in here when they land.

The contract the page's script relies on: the drawing is an `<svg>` in which every cell is one
element carrying `data-cell="<label>"`; the script marks the cells by setting `data-stone`
(a colour name, or removes it), `data-last` and `data-legal` on those elements, and reads clicks
from them. Everything else about the drawing is free.

Until then this is a plain drawing from the board's own graph: hexagons where the board is a
patch of hexes (Omny, Odd-Y's triangle, Omega), and points joined by their links elsewhere (the
polar Odd-Y board, the Onyx lattice); Omny's star cells are marked.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from ogames.rules.protocol import State

SCALE = 40.0  # SVG units per unit of the board's drawing coordinates (hex centres are 1 apart)
MARGIN = 30.0


def board_svg(state: State) -> str:
    """The board of a state as SVG markup, every cell an element with `data-cell`."""
    board = getattr(state, "board", None)
    if board is None:
        return ""
    return _graph_svg(board, _stars(state))


def _stars(state: State) -> set[int]:
    stars = getattr(state.game, "star_cells", None)
    return set(stars) if stars else set()


def _is_hex_patch(board: Any) -> bool:
    """Whether every link joins cells one unit apart with at most six links a cell: hex cells."""
    coords = board.coords
    for cell, links in enumerate(board.neighbours):
        if len(links) > 6:
            return False
        x, y = coords[cell]
        for other in links:
            ox, oy = coords[other]
            if abs(math.hypot(ox - x, oy - y) - 1.0) > 1e-6:
                return False
    return True


def _graph_svg(board: Any, stars: set[int]) -> str:
    coords = [(x * SCALE, -y * SCALE) for x, y in board.coords]  # rows go up the page
    hexes = _is_hex_patch(board)
    if hexes:
        radius = SCALE / math.sqrt(3)
        stone = SCALE * 0.38
    else:
        shortest = min(
            (math.dist(coords[a], coords[b]) for a, links in enumerate(board.neighbours) for b in links),
            default=SCALE,
        )
        radius = shortest * 0.42
        stone = radius * 0.92
    xs = [x for x, _ in coords]
    ys = [y for _, y in coords]
    left, top = min(xs) - radius - MARGIN, min(ys) - radius - MARGIN
    width, height = max(xs) - min(xs) + 2 * (radius + MARGIN), max(ys) - min(ys) + 2 * (radius + MARGIN)
    parts = [
        f'<svg class="board board-{escape(board.kind.split()[-1])}" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" role="img" aria-label="board">'
    ]
    if not hexes:
        seen: set[tuple[int, int]] = set()
        parts.append('<g class="links">')
        for a, links in enumerate(board.neighbours):
            for b in links:
                if (b, a) in seen:
                    continue
                seen.add((a, b))
                (x1, y1), (x2, y2) = coords[a], coords[b]
                parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
        parts.append("</g>")
    for cell, label in enumerate(board.labels):
        x, y = coords[cell]
        name = escape(label)
        star = " star" if cell in stars else ""
        parts.append(f'<g class="cell{star}" data-cell="{name}"><title>{name}</title>')
        if hexes:
            points = " ".join(
                f"{x + radius * math.cos(math.radians(90 + 60 * k)):.1f},{y + radius * math.sin(math.radians(90 + 60 * k)):.1f}"
                for k in range(6)
            )
            parts.append(f'<polygon class="ground" points="{points}"/>')
        else:
            parts.append(f'<circle class="ground" cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"/>')
        if star:
            parts.append(f'<circle class="star-mark" cx="{x:.1f}" cy="{y - radius * 0.5:.1f}" r="{radius * 0.13:.1f}"/>')
        parts.append(f'<circle class="stone" cx="{x:.1f}" cy="{y:.1f}" r="{stone:.1f}"/>')
        parts.append(f'<text class="label" x="{x:.1f}" y="{y + radius * 0.1:.1f}">{name}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
