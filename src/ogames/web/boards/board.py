"""The board on the game page: the project's drawings (`ogames.draw`) and what the page shows
beside them, for any position of a game.

Every view the server sends carries `board` (see `board_part`): the position drawn as SVG by
`ogames.draw.board_svg` — every cell a `<g data-cell="LABEL">`, stones as shapes of their colour,
the last move, Onyx's captures and the winning group marked — and the facts shown next to it, as
the rules work them out (`facts()` of the board games' contract, `ogames.rules.protocol`): the
cells to outline as the win, the last move's captures, Omega's group sizes and which stone of the
turn is next, Omny's komi and each colour's star count of the largest region, Onyx's captures so
far. What stays the same for a whole game (where each cell's
stone goes, a ghost stone per colour for the hover preview, each colour's small stone picture) is
sent once with the page (`board_setup`). The page never decides legality: it previews only the
moves the view lists as legal.

An earlier position (`position_state`) is rebuilt by replaying the game's first K moves on a new state.
"""

from __future__ import annotations

import functools
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from ogames.boards.graph import Board
from ogames.draw import board_frame as draw_frame
from ogames.draw import board_svg as draw_board
from ogames.draw import last_move_cells, stone_svg
from ogames.draw.boards import Marks, cell_marks, describe_cell, highlight_svg, stone_places
from ogames.draw.markup import num
from ogames.draw.style import stone as stone_shape
from ogames.errors import OgamesError
from ogames.rules.protocol import State, is_board_state
from ogames.web.boards.views import BoardView, MoveView, OutcomeView, PositionView
from ogames.web.core.delta import Stones
from ogames.web.core.names import move_words
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.i18n import plural
from ogames.web.messages import speaker, word


def board_of(state: State) -> Board | None:
    """The board a stone game is played on (None for a game without one)."""
    return state.board if is_board_state(state) else None


def board_svg(state: State, language: str = ENGLISH) -> str:
    """The board of a state as SVG markup, every cell an element with `data-cell` (empty without a
    board), its titles and labels in `language`."""
    if board_of(state) is None:
        return ""
    return draw_board(state, highlight=winning_cells(state), speak=speaker(language))


def board_part(state: State, language: str = ENGLISH) -> dict[str, Any]:
    """What a view says about the board: the drawing (in `language`) and the facts shown beside it
    (made once per position and language: a game's view is sent again while the computer thinks,
    and to every watcher). A live game's views for pages that take deltas carry the facts alone
    (`board_facts`): the page has the board drawn once and puts the stones on it."""
    if board_of(state) is None:
        return {}
    last = state.history[-1] if state.history else {}
    stamp = (len(state.history), id(last), last.get("move"), state.result, language)
    kept = _parts.setdefault(state, {}).get(language)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    part = _board_part(state, language)
    _parts[state][language] = (stamp, part)
    return part


def position_drawn(state: State, language: str = ENGLISH) -> bool:
    """Whether a position's facts in a language are made already (`position_facts` returns them at once)."""
    kept = _facts.get(state, {}).get(language)
    return kept is not None and kept[0] == _stamp(state)


def cells(state: State) -> int:
    """The cells of a state's board (0 without one): what drawing its position costs grows with."""
    board = board_of(state)
    return len(board.labels) if board is not None else 0


@dataclass(frozen=True)
class Position:
    """What a game's view says about one position in one language (`position_facts`): shared by
    every view of the position, so never changed (a later position makes new lists)."""

    stones: dict[str, str]  # the stone on each occupied cell
    moves: list[MoveView]  # the moves as listed, each made once (with its words in the language)
    legal: list[str]  # the legal moves on cells
    specials: list[str]  # the other legal moves (a swap, a komi)
    last: str | None  # the cell of the last stone placed
    winning: list[str]
    board: BoardView


# A position of a game and its facts in a language, from which the next position's are made.
Made = tuple[State, Position]


