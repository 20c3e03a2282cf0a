"""A visitor's own games, as the "my games" page lists them: those waiting for the visitor's move
first (the least time left first), then those going on, then those over; each with its opponents
(an account's name, the computer's level, a guest), and for a game over the visitor's result.

The seats a visitor held come from `seat_players` (`records.games_of`: an account's games, or a
guest's by the guest's id); whose move it is comes from the game itself, read through the board
hub as a page opening it would (`Hub.opened`: up to date with the store, even when another
server process made the last move). A game's time left is its correspondence deadline or the
mover's live clock; an untimed game waiting for the visitor has none and comes after the timed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import Any

from ogames.web.accounts import records
from ogames.web.boards.hub import Hub
from ogames.web.boards.live import BROWSER_GAMES
from ogames.web.core.common import Refusal
from ogames.web.core.store import Store
from ogames.web.ratings.profile import opponents, outcome
from ogames.web.ratings.records import seat_names_for

log = logging.getLogger(__name__)

WAITING, GOING_ON, OVER = "waiting", "going-on", "over"


@dataclass(frozen=True)
class MyGame:
    """One of the visitor's games, as the page lists it."""

    id: str
    game: str
    state: str  # WAITING (for the visitor's move), GOING_ON, OVER
    left: float | None  # seconds the visitor has left to move (WAITING with a clock), else None
    correspondence: bool
    status: str  # the store's: playing, over, aborted
    updated_at: float
    opponents: tuple[dict[str, Any], ...] = ()  # as a profile lists them (ratings/profile.py)
    outcome: str | None = None  # a game over: the visitor's win, loss, draw (or aborted)
    rated: bool = False


def order_key(game: MyGame) -> tuple[int, float, float]:
    """Waiting games first, the least time left first (untimed last among them); then games going
    on; then games over; the most recently changed first within each."""
    rank = {WAITING: 0, GOING_ON: 1, OVER: 2}[game.state]
    left = game.left if game.left is not None else float("inf")
    return rank, left if rank == 0 else 0.0, -game.updated_at


async def my_games(store: Store, hub: Hub, player_id: str) -> list[MyGame]:
    """The visitor's games in the page's order."""
    played = await asyncio.to_thread(records.games_of, store, player_id)
    ids = [entry["id"] for entry in played]
    names = await asyncio.to_thread(seat_names_for, store, ids)
    taken = await asyncio.to_thread(records.seats_taken, store, ids)
    found = [await _read(hub, entry, names.get(entry["id"], {}), taken[entry["id"]]) for entry in played]
    return sorted(found, key=order_key)


async def _read(hub: Hub, entry: dict[str, Any], names: dict[int, str], taken: set[int]) -> MyGame:
    game_id, game, status = str(entry["id"]), str(entry["game"]), str(entry["status"])
    seats = sorted(int(seat) for seat in entry["seats"])
    listed = MyGame(game_id, game, GOING_ON, None, False, status, float(entry["updated_at"]),
                    opponents=tuple(opponents(entry, names, taken)), rated=bool(entry["rated"]))
    if status != "playing":
        return replace(listed, state=OVER, outcome=outcome(entry["head"], seats))
    if game not in BROWSER_GAMES:  # (Omiga is real time: going on, or over)
        return listed
    try:
        live = await hub.opened(game_id)
    except Refusal as exc:
        log.info("my games: game %s not read: %s", game_id, exc.message)
        return listed
    clock, mover = live.clock, live.state.mover
    if live.ended:  # since the store was read: the result is the game's own
        result = None if live.aborted else live.state.record_head().get("result")
        return replace(listed, state=OVER, status="aborted" if live.aborted else "over",
                       outcome=outcome({**entry["head"], "result": result}, seats))
    listed = replace(listed, correspondence=bool(getattr(clock, "correspondence", False)))
    if mover in seats:
        left = clock.left(mover, mover) if clock is not None and clock.runs(mover) else None
        return replace(listed, state=WAITING, left=None if left is None else max(0.0, left))
    return listed


__all__ = ["GOING_ON", "OVER", "WAITING", "MyGame", "my_games", "order_key"]
