"""Drawing an Onyx position as text: lattice points four columns and two lines apart, joined by
`───` and `│`; triangle cells show their diagonal (`/` on even rows, `\\` on odd rows) and squares
show their midpoint in the middle. Column letters above and below, row numbers on both sides,
North at the top. The last move is reversed; the points its captures emptied show a red `×`; a
line below counts the stones each colour has lost, and a key explains the glyphs in the drawing
(`b1*` names the midpoint of the square whose south-west corner is `b1`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text

from ogames.boards.onyx import CELLS, SIZE, is_square, point, point_label
from ogames.cli.render.hexgrid import LABEL_STYLE, LAST_MOVE_NOTE, STONE_STYLES, key, stone_items
from ogames.rules.onyx import OnyxState

EDGE_STYLE = "grey50"
EMPTY_POINT = ("┼", "grey50")
OPEN_MIDPOINT = ("◦", "grey70")  # an empty midpoint a stone may still go on
CLOSED_MIDPOINT = ("·", "grey35")  # an empty midpoint with a stone on a corner
CAPTURED = ("×", "bold red")
LAST_MOVE_STYLE = "reverse"
MARGIN = 3  # room for row numbers on the left


def render(state: OnyxState, *, highlight: Iterable[str] | None = None, **_: Any) -> Text:
    """The board of an Onyx state with labels, last move and last captures marked, and a captures line."""
    board = state.board
    marked = {board.index(label) for label in highlight} if highlight is not None else _last_move(state)
    captured = {board.index(label) for label in state.last_captures}
    open_cells = set(state.legal_moves()) if not state.is_over else set()

    def glyph(cell: int, *, midpoint: bool) -> Text:
        colour = state.stone_at(board.labels[cell])
        if colour is not None:
            char, style = STONE_STYLES[colour]
        elif cell in captured:
            char, style = CAPTURED
        elif midpoint:
            char, style = OPEN_MIDPOINT if board.labels[cell] in open_cells else CLOSED_MIDPOINT
        else:
            char, style = EMPTY_POINT
        text = Text(char, style=style)
        if cell in marked:
            text.stylize(LAST_MOVE_STYLE)
        return text

    letters = Text(" " * MARGIN)
    for c in range(SIZE):
        letters.append(chr(ord("a") + c), style=LABEL_STYLE)
        if c < CELLS:
            letters.append("   ")
    out = Text()
    out.append_text(letters)
    out.append("\n")
    for r in range(SIZE - 1, -1, -1):
        line = Text()
        line.append(f"{r + 1:>2} ", style=LABEL_STYLE)
        for c in range(SIZE):
            line.append_text(glyph(point(c, r), midpoint=False))
            if c < CELLS:
                line.append("───", style=EDGE_STYLE)
        line.append(f" {r + 1}", style=LABEL_STYLE)
        out.append_text(line)
        out.append("\n")
        if r == 0:
            break
        # The line between rows r and r − 1 crosses the cells (c, r − 1).
        between = Text(" " * MARGIN)
        for c in range(SIZE):
            between.append("│", style=EDGE_STYLE)
            if c == CELLS:
                break
            if is_square(c, r - 1):
                between.append(" ")
                between.append_text(glyph(board.index(point_label(c, r - 1) + "*"), midpoint=True))
                between.append(" ")
            else:
                between.append(" / " if (r - 1) % 2 == 0 else " \\ ", style=EDGE_STYLE)
        out.append_text(between)
        out.append("\n")
    out.append_text(letters)
    out.append("\n")
    out.append_text(_status(state))
    out.append("\n")
    out.append_text(_key(state, out.plain))
    return out


def _key(state: OnyxState, drawn: str) -> Text:
    """The key for the glyphs the drawing shows (open midpoints, captures only when there are some)."""
    items = stone_items(state.game.colours)
    items.append((Text(*EMPTY_POINT), "empty point"))
    for (char, style), meaning in (
        (OPEN_MIDPOINT, "open midpoint"),
        (CLOSED_MIDPOINT, "closed midpoint"),
        (CAPTURED, "just captured"),
    ):
        if char in drawn:
            items.append((Text(char, style=style), meaning))
    notes = [
        "b1* = the midpoint of the square whose lower-left corner is b1 (open while all four corners are empty)",
        "/ \\ = a triangle cell's diagonal: the two points it joins are neighbours",
        f"black joins west and east (a, l), white south and north (1, 12); {LAST_MOVE_NOTE}",
    ]
    return key(items, notes)


def _last_move(state: OnyxState) -> set[int]:
    """The cell of the last placement, if the last move was one."""
    if not state.history or not state.board.has(str(state.history[-1].get("move", ""))):
        return set()
    return {state.board.index(state.history[-1]["move"])}


def _status(state: OnyxState) -> Text:
    """The captures so far and the last move's captures (whose turn it is, the play loop says)."""
    lost = state.captured
    status = Text(f"stones captured so far: black {lost['black']}, white {lost['white']}", style="dim")
    last = state.last_captures
    if last:
        status.append(f" · last move captured {' '.join(last)}", style="red")
    return status
