"""A visitor's own games, as the "my games" page lists them: those waiting for the visitor's move
first (the least time left first), then those going on, then those over.

The seats a visitor held come from `seat_players` (`records.games_of`: an account's games, or a
guest's by the guest's id); whose move it is comes from the game itself, read through the board
hub as a page opening it would (`Hub.opened`: up to date with the store, even when another
server process made the last move). A game's time left is its correspondence deadline or the
mover's live clock; an untimed game waiting for the visitor has none and comes after the timed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from ogames.web.accounts import records
from ogames.web.boards.hub import Hub
from ogames.web.boards.live import BROWSER_GAMES
from ogames.web.core.common import Refusal
from ogames.web.core.store import Store

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


def order_key(game: MyGame) -> tuple[int, float, float]:
    """Waiting games first, the least time left first (untimed last among them); then games going
    on; then games over; the most recently changed first within each."""
    rank = {WAITING: 0, GOING_ON: 1, OVER: 2}[game.state]
    left = game.left if game.left is not None else float("inf")
    return rank, left if rank == 0 else 0.0, -game.updated_at


async def my_games(store: Store, hub: Hub, player_id: str) -> list[MyGame]:
    """The visitor's games in the page's order."""
    played = await asyncio.to_thread(records.games_of, store, player_id)
    found = [await _read(hub, entry) for entry in played]
    return sorted(found, key=order_key)


async def _read(hub: Hub, entry: dict[str, object]) -> MyGame:
    game_id, game, status = str(entry["id"]), str(entry["game"]), str(entry["status"])
    seats = {int(seat) for seat in entry["seats"]}  # type: ignore[attr-defined]
    updated = float(entry["updated_at"])  # type: ignore[arg-type]
    if status != "playing" or game not in BROWSER_GAMES:  # (Omiga is real time: going on, or over)
        return MyGame(game_id, game, OVER if status != "playing" else GOING_ON, None, False, status, updated)
    try:
        live = await hub.opened(game_id)
    except Refusal as exc:
        log.info("my games: game %s not read: %s", game_id, exc.message)
        return MyGame(game_id, game, GOING_ON, None, False, status, updated)
    clock, mover = live.clock, live.state.mover
    if live.ended:
        return MyGame(game_id, game, OVER, None, False, "aborted" if live.aborted else "over", updated)
    correspondence = bool(getattr(clock, "correspondence", False))
    if mover in seats:
        left = clock.left(mover, mover) if clock is not None and clock.runs(mover) else None
        return MyGame(game_id, game, WAITING, None if left is None else max(0.0, left), correspondence, status, updated)
    return MyGame(game_id, game, GOING_ON, None, correspondence, status, updated)


__all__ = ["GOING_ON", "OVER", "WAITING", "MyGame", "my_games", "order_key"]
