"""The computer's move, computed in a worker (a process by default) so the server never waits on it.

The worker gets the game's record and the seat's player spec, rebuilds the position through the
rules and asks the player; only plain data crosses the process boundary.
"""

from __future__ import annotations

from typing import Any

import ogames
from ogames.players import player
from ogames.players.mcts import warm_up

_warm: set[str] = set()  # games whose kernels this worker has already made ready


def choose_move(record: dict[str, Any], spec: str) -> str:
    """The move a player (by spec, e.g. `mcts:think=1`) makes in the position a record ends in."""
    state = ogames.replay(record)
    key = state.game.name
    if key not in _warm:  # the first search would otherwise spend its time compiling kernels
        warm_up(state)
        _warm.add(key)
    move: str = player(spec).choose(state)
    return move


def ready() -> bool:
    """A no-op a new worker runs first, so that it is started before the first real move."""
    return True


def analyse(record: dict[str, Any], ply: int, seconds: float) -> dict[str, Any]:
    """The computer's view of the position after the first `ply` entries of a record: its best
    move, its estimate of the mover's chance to win, and the line it expects (the compiled
    search's `info()`). The caller has checked that the position is not over."""
    state = ogames.replay(record, upto=ply)
    key = state.game.name
    if key not in _warm:
        warm_up(state)
        _warm.add(key)
    # An analysis is the position's own worth: the opponent modelled strong (the default `auto`
    # turns to a weak model when behind, which plays for a fallible opponent's mistakes).
    searcher = player("mcts", think=seconds, opponent="strong")
    move = searcher.choose(state)
    info = searcher.info()
    value = info.get("value")
    return {
        "move": move,
        "value": None if value is None else float(value),
        "reliable": bool(info.get("reliable")),
        "proven": info.get("proven"),
        "pv": [str(step) for step in info.get("pv") or [move]],
        "iterations": int(info.get("iterations") or 0),
        "seconds": float(info.get("seconds") or 0.0),
    }
