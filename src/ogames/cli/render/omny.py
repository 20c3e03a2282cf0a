"""Omny in the terminal: the hex board with star cells marked and the last move highlighted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text

from ogames.boards.graph import Board
from ogames.cli.render.hexgrid import (
    EMPTY_GLYPH,
    HEX_LABEL_NOTE,
    LAST_MOVE_NOTE,
    draw_hex_board,
    key,
    stone_glyph,
    stone_items,
    with_key,
)
from ogames.rules.stones import StoneState

STAR_GLYPH = ("✦", "yellow")


def render(state: StoneState, *, highlight: Iterable[str] = frozenset(), **_: Any) -> Text:
    """The board of an Omny state: stones, empty star cells (✦), other empty cells (·), and its key."""
    board: Board = state.board
    stars = state.game.star_cells
    marked = {board.index(label) for label in highlight if board.has(label)}

    def glyph(cell: int) -> Text:
        colour = state.stone_at(board.labels[cell])
        empty = STAR_GLYPH if cell in stars else EMPTY_GLYPH
        text = stone_glyph(colour, last=cell in marked, empty=empty)
        if colour is not None and cell in stars:
            # A star under a stone still counts for the regions: underline the stone.
            text.stylize("underline")
        return text

    items = stone_items(state.game.colours)
    if stars:
        items.append((Text(STAR_GLYPH[0], style=STAR_GLYPH[1]), "star cell"))
    if len(stars) < len(board):
        items.append((Text(EMPTY_GLYPH[0], style=EMPTY_GLYPH[1]), "empty cell"))
    notes = [f"S = {len(stars)} star cells; a stone on a star is underlined; {LAST_MOVE_NOTE}", HEX_LABEL_NOTE]
    return with_key(draw_hex_board(board, glyph), key(items, notes))