def position_facts(state: State, language: str = ENGLISH, previous: Made | None = None) -> Position:
    """What a game's view says about its position, made once per position and language (a large
    board's takes a while; the server makes it off the event loop): the stones by cell, the moves
    as listed (with their words in `language`), the legal moves split into cells and others
    (`specials`: a swap, a komi), the last move placed, the winning cells and the board's facts.

    Given the `previous` position of the same game (a live game's last one), what the moves since
    changed is all that is made again: the moves listed from the first record entry they rewrote
    (the entries before it are the very same objects: a state's copy shares them), and the stones
    of the cells whose stone changed. The legal moves and the board's facts are the rules' own."""
    stamp = _stamp(state)
    kept = _facts.setdefault(state, {}).get(language)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    board = board_of(state)
    labels = board.labels if board is not None else ()
    legal: list[str] = []
    specials: list[str] = []
    if not state.is_over:
        on_board = _label_set(board) if board is not None else frozenset()
        for move in state.legal_moves():
            (legal if move in on_board else specials).append(move)
    follows = previous is not None and previous[0] is not state and previous[0].game is state.game
    if previous is not None and follows:
        moves = _moves_since(previous, state, language)
        stones = _stones_since(previous, state, labels)
    else:
        moves = [move_view(n, entry, language) for n, entry in enumerate(state.history, start=1)]
        stones = stones_by_label(state, labels)
    placed = next((entry for entry in reversed(state.history) if entry.get("move") in stones), None)
    facts = Position(stones=stones, moves=moves, legal=legal, specials=specials, last=placed.get("move") if placed else None,
                     winning=winning_cells(state), board=BoardView(**board_facts(state, legal)))
    _facts[state][language] = (stamp, facts)
    return facts


def move_view(n: int, entry: dict[str, Any], language: str = ENGLISH) -> MoveView:
    """Record entry `n` (from 1) as the page lists it: number, colour, notation, what an Onyx move
    captured, and in a language other than English its words (the API's English views show the notation)."""
    item: dict[str, Any] = {"n": n, "by": entry.get("by"), "move": entry.get("move")}
    if entry.get("captures"):
        item["captures"] = list(entry["captures"])
    if language != ENGLISH:
        item["text"] = move_words(item["move"], language)
    return MoveView(**item)


def _moves_since(previous: Made, state: State, language: str) -> list[MoveView]:
    """The moves listed, from those of an earlier (or later: a take-back) position of the game:
    kept up to the first entry that is not the very same object in both records."""
    before, made = previous
    old, new = before.history, state.history
    first = min(len(old), len(new), len(made.moves))
    while first and old[first - 1] is not new[first - 1]:
        first -= 1
    return [*made.moves[:first], *(move_view(n, entry, language) for n, entry in enumerate(new[first:], start=first + 1))]


def _stones_since(previous: Made, state: State, labels: tuple[str, ...] | list[str]) -> dict[str, str]:
    """The stones by cell, from those of another position of the game: changed on the cells
    whose stone differs (compared in the rules' arrays), knowing which (`delta.Stones`)."""
    before, made = previous
    if not (is_board_state(state) and is_board_state(before)) or before.stones.shape != state.stones.shape:
        return stones_by_label(state, labels)
    colours, cells = state.game.colours, state.stones
    changed = np.flatnonzero(before.stones != cells).tolist()
    stones = Stones(made.stones, origin=made.stones, changed=tuple(labels[cell] for cell in changed))
    for cell in changed:
        if cells[cell]:
            stones[labels[cell]] = colours[cells[cell] - 1]
        else:
            stones.pop(labels[cell], None)
    if isinstance(made.stones, Stones):
        made.stones.origin = None  # one step back is all a delta uses: no chain of every position's stones
    return stones


@functools.lru_cache(maxsize=64)
def _label_set(board: Board) -> frozenset[str]:
    """A board's labels as a set (boards are immutable and shared by every game on them)."""
    return frozenset(board.labels)


def stones_by_label(state: State, labels: tuple[str, ...] | list[str]) -> dict[str, str]:
    """The stone on each occupied cell, by label: read from a board state's array (every label's
    stone_at would parse each label again), else cell by cell."""
    if is_board_state(state):
        colours, cells = state.game.colours, state.stones
        return {labels[cell]: colours[cells[cell] - 1] for cell in np.flatnonzero(cells).tolist()}
    return {label: colour for label in labels if (colour := state.stone_at(label)) is not None}


def _stamp(state: State) -> tuple[Any, ...]:
    last = state.history[-1] if state.history else {}
    return (len(state.history), id(last), last.get("move"), state.result)


# The latest facts of each live state in each language, dropped with the state.
_facts: weakref.WeakKeyDictionary[State, dict[str, tuple[tuple[Any, ...], Position]]] = weakref.WeakKeyDictionary()


# The latest board part of each live state in each language, dropped with the state.
_parts: weakref.WeakKeyDictionary[State, dict[str, tuple[tuple[Any, ...], dict[str, Any]]]] = weakref.WeakKeyDictionary()


def _board_part(state: State, language: str) -> dict[str, Any]:
    if not is_board_state(state):
        return {}
    return {"svg": draw_board(state, highlight=state.winning_cells(), speak=speaker(language)), **board_facts(state)}


