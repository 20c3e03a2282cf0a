"""Omega in the terminal: the hexagon with the last turn's stones marked, each colour's groups and
score, the match totals, and whose turn it is with the colour of the next stone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ogames.cli.render.hexgrid import (
    EMPTY_GLYPH,
    HEX_LABEL_NOTE,
    LAST_MOVE_STYLE,
    STONE_STYLES,
    draw_hex_board,
    key,
    stone_glyph,
)
from ogames.rules.omega import OmegaState

# Scores past this many digits are shown shortened (the state keeps them exact).
MAX_DIGITS = 24
# Black and White come from the shared styles; Red and Blue get their own shapes so that all four
# colours stay apart on a terminal without colour.
SHAPES = {"red": "▲", "blue": "■"}


def stone(colour: str | None, *, last: bool = False) -> Text:
    """One cell's glyph: empty, or a stone in its colour's style and shape."""
    if colour not in SHAPES:
        return stone_glyph(colour, last=last)
    text = Text(SHAPES[colour], style=STONE_STYLES[colour][1])
    if last:
        text.stylize(LAST_MOVE_STYLE)
    return text


def format_score(score: int) -> str:
    """An exact score, or for gigantic ones its leading digits and its length."""
    digits = str(score)
    if len(digits) <= MAX_DIGITS:
        return digits
    return f"{digits[0]}.{digits[1:4]}e{len(digits) - 1} ({len(digits)} digits)"


def colour_text(colour: str) -> Text:
    """A colour's name with its stone."""
    return Text.assemble(stone(colour), " ", colour)


def score_table(state: OmegaState) -> Table:
    """One row per colour: who holds it, its group sizes (largest first) and its score."""
    table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    table.add_column("colour")
    table.add_column("player")
    table.add_column("groups")
    table.add_column("score", justify="right")
    scores = state.scores
    for colour in state.game.colours:
        sizes = state.group_sizes(colour)
        shown = "·".join(map(str, sizes)) if sizes else "—"
        table.add_row(colour_text(colour), Text(state.seats[colour]), shown, format_score(scores[colour]))
    return table


def turn_line(state: OmegaState) -> Text | None:
    """Whose turn it is, which colour's stone is next, and the pie choices when they are open
    (None once the game is over: the play loop announces the result)."""
    seat, colour = state.mover, state.to_move  # both None exactly when the game is over
    if seat is None or colour is None:
        return None
    player = state.players[seat]
    line = Text.assemble(
        (player, "bold"),
        f" ({state.player_colour}) places ",
        colour_text(colour),
        f"'s stone — {state.stone_index + 1} of {state.p} this turn",
    )
    swaps = state.swap_options()
    if swaps:
        line.append(f"; pie rule: play, or {' / '.join(swaps)}", style="yellow")
    return line


def match_line(state: OmegaState) -> Text | None:
    """Game number and finished games' totals in a tournament match (None outside a match)."""
    if not state.game.options["match"]:
        return None
    totals = ", ".join(f"{name} {format_score(total)}" for name, total in zip(state.players, state.seat_totals, strict=True))
    return Text(f"match game {min(state.game_number, 2)} of 2 · totals of finished games: {totals}", style="cyan")


def render(state: OmegaState, *, highlight: Iterable[str] = frozenset(), **_: Any) -> RenderableType:
    """The board of an Omega state with its key, each colour's groups and score, and the turn."""
    board = state.board
    marked = {board.index(label) for label in highlight if board.has(label)}

    def glyph(cell: int) -> Text:
        return stone(state.stone_at(board.labels[cell]), last=cell in marked)

    items = [(stone(colour), colour) for colour in state.game.colours]
    items.append((Text(EMPTY_GLYPH[0], style=EMPTY_GLYPH[1]), "empty cell"))
    notes = ["score = product of a colour's group sizes; last turn's stones reversed", HEX_LABEL_NOTE]
    parts: list[RenderableType] = [draw_hex_board(board, glyph), key(items, notes), Text(""), score_table(state)]
    extra = match_line(state)
    if extra is not None:
        parts.append(extra)
    turn = turn_line(state)
    if turn is not None:
        parts.append(turn)
    return Group(*parts)
