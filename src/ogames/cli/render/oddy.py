"""Odd-Y in the terminal: the triangle through the hex grid drawing, polar boards (5+ sides) on a
canvas where every empty cell shows its label and every side its number; a key below each."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text

from ogames.boards.graph import Board
from ogames.cli.render.hexgrid import (
    EMPTY_GLYPH,
    HEX_LABEL_NOTE,
    LAST_MOVE_NOTE,
    STONE_STYLES,
    draw_hex_board,
    key,
    stone_glyph,
    stone_items,
    with_key,
)
from ogames.cli.render.polar import LABEL_STYLE, draw_polar_board
from ogames.rules.stones import StoneState


def render(state: StoneState, *, highlight: Iterable[str] = frozenset(), **_: Any) -> Text:
    """The board of an Odd-Y state with the last move highlighted, and its key."""
    board: Board = state.board
    marked = {board.index(label) for label in highlight if board.has(label)}
    items = stone_items(state.game.colours)
    sides = state.game.options["sides"]
    goal = f"win: a group touching sides that do not all lie among {(sides + 1) // 2} sides in a row"
    if state.game.options.get("board") == "triangle":
        drawing = draw_hex_board(board, lambda cell: stone_glyph(state.stone_at(board.labels[cell]), last=cell in marked))
        items.append((Text(EMPTY_GLYPH[0], style=EMPTY_GLYPH[1]), "empty cell"))
        notes = ["win: a group touching all three sides (corners belong to both); " + LAST_MOVE_NOTE, HEX_LABEL_NOTE]
        return with_key(drawing, key(items, notes))

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

    ring, position = state.game.options["size"] - 1, min(2, state.game.options["size"] - 2)
    example = f"c{ring}-{position}"
    items.append((Text(example, style=LABEL_STYLE), "an empty cell shows its label"))
    notes = [
        f"label = sector letter, ring, position ({example}: sector c, ring {ring}, position {position}); o = centre",
        f"side k runs from corner k to corner k + 1 (corners are on both); {goal}; {LAST_MOVE_NOTE}",
    ]
    return with_key(draw_polar_board(board, glyph), key(items, notes))
