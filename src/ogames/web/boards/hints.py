"""The computer's analysis must never be a hint: the positions it does not analyse while a game
against someone goes on.

A game against someone else (a person in another browser, or the computer) is analysed on its own
page only once it is over, and once over it is never taken back (web/boards/hub.py, `may_analyse` and
`may_take_back`). A position can still reach the analysis by other ways: the record of the live
game downloaded, a resignation added, and uploaded; or its moves copied into a game played on one
screen, which may be analysed at any time. So every analysis is also refused when the position it
asks about is one that a live game against someone on this server has been through — every one of
its positions, not only the last: the line the computer gives from an earlier position leads
through the present one. Positions are compared by what is on the board (its cells, the stones,
the colour to move and who owns each colour), so a copy reached by another order of moves, or on a
custom board made like the game's, is caught too.

This guards the games this server process holds in memory (the games being played: web/boards/hub.py
keeps the recently used ones); a position that differs by a stone is a different position.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ogames.rules.protocol import State, is_board_state

Key = tuple[Any, ...]


@dataclass(frozen=True)
class Watched:
    """A live game against someone as the analysis gate sees it: its state (replaced, never
    changed, by each action, so it is safe to read in a thread) and the game it belongs to."""

    game: object  # the LiveGame, by identity (the cache of its positions' keys is kept per game)
    state: State


def position_key(state: State) -> Key:
    """What makes a board position the same as another: the game, the board's cells (not the
    options that made them: a custom board may copy another), the colour to move, who owns each
    colour (a swap changes it) and the stones on the board."""
    labels = state.board.labels if is_board_state(state) else ()
    stones = tuple((label, colour) for label in labels if (colour := state.stone_at(label)) is not None)
    cells = hash(frozenset(labels))  # equal boards hash alike; a rare clash only refuses an analysis
    return (state.game.name, cells, None if state.is_over else state.to_move, tuple(sorted(state.owner.items())), stones)


def positions_of(state: State, known: tuple[State, frozenset[Key]] | None = None) -> frozenset[Key]:
    """The keys of every position a game has been through, its present one included; `known`, the
    keys of an earlier state of the same game, saves working out the positions they share."""
    stop, keys = 0, set()
    if known is not None:
        earlier, earlier_keys = known
        count = len(earlier.history)
        if count <= len(state.history) and state.history[:count] == earlier.history:  # moves added since
            stop, keys = count, set(earlier_keys)
    trial = state.clone()
    keys.add(position_key(trial))
    while len(trial.history) > stop:
        trial.undo()
        keys.add(position_key(trial))
    return frozenset(keys)


_seen: weakref.WeakKeyDictionary[object, tuple[State, frozenset[Key]]] = weakref.WeakKeyDictionary()


def _positions(watched: Watched) -> frozenset[Key]:
    """A live game's positions, worked out again only for the moves made since it was last asked."""
    cached = _seen.get(watched.game)
    if cached is not None and cached[0] is watched.state:
        return cached[1]
    keys = positions_of(watched.state, cached)
    _seen[watched.game] = (watched.state, keys)
    return keys


def is_hint(state: State, live_games: Iterable[Watched]) -> bool:
    """Whether analysing this position could help one side of a live game against someone: it is
    a position one of them has been through. Blocking (it may replay whole games): run it in a thread."""
    name = state.game.name
    candidates = [watched for watched in live_games if watched.state.game.name == name]
    if not candidates:
        return False
    key = position_key(state)
    return any(key in _positions(watched) for watched in candidates)


__all__ = ["Watched", "is_hint", "position_key", "positions_of"]
