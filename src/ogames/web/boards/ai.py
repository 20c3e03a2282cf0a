"""The computer's move, computed in a worker (a process by default) so the server never waits on it.

The worker gets the game's record and the seat's player spec, rebuilds the position through the
rules and asks the player; only plain data crosses the process boundary.

A live game's search is kept in the worker between its moves (`Kept`), so that the compiled
search reuses its tree (and `opponent=auto` its memory of being behind) as it does in the library:
the player is shown the same game's state, grown by the moves made since its last choice. The
record stays the truth: a kept search serves only a record that continues the position it knows,
and only when replaying the new moves on its state gives exactly the record's position; anything
else (an undo, another spec, a lost or evicted entry after a restart) builds a fresh player from the
record, as every move did before. A game's entries are dropped when it ends, after KEPT_IDLE
seconds unused, or, least recently used first, beyond KEPT_GAMES searches.

Each worker keeps the searches of its own games: the server sends every move of a live game to
the worker that made its last one while it is free (web/core/move_workers.py), so with several
move workers too a game's search is reused; a game that moves to another worker (its own was busy,
or died) has its search rebuilt there from the record.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ogames
from ogames.players import player
from ogames.players.base import BasePlayer, Player
from ogames.players.mcts import warm_up
from ogames.records import replay_move
from ogames.rules.protocol import State

KEPT_GAMES = 16  # searches kept at most (one a live game's computer seat): each holds its tree's memory
KEPT_IDLE = 15 * 60.0  # seconds a kept search may go unused before it is dropped

_warm: set[str] = set()  # games whose kernels this worker has already made ready


@dataclass
class Kept:
    """A live game's search for one seat: its player, the spec it was made from, and the state it
    last chose in (the game object its tree belongs to), grown by the moves made since."""

    spec: str
    player: Player
    state: State
    used: float  # when it last moved (the cache's clock)
    resumed: int = 0  # moves it chose after its first (a diagnostic: the kept search was reused)


class KeptSearches:
    """The worker's kept searches by (game id, seat): bounded (LRU), idle ones dropped (TTL).

    An entry is taken out while it searches and put back after, so that two calls for one key at
    once (a cancelled move still running in a thread beside its successor) never share a tree."""

    def __init__(self, size: int = KEPT_GAMES, idle: float = KEPT_IDLE, clock: Callable[[], float] = time.monotonic):
        self.size, self.idle, self.clock = size, idle, clock
        self._entries: OrderedDict[tuple[str, int], Kept] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: tuple[str, int]) -> Kept | None:
        with self._lock:
            self._drop_idle()
            return self._entries.pop(key, None)

    def put(self, key: tuple[str, int], kept: Kept) -> None:
        with self._lock:
            kept.used = self.clock()
            self._entries[key] = kept
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def forget(self, game: str) -> None:
        """Drop every seat's search of a game."""
        with self._lock:
            for key in [key for key in self._entries if key[0] == game]:
                del self._entries[key]

    def peek(self, key: tuple[str, int]) -> Kept | None:
        """The entry kept for a key, left as it is (for tests and diagnostics)."""
        with self._lock:
            return self._entries.get(key)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def keys(self) -> list[tuple[str, int]]:
        with self._lock:
            return list(self._entries)

    def _drop_idle(self) -> None:
        since = self.clock() - self.idle
        for key in [key for key, kept in self._entries.items() if kept.used < since]:
            del self._entries[key]


kept_searches = KeptSearches()  # this worker's


def choose_move(record: dict[str, Any], spec: str, game: str | None = None) -> str:
    """The move a player (by spec, e.g. `mcts:think=1`) makes in the position a record ends in.
    With the live game's id (`game`), the seat's search is kept for the game's next move."""
    state = ogames.replay(record)
    _warm_up(state)
    if game is None or state.mover is None:
        move: str = player(spec).choose(state)
        return move
    key = (game, state.mover)
    kept = _resumed(kept_searches.take(key), spec, state)
    if kept is None:
        kept = Kept(spec, player(spec), state, 0.0)
    else:
        kept.resumed += 1
    move = kept.player.choose(kept.state)
    after = kept.state.clone()
    after.play(move)
    if not after.is_over:  # a move that ends the game leaves nothing to keep
        kept_searches.put(key, kept)
    return move