def board_facts(state: State, legal: list[str] | None = None) -> dict[str, Any]:
    """The facts shown beside the board (the same in every language): the rules' own (`facts()` of
    the board games' contract: the cells to outline as the win, the last move's captures, Omega's
    group sizes and the stone being placed, Omny's komi and regions, Onyx's captures so far), what
    a page puts on the board it has drawn once (the last move's stones, the winning outline), and
    Onyx's open midpoints (of the `legal` cells, if given)."""
    if not is_board_state(state):
        return {}
    facts = state.facts()
    board = state.board
    part = facts.jsonable()
    # What a page puts on the board it has drawn once: the stones with the last move's dot,
    # and the winning group's outline (drawn here, by ogames.draw).
    part["marked"] = [board.labels[c] for c in sorted(last_move_cells(state)) if state.stones[c] != 0]
    part["outline"] = highlight_svg(board, frozenset(board.index(label) for label in facts.winning)) if facts.winning else ""
    if legal is not None and "midpoints" in board.cell_sets:  # Onyx: which midpoints are open now
        part["open"] = [cell for cell in legal if cell.endswith("*")]
    return part


def winning_cells(state: State) -> list[str]:
    """The cells to outline at the end, as the rules say (`BoardState.winning_cells`): the winning
    group (Omny, Odd-Y), the group of the stone that connected the sides (Onyx), the winner's stones
    (Omega); none after a resignation or a draw, and none in a game without a board."""
    return state.winning_cells() if is_board_state(state) else []


def move_list(state: State) -> list[dict[str, Any]]:
    """The moves as the page lists them: number, colour, notation, and what an Onyx move captured."""
    out = []
    for n, entry in enumerate(state.history, start=1):
        item: dict[str, Any] = {"n": n, "by": entry.get("by"), "move": entry.get("move")}
        if entry.get("captures"):
            item["captures"] = list(entry["captures"])
        out.append(item)
    return out


def board_setup(state: State, language: str = ENGLISH) -> dict[str, Any]:
    """What the page needs once for a whole game: each cell's stone place `[x, y, r]`, a ghost stone
    per colour (drawn at the origin with radius 1, for the page to move and scale), each colour's
    small stone picture (turn indicator, players, moves), and for putting the position on the board
    drawn once (`board_frame`): each colour's stone and last-move dot at the origin with radius 1
    and Onyx's capture cross (`marks`), and the cells' titles by content (`titles`: "{label}" in
    them is the cell's label; a star cell's key ends in `*`)."""
    board = board_of(state)
    colours = state.game.colours
    speak = speaker(language)
    pictures = {colour: stone_svg(colour, 22, speak=speak) for colour in colours}
    if board is None:
        return {"places": {}, "ghosts": {}, "stones": pictures, "marks": {}, "titles": {}}
    places = {label: [num(x), num(y), num(r)] for label, (x, y, r) in zip(board.labels, stone_places(board), strict=True)}
    ghosts = {colour: stone_shape(colour, 0, 0, 1) for colour in colours}
    titles = {f"{colour or ''}{'*' if star else ''}": describe_cell(LABEL, colour, star=star, marks=Marks(speak=speak))
              for colour in (None, *colours) for star in (False, True)}
    return {"places": places, "ghosts": ghosts, "stones": pictures, "marks": cell_marks(board, colours), "titles": titles}


LABEL = "{label}"


def board_frame(state: State, language: str = ENGLISH) -> str:
    """The board of a state's game drawn once for its page, with no stones (`ogames.draw.board_frame`)."""
    return draw_frame(state, speak=speaker(language)) if board_of(state) is not None else ""


def position_state(state: State, k: int) -> State:
    """The position after the first `k` entries of a game's record (0: the start); ValueError if
    there is no such position."""
    if not 0 <= k <= len(state.history):
        raise ValueError(f"there is no position {k}: the game has {plural(len(state.history), '{n} move|{n} moves', 'en')}")
    earlier = state.game.new_state(state.players)
    try:
        for entry in state.history[:k]:
            earlier.replay_entry(entry)
    except OgamesError as exc:  # the live game was built by these very moves: never expected
        raise ValueError(f"position {k} cannot be rebuilt: {exc}") from None
    return earlier


def position_view(state: State, k: int, language: str = ENGLISH) -> PositionView:
    """What the page shows of an earlier position (read-only): its board, whose turn it was, its
    result (in `language`)."""
    earlier = position_state(state, k)
    result = earlier.result
    return PositionView(
        type="position",
        k=k,
        of=len(state.history),
        to_move=None if earlier.is_over else earlier.to_move,
        scores=earlier.scores,
        result=None if result is None else OutcomeView(winner=result.winner, reason=word(result.reason, language),
                                                       text=word(result.describe(), language)),
        board=BoardView(**board_part(earlier, language)),
    )


__all__ = [
    "board_facts",
    "board_frame",
    "board_part",
    "board_setup",
    "board_svg",
    "move_list",
    "position_state",
    "position_view",
    "winning_cells",
]
