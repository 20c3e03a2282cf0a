"""Odd-Y in the terminal: the triangle through the hex grid drawing, polar boards (5+ sides) on a
canvas where every empty cell shows its label."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text

from ogames.boards.graph import Board
from ogames.cli.render.hexgrid import STONE_STYLES, draw_hex_board, stone_glyph
from ogames.cli.render.polar import LABEL_STYLE, draw_polar_board
from ogames.rules.protocol import State


def render(state: State, *, highlight: Iterable[str] = frozenset(), **_: Any) -> Text:
    """The board of an Odd-Y state with the last move highlighted."""
    board: Board = state.board
    marked = {board.index(label) for label in highlight if board.has(label)}
    if state.game.options.get("board") == "triangle":
        return draw_hex_board(board, lambda cell: stone_glyph(state.stone_at(board.labels[cell]), last=cell in marked))

    def glyph(cell: int) -> Text:
        label = board.labels[cell]
        colour = state.stone_at(label)
        if colour is None:
            return Text(label, style=LABEL_STYLE)
        char, style = STONE_STYLES.get(colour, (colour[:1].upper(), "bold"))
        # A stone is drawn over its label (same width, so the picture does not shift as stones appear).
        pad = len(label) - 1
        text = Text(" " * (pad // 2))
        text.append(char, style=style + (" reverse" if cell in marked else ""))
        text.append(" " * (pad - pad // 2))
        return text

    return draw_polar_board(board, glyph)
