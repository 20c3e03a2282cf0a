"""Drawing polar boards (Odd-Y with 5 or more sides) on a character canvas from `board.coords`:
every empty cell shows its own label, so a move can be read off the picture; stones show as discs."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from ogames.boards.graph import Board

LABEL_STYLE = "grey50"


def _layout(board: Board, width_of: Callable[[int], int], sx: float, sy: float) -> dict[int, tuple[int, int]] | None:
    """(line, start column) of every cell's text at a scale, or None if two texts would touch."""
    placed: dict[int, tuple[int, int]] = {}
    spans: dict[int, list[tuple[int, int]]] = {}
    for cell, (x, y) in enumerate(board.coords):
        width = width_of(cell)
        line = round(-y * sy)
        start = round(x * sx) - width // 2
        for a, b in spans.get(line, []):
            if start <= b + 1 and a <= start + width:  # keep at least one blank between texts
                return None
        spans.setdefault(line, []).append((start, start + width - 1))
        placed[cell] = (line, start)
    return placed


def draw_polar_board(board: Board, glyph: Callable[[int], Text]) -> Text:
    """The board drawn from its coordinates, scaled up until no two cells' texts collide."""
    texts = [glyph(cell) for cell in range(len(board))]
    width = max(len(t) for t in texts)
    layout = None
    sx, sy = float(width + 1), 1.5
    while layout is None:
        layout = _layout(board, lambda c: len(texts[c]), sx, sy)
        sx, sy = sx * 1.15, sy * 1.1
    top = min(line for line, _ in layout.values())
    left = min(col for _, col in layout.values())
    rows: dict[int, list[tuple[int, Text]]] = {}
    for cell, (line, col) in layout.items():
        rows.setdefault(line - top, []).append((col - left, texts[cell]))
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
