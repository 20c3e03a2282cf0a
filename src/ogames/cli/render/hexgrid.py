"""Drawing axial hex boards as text: rows from the highest down, each shifted half a cell, so that
the six neighbours of a cell are visibly around it; column letters along the edges and row
numbers at row starts. Omny, Odd-Y (triangle) and Omega all draw through `draw_hex_board`."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from rich.text import Text

from ogames.boards.graph import Board
from ogames.boards.hexes import column_letters, parse_label

# One cell is a 3-character slot; slots in a row are 4 characters apart (centre to centre) and each
# row up is shifted right by half of that, which is what the axial drawing position x + y/2 asks for.
PITCH = 4
HALF = PITCH // 2
LABEL_STYLE = "dim cyan"

# How each colour's stone looks; games with other colours fall back to their own name's first letter.
STONE_STYLES: dict[str, tuple[str, str]] = {
    "black": ("●", "bold bright_black"),
    "white": ("○", "bold bright_white"),  # a ring, so the colours differ even without colour
    "red": ("●", "bold red"),
    "blue": ("●", "bold blue"),
}
LAST_MOVE_STYLE = "reverse"
EMPTY_GLYPH = ("·", "grey50")


def stone_glyph(colour: str | None, *, last: bool = False, empty: tuple[str, str] = EMPTY_GLYPH) -> Text:
    """The styled text of one cell: a stone of a colour (None: empty), reversed if it was the last move."""
    if colour is None:
        char, style = empty
    else:
        char, style = STONE_STYLES.get(colour, (colour[:1].upper(), "bold"))
    text = Text(char, style=style)
    if last:
        text.stylize(LAST_MOVE_STYLE)
    return text


def _axial_cells(board: Board, coords_from_labels: bool) -> list[tuple[int, int]]:
    """Axial (x, y) of every cell: parsed from its label, or recovered from its drawing point."""
    if coords_from_labels:
        return [parse_label(label) for label in board.labels]
    cells = []
    for px, py in board.coords:
        y = round(py / (math.sqrt(3) / 2))
        cells.append((round(px - y / 2), y))
    return cells


class _Canvas:
    """Styled text pieces placed at (line, column); negative columns are fine until rendering."""

    def __init__(self) -> None:
        self.pieces: dict[int, list[tuple[int, Text]]] = {}

    def put(self, line: int, column: int, text: Text) -> None:
        self.pieces.setdefault(line, []).append((column, text))

    def render(self) -> Text:
        left = min((col for row in self.pieces.values() for col, _ in row), default=0)
        out = Text()
        lines = sorted(self.pieces)
        for n, line in enumerate(lines):
            cursor = left
            for col, piece in sorted(self.pieces[line], key=lambda p: p[0]):
                if col > cursor:
                    out.append(" " * (col - cursor))
                    cursor = col
                elif col < cursor:  # overlap: keep what is already there, drop what would not fit
                    skip = cursor - col
                    piece = piece[skip:]
                out.append_text(piece)
                cursor += len(piece)
            if n < len(lines) - 1:
                out.append("\n")
        return out


def draw_hex_board(
    board: Board,
    glyph: Callable[[int], Text],
    *,
    coords_from_labels: bool = True,
) -> Text:
    """Draw an axial hex board: `glyph(cell)` gives each cell's 1–3 character styled text.

    Rows run from the highest down, each row shifted half a cell so hex adjacency shows. Column
    letters go below the bottom row (for columns that reach it) and above the top row (for the
    others), in line with their column; row numbers stand before each row's first cell. With
    `coords_from_labels=False` the cells are placed from `board.coords` and no edge labels are drawn.
    """
    axial = _axial_cells(board, coords_from_labels)
    ys = [y for _, y in axial]
    low, high = min(ys), max(ys)
    canvas = _Canvas()

    def centre(x: int, y: int) -> int:
        return (2 * x + y) * HALF

    def line_of(y: int) -> int:
        return high - y + 1  # line 0 is the top label line

    for cell, (x, y) in enumerate(axial):
        text = glyph(cell)
        if len(text) > 3:
            text = text[:3]
        # Centre a 1–3 character glyph in its slot.
        start = centre(x, y) - (1 if len(text) >= 2 else 0)
        canvas.put(line_of(y), start, text)

    if not coords_from_labels:
        return canvas.render()

    rows: dict[int, int] = {}
    for x, y in axial:
        rows[y] = min(rows.get(y, x), x)
    for y, first in rows.items():
        number = str(y + 1)
        canvas.put(line_of(y), centre(first, y) - 2 - len(number), Text(number, style=LABEL_STYLE))

    columns: dict[int, set[int]] = {}
    for x, y in axial:
        columns.setdefault(x, set()).add(y)
    for x, column_rows in columns.items():
        letters = column_letters(x)
        if low in column_rows or high not in column_rows:
            y_at, line = low - 1, line_of(low - 1)
        else:
            y_at, line = high + 1, line_of(high + 1)
        at = centre(x, y_at) - (len(letters) - 1) // 2
        canvas.put(line, at, Text(letters, style=LABEL_STYLE))
    return canvas.render()


def last_move_cells(board: Board, moves: Iterable[str]) -> frozenset[int]:
    """The cells named among some moves (special moves such as `swap` name none)."""
    cells = set()
    for move in moves:
        for word in str(move).split():
            if board.has(word):
                cells.add(board.index(word))
    return frozenset(cells)
