"""Drawing polar boards (Odd-Y with 5 or more sides) on a character canvas from `board.coords`:
every empty cell shows its own label, so a move can be read off the picture; stones show as discs.
Each side of the board gets its number just outside its middle (`side 0`, `side 1`, …), the
numbers the game's result names when a group touches sides."""

from __future__ import annotations

import math
from collections.abc import Callable

from rich.text import Text

from ogames.boards.graph import Board

LABEL_STYLE = "grey50"
SIDE_STYLE = "dim cyan"
# How far outside a side's middle its number stands, in units of the distance between rings.
SIDE_OFFSET = 1.0


def side_count(board: Board) -> int:
    """How many numbered sides (`side0`, `side1`, … cell sets) the board has."""
    count = 0
    while f"side{count}" in board.cell_sets:
        count += 1
    return count


def side_label_points(board: Board) -> list[tuple[float, float]]:
    """Where each side's number goes: just outside the middle of the side, away from the centre."""
    points = []
    for s in range(side_count(board)):
        cells = board.cells(f"side{s}")
        mx = sum(board.coords[c][0] for c in cells) / len(cells)
        my = sum(board.coords[c][1] for c in cells) / len(cells)
        radius = math.hypot(mx, my) or 1.0
        scale = (radius + SIDE_OFFSET) / radius
        points.append((mx * scale, my * scale))
    return points


def _layout(points: list[tuple[float, float]], widths: list[int], sx: float, sy: float) -> list[tuple[int, int]] | None:
    """(line, start column) of every text at a scale, or None if two texts would touch."""
    placed: list[tuple[int, int]] = []
    spans: dict[int, list[tuple[int, int]]] = {}
    for (x, y), width in zip(points, widths, strict=True):
        line = round(-y * sy)
        start = round(x * sx) - width // 2
        for a, b in spans.get(line, []):
            if start <= b + 1 and a <= start + width:  # keep at least one blank between texts
                return None
        spans.setdefault(line, []).append((start, start + width - 1))
        placed.append((line, start))
    return placed


def draw_polar_board(board: Board, glyph: Callable[[int], Text], *, number_sides: bool = True) -> Text:
    """The board drawn from its coordinates, scaled up until no two texts collide; with
    `number_sides`, each side's number stands outside it."""
    texts = [glyph(cell) for cell in range(len(board))]
    points = list(board.coords)
    if number_sides:
        for s, point in enumerate(side_label_points(board)):
            texts.append(Text(f"side {s}", style=SIDE_STYLE))
            points.append(point)
    width = max(len(t) for t in texts[: len(board)])
    widths = [len(t) for t in texts]
    layout = None
    sx, sy = float(width + 1), 1.5
    while layout is None:
        layout = _layout(points, widths, sx, sy)
        sx, sy = sx * 1.15, sy * 1.1
    top = min(line for line, _ in layout)
    left = min(col for _, col in layout)
    rows: dict[int, list[tuple[int, Text]]] = {}
    for text, (line, col) in zip(texts, layout, strict=True):
        rows.setdefault(line - top, []).append((col - left, text))
    out = Text()
    last_line = max(rows)
    for line in range(last_line + 1):
        cursor = 0
        for col, text in sorted(rows.get(line, []), key=lambda p: p[0]):
            out.append(" " * (col - cursor))
            out.append_text(text)
            cursor = col + len(text)
        if line < last_line:
            out.append("\n")
    return out
