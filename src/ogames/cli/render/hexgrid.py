"""Drawing axial hex boards as text: rows from the highest down, each shifted half a cell, so that
the six neighbours of a cell are visibly around it. Every edge is labelled: row numbers at both
ends of every row, column letters above the top row and below the bottom row (a column runs
slanting up to the right). Omny, Odd-Y (triangle) and Omega all draw through `draw_hex_board`;
`key` writes the line that explains the glyphs under a drawing."""

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
KEY_STYLE = "dim"
KEY_LEAD = "key: "
# How to read a hex cell's name, said under every hex drawing.
HEX_LABEL_NOTE = "cell = column letter + row number (c3); a column slants up to the right"
LAST_MOVE_NOTE = "last move reversed"
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

    # Row numbers at both ends of every row, two blanks from the row's outer cells.
    rows: dict[int, tuple[int, int]] = {}
    for x, y in axial:
        first, last = rows.get(y, (x, x))
        rows[y] = (min(first, x), max(last, x))
    for y, (first, last) in rows.items():
        number = str(y + 1)
        canvas.put(line_of(y), centre(first, y) - 2 - len(number), Text(number, style=LABEL_STYLE))
        canvas.put(line_of(y), centre(last, y) + 3, Text(number, style=LABEL_STYLE))

    # Column letters where a column leaves the board through the bottom row (below it, half a
    # cell to the left, on the column's slant) and through the top row (above it, half a cell to
    # the right); a column touching neither gets its letter below its lowest cell's slant.
    columns: dict[int, set[int]] = {}
    for x, y in axial:
        columns.setdefault(x, set()).add(y)
    for x, column_rows in columns.items():
        letters = column_letters(x)
        ends = [y_at for y_at, reached in ((low - 1, low in column_rows), (high + 1, high in column_rows)) if reached]
        for y_at in ends or [low - 1]:
            at = centre(x, y_at) - (len(letters) - 1) // 2
            canvas.put(line_of(y_at), at, Text(letters, style=LABEL_STYLE))
    return canvas.render()


def stone_items(colours: Iterable[str]) -> list[tuple[Text, str]]:
    """Key entries for the stones of some colours."""
    return [(stone_glyph(colour), colour) for colour in colours]


def with_key(drawing: Text, legend: Text) -> Text:
    """A drawing with its key on the lines below."""
    out = drawing.copy()
    out.append("\n")
    out.append_text(legend)
    return out


def key(items: Iterable[tuple[Text | str, str]], notes: Iterable[str] = (), width: int = 78) -> Text:
    """The key under a drawing: `glyph meaning` pairs on the first line(s), then each note on a line
    of its own; everything wrapped to `width` columns (a pair is never split)."""
    indent = " " * len(KEY_LEAD)
    out = Text(KEY_LEAD, style=KEY_STYLE)
    length = len(out)
    first = True
    for glyph, meaning in items:
        pair = glyph.copy() if isinstance(glyph, Text) else Text(glyph)
        pair.append(f" {meaning}", style=KEY_STYLE)
        gap = 0 if first else 2
        if not first and length + gap + len(pair) > width:
            out.append("\n" + indent)
            length, gap = len(indent), 0
        out.append(" " * gap)
        out.append_text(pair)
        length += gap + len(pair)
        first = False
    for note in notes:
        if not first:
            out.append("\n" + indent)
            length = len(indent)
        for n, word in enumerate(note.split()):
            gap = 0 if n == 0 else 1
            if n and length + gap + len(word) > width:
                out.append("\n" + indent)
                length, gap = len(indent), 0
            out.append(" " * gap + word, style=KEY_STYLE)
            length += gap + len(word)
        first = False
    return out


def last_move_cells(board: Board, moves: Iterable[str]) -> frozenset[int]:
    """The cells named among some moves (special moves such as `swap` name none)."""
    cells = set()
    for move in moves:
        for word in str(move).split():
            if board.has(word):
                cells.add(board.index(word))
    return frozenset(cells)