def forget(game: str) -> None:
    """Drop a game's kept searches (it is over)."""
    kept_searches.forget(game)


def kept_report(game: str) -> dict[int, dict[str, Any]]:
    """What this worker keeps of a game, by seat (a diagnostic): the moves its search chose after
    its first (`resumed`), the visits its tree held when its last search began (`reused`), and the
    reply its principal variation expects (`expects`, None if it saw none)."""
    report: dict[int, dict[str, Any]] = {}
    for key in kept_searches.keys():
        kept = kept_searches.peek(key)
        if key[0] == game and kept is not None:
            info = kept.player.info() if isinstance(kept.player, BasePlayer) else {}
            pv = list(info.get("pv") or ())
            report[key[1]] = {"resumed": kept.resumed, "reused": int(info.get("reused") or 0),
                              "expects": pv[1] if len(pv) > 1 else None}
    return report


def _resumed(kept: Kept | None, spec: str, state: State) -> Kept | None:
    """`kept` brought to the record's position `state` (the moves made since its last choice
    replayed on its own state), or None when it cannot serve it: another spec, or a record that
    does not continue its position (an undo, another game)."""
    if kept is None or kept.spec != spec:
        return None
    known, wanted = kept.state.record(), state.record()
    done = len(known["moves"])
    if {k: v for k, v in known.items() if k != "moves"} != {k: v for k, v in wanted.items() if k != "moves"}:
        return None
    if wanted["moves"][:done] != known["moves"]:
        return None
    try:
        for number, entry in enumerate(wanted["moves"][done:], start=done + 1):
            replay_move(kept.state, number, entry)
    except ogames.BadRecord:
        return None
    if kept.state.record() != wanted:  # the position the search will see is exactly the record's
        return None
    return kept


def _warm_up(state: State) -> None:
    key = state.game.name
    if key not in _warm:  # the first search would otherwise spend its time compiling kernels
        warm_up(state)
        _warm.add(key)


def ready() -> bool:
    """A no-op a new worker runs first, so that it is started before the first real move."""
    return True


def analyse(record: dict[str, Any], ply: int, seconds: float) -> dict[str, Any]:
    """The computer's view of the position after the first `ply` entries of a record: its best
    move, its estimate of the mover's chance to win, and the line it expects (the compiled
    search's `info()`). The caller has checked that the position is not over."""
    state = ogames.replay(record, upto=ply)
    _warm_up(state)
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


def review_game(record: dict[str, Any], budget: int, prove: int, progress_file: str | None = None) -> dict[str, Any]:
    """A finished game's review (`ogames.teach.review`: every move's win chance before and after,
    its mark, the better move and its line, the solver's proofs), as JSON values to store.
    `budget`: search iterations per position; `prove`: solver positions per position. With
    `progress_file`, "DONE TOTAL" (positions valued so far, of all) is kept in that file, which the
    server's process reads while it waits (this runs in a worker process of its own)."""
    from ogames.teach.review import review  # the review's modules load in the worker that runs it

    state = ogames.replay(record)
    _warm_up(state)
    noted = functools.partial(note_progress, progress_file) if progress_file else None
    return review(state, budget=budget, prove=prove, progress=noted).to_json()


def note_progress(path: str, done: int, total: int) -> None:
    """Keep "DONE TOTAL" in a file, written whole (never read half written). Only a count for a
    waiting page: if it cannot be written (the server stopped waiting and removed its folder), the
    review goes on without it."""
    part = path + ".part"
    try:
        with open(part, "w", encoding="ascii") as file:
            file.write(f"{done} {total}")
        os.replace(part, path)
    except OSError:
        pass
