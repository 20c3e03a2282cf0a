"""SVG drawings of every game's board, for the web page (and anything else that shows SVG).

    from ogames.draw.svg import board_svg
    svg = board_svg(state)                       # the board as SVG text
    svg = board_svg(state, preview=("c3", "black"), highlight=["c3", "d3"])

Every board cell (hex cell, polar cell, Onyx point or midpoint, Omiga table cell) is a
`<g class="cell" data-cell="LABEL">` with a `<title>` saying its label and content, so a page can
attach clicks to it; occupied cells say `data-stone="COLOUR"` (the card's owner on the Omiga
table), Omny's star cells `data-star="true"`. Stones differ by shape as well as colour (see
`ogames.draw.style`). The drawing has a viewBox and no fixed size: it scales to its container.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, cast

from ogames.boards.graph import LATTICE, POLAR, Board
from ogames.draw import style
from ogames.draw.boards import Marks, Speak, hex_svg, onyx_svg, polar_svg
from ogames.draw.cards import BASE_OWNERS, TableParts, card_colours, card_svg, form_svg, table_parts, table_svg
from ogames.draw.markup import document, element, group, text
from ogames.rules.omiga.cards import Face
from ogames.rules.omiga.contract import is_table_state
from ogames.rules.protocol import Game, State, is_board_game, is_board_state
from ogames.wording import say

__all__ = ["TableParts", "board_frame", "board_svg", "card_svg", "form_svg", "last_move_cells", "legend", "legend_svg",
           "stone_svg", "table_drawing"]


def board_of(state: State) -> Board:
    """The board a state's cells live on (the card table's grid for Omiga)."""
    if is_board_state(state):
        return state.board
    if is_table_state(state):
        return state.table.board
    raise TypeError(f"{state.game.title} is played on neither a board nor a card table")


def last_move_cells(state: State) -> frozenset[int]:
    """The cells the last move placed on (every placement of the last turn in Omega; the card of
    the last action in Omiga); none after `swap`, `komi=…`, a discard or a resignation."""
    if not state.history:
        return frozenset()
    board = board_of(state)
    words = str(state.history[-1].get("move", "")).replace(":", " ").split()
    return frozenset(board.index(w) for w in words if board.has(w))


def _cells(board: Board, labels: Iterable[str]) -> frozenset[int]:
    if isinstance(labels, str):
        labels = labels.split()
    return frozenset(board.index(label) for label in labels)


def _status(state: State) -> str:
    if state.result is not None:
        return state.result.describe()
    if state.to_move is None:
        return say("in-play", "in play")
    return say("to-move", "{colour} to move", colour=state.to_move)


def board_svg(
    state: State,
    *,
    coordinates: bool = True,
    last_move: bool = True,
    highlight: Iterable[str] | None = None,
    preview: tuple[str, str] | tuple[str, str, Face | str | None] | None = None,
    speak: Speak = str,
) -> str:
    """The state's board as SVG text.

    `coordinates`: labels along the edges (polar boards: each empty cell's label in it).
    `last_move`: mark the stones (or card) of the last move.
    `highlight`: labels to outline; None means the winning group, when the state keeps one.
    `preview`: `(label, colour)` draws a half-transparent ghost stone there (Omiga: `(label, owner)`
    or `(label, owner, face)` for a ghost card). Unknown labels raise `UnknownLabel`.
    `speak`: how the titles and labels are worded (`ogames.wording` sentences; English by default).
    """
    game = state.game
    board = board_of(state)
    winning = highlight is None
    lit, last, name = _marked(state, board, last_move, highlight, speak)
    if is_table_state(state):  # Omiga's card table
        ghost = None
        if preview is not None:
            face = preview[2] if len(preview) > 2 else None
            ghost = (board.index(preview[0]), preview[1], Face.from_code(face) if isinstance(face, str) else face)
        return table_svg(state, coordinates=coordinates, last=last, highlight=lit, preview=ghost, name=name, speak=speak)
    if not is_board_state(state):
        raise TypeError(f"{game.title} is played on neither a board nor a card table")
    marks = Marks(
        last=last,
        highlight=lit,
        captured=_cells(board, state.last_captures),
        preview=None if preview is None else (board.index(preview[0]), preview[1]),
        winning=winning,
        speak=speak,
    )
    if board.geometry == LATTICE:
        return onyx_svg(state, board, marks, coordinates=coordinates, name=name)
    if board.geometry == POLAR:
        return polar_svg(state, board, marks, coordinates=coordinates, name=name)
    stars = game.star_cells if is_board_game(game) else frozenset()
    return hex_svg(state, board, marks, coordinates=coordinates, stars=stars, number_sides=game.numbered_sides, name=name)


def _marked(state: State, board: Board, last_move: bool, highlight: Iterable[str] | None,
            speak: Speak) -> tuple[frozenset[int], frozenset[int], str]:
    """(the cells to outline, the last move's cells, the drawing's name) of `board_svg`'s arguments."""
    if highlight is None:
        highlight = state.winning_cells() if is_board_state(state) else ()
    lit = _cells(board, highlight)
    last = _occupied(state, board, last_move_cells(state)) if last_move else frozenset()
    name = speak(say("board-name", "{game} board: {status}", game=state.game.title, status=_status(state)))
    return lit, last, name


def table_drawing(state: State, *, speak: Speak = str) -> TableParts:
    """An Omiga table's drawing as `board_svg(state, speak=speak)` draws it, in its parts
    (`TableParts`: the frame, each cell, the marks), for a page that keeps the frame and
    replaces only the cells that change. TypeError for a state with no card table."""
    if not is_table_state(state):
        raise TypeError(f"{state.game.title} is not played on a card table")
    lit, last, name = _marked(state, board_of(state), True, None, speak)
    return table_parts(state, coordinates=True, last=last, highlight=lit, preview=None, name=name, speak=speak)


def board_frame(state: State, *, coordinates: bool = True, speak: Speak = str) -> str:
    """The board of a state's game with no stones and no marks, as SVG text: what stays the same
    for a whole game, and for every game on the same board (it is drawn once per board and `speak`).
    Every cell is its `<g class="cell" data-cell="LABEL">` as in `board_svg`, and an Onyx midpoint
    holds both its open ring and its closed dot, for a page to show the one its class (`open`,
    `closed`) says; the page puts the stones on it (`ogames.draw.boards.cell_marks`, `stone_places`)."""
    game = state.game
    stars = game.star_cells if is_board_game(game) else frozenset()
    return _frame(board_of(state), stars, game.numbered_sides, game.title, coordinates, speak)


class _Bare:
    """A position with no stone on the board and no move to make: what a frame is drawn from."""

    is_over = True

    def stone_at(self, label: str) -> None:
        return None

    def legal_moves(self) -> list[str]:
        return []


@lru_cache(maxsize=64)
def _frame(board: Board, stars: frozenset[int], number_sides: bool, title: str, coordinates: bool, speak: Speak) -> str:
    bare = cast(State, _Bare())
    name = speak(say("board-name", "{game} board: {status}", game=title, status=say("in-play", "in play")))
    if board.geometry == LATTICE:
        return onyx_svg(bare, board, Marks(speak=speak), coordinates=coordinates, name=name, frame=True)
    if board.geometry == POLAR:
        return polar_svg(bare, board, Marks(speak=speak), coordinates=coordinates, name=name)
    return hex_svg(bare, board, Marks(speak=speak), coordinates=coordinates, stars=stars, number_sides=number_sides, name=name)


def _occupied(state: State, board: Board, cells: frozenset[int]) -> frozenset[int]:
    """The cells that hold a stone (a match's next game starts empty: last game's move is not marked)."""
    return frozenset(c for c in cells if state.stone_at(board.labels[c]) is not None)


# ----- keys for the page -------------------------------------------------------------------------
def stone_svg(colour: str, size: float = 24.0, speak: Speak = str) -> str:
    """One stone as a small standalone picture (turn indicators, score tables, legends)."""
    r = size * 0.4
    name = speak(say("stone-picture",
                     "{colour} stone ({shape})", colour=colour, shape=style.SHAPE_WORDS[style.look(colour).shape]))
    return document([style.stone(colour, size / 2, size / 2, r, class_=f"stone stone-{colour}")], (0, 0, size, size),
                    name, class_="ogames-stone")


def legend(game: Game | State) -> list[dict[str, Any]]:
    """What the drawings of a game use, for a key on the page: one entry per colour (its shape in
    words, fill, rim and a small SVG), then the game's other marks (Omny star cells, Omiga hues)."""
    if isinstance(game, State):
        game = game.game
    entries = []
    cards = not is_board_game(game)  # Omiga's cards
    for colour in game.colours:
        lk = style.look(colour)
        if cards:
            fill, rim, _ = card_colours(colour)
            words = f"{colour} card" + ("" if colour in BASE_OWNERS else f" (marked with a {style.SHAPE_WORDS[lk.shape]})")
            picture = card_svg("AB^/", colour, label=words)
        else:
            fill, rim = lk.fill, lk.stroke
            words = f"{colour}: {style.SHAPE_WORDS[lk.shape]}"
            picture = stone_svg(colour)
        entries.append({"kind": "colour", "colour": colour, "shape": lk.shape, "words": words, "fill": fill, "stroke": rim,
                        "svg": picture})
    if cards:
        for hue, fill in style.HUES.items():
            entries.append({"kind": "hue", "hue": hue, "words": style.HUE_WORDS[hue], "fill": fill})
        entries.append({"kind": "seams", "words": "top and bottom edges: / \\ diagonals, ^ v points; cards fit edge to edge"})
    if is_board_game(game) and game.star_cells:
        entries.append({"kind": "star", "words": "star cell", "fill": style.STAR_CELL, "stroke": style.STAR_MARK})
    if is_board_game(game) and "midpoints" in game.board.cell_sets:  # Onyx's squares
        entries.append({"kind": "midpoint", "words": "open midpoint (all four corners empty)", "fill": style.CELL,
                        "stroke": style.CELL_LINE})
        entries.append({"kind": "captured", "words": "just captured", "fill": style.CAPTURE})
    entries.append({"kind": "last-move", "words": "last move: a dot on the stone" if not cards else "last move: a gold rim"})
    return entries


def legend_svg(game: Game | State) -> str:
    """The key as one small SVG: each colour's stone (or card) with its name and shape, and the
    game's other marks."""
    items = legend(game)
    row = 30.0
    body = []
    y = 0.0
    for item in items:
        x_text = 34.0
        if item["kind"] == "colour":
            if "card" in item["words"]:
                body.append(element("rect", x=4, y=y + 4, width=22, height=22, rx=3, fill=item["fill"], stroke=item["stroke"],
                                    stroke_width=1.5))
                if item["colour"] not in BASE_OWNERS:
                    body.append(style.stone(item["colour"], 15, y + 15, 5))
            else:
                body.append(style.stone(item["colour"], 15, y + 15, 10))
        elif item["kind"] == "hue":
            body.append(element("circle", cx=15, cy=y + 15, r=9, fill=item["fill"]))
            if item["hue"] == "B":
                body.append(element("circle", cx=15, cy=y + 15, r=4, fill=style.BACKDROP))
        elif item["kind"] == "star":
            body.append(element("rect", x=4, y=y + 4, width=22, height=22, rx=4, fill=style.STAR_CELL))
            body.append(style.star_mark(15, y + 15, 8, fill=style.STAR_MARK))
        elif item["kind"] == "midpoint":
            body.append(element("circle", cx=15, cy=y + 15, r=5, fill=style.CELL, stroke=style.CELL_LINE, stroke_width=1.5))
        elif item["kind"] == "captured":
            body.append(element("path", d=f"M9,{y + 9}L21,{y + 21}M9,{y + 21}L21,{y + 9}", stroke=style.CAPTURE, stroke_width=3,
                                stroke_linecap="round"))
        else:
            x_text = 4.0
        body.append(text(x_text, y + 15, item["words"], font_size=14, fill="#333", dy="0.35em"))
        y += row
    width = 40 + 7.4 * max(len(item["words"]) for item in items)
    name = f"key to the {game_name(game)} board"
    return document([group(body, class_="legend")], (0, 0, width, y), name, class_="ogames-legend")


def game_name(game: Game | State) -> str:
    """A game's title."""
    return (game.game if isinstance(game, State) else game).title
