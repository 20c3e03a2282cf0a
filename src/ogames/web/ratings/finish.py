"""The end of a rated game (a board game or an Omiga table): rated once, and the changes shown to
its players.

Every way a board game ends — a winning move, a resignation, a loss on time, a correspondence
game's days running out (the sweeper), a claimed win — is a stored action (`Recorder.commit`);
the process that stored it and every process that hears of it (web/boards/sync.py), or loads the
game later, calls `Rater.settle`. Rating is idempotent in the database (`RatingStore`'s history
rows are keyed by game and player), so whichever process comes first rates it and the others find
it rated; each then reads the changes back from the history, so every process shows the same
numbers. An aborted game (no result) is never rated, nor one a guest or a deleted account sat in.
An Omiga table is the same (web/omiga/): every action that ends it is stored by its referee, which
settles it, and a process that rebuilds an ended table (a restart, a mirror taking it over)
settles it too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Generic, Protocol, TypeVar

from ogames.ratings import Rating, computer_id
from ogames.rules.protocol import State
from ogames.web.accounts import records as seats_records
from ogames.web.core.background import Background
from ogames.web.core.computer import level_shown
from ogames.web.core.store import Store
from ogames.web.core.store_faults import StorageError
from ogames.web.ratings import records

log = logging.getLogger("ogames.web")


class RatedGame(Protocol):
    """What the rater needs of a live game (`boards.live.LiveGame`, `omiga.table.LiveTable`)."""

    rating_changes: list[dict[str, Any]] | None

    @property
    def id(self) -> str: ...

    @property
    def state(self) -> State: ...

    @property
    def seat_kinds(self) -> list[str]: ...

    @property
    def rated(self) -> bool: ...

    @property
    def aborted(self) -> bool: ...

    def is_computer(self, seat: int) -> bool: ...


Live = TypeVar("Live", bound=RatedGame)


def rated_players(live: RatedGame, recorded: dict[int, str | None]) -> list[str] | None:
    """The player ids of a rated game's seats (a computer's as `computer:N`), or None when it
    cannot be rated: a seat held by a guest, by nobody recorded, or by a deleted account, a
    computer from before levels, or one account in two seats."""
    players: list[str] = []
    for seat in range(len(live.seat_kinds)):
        if live.is_computer(seat):
            level = level_shown(live.seat_kinds[seat])
            if level is None:
                return None
            players.append(computer_id(level))
            continue
        player = recorded.get(seat)
        if player is None or not player.startswith("a"):
            return None
        players.append(player)
    return players if len(set(players)) == len(players) else None


def shown_changes(changes: list[tuple[str, Rating, Rating]], recorded: dict[int, str | None],
                  names: dict[str, str]) -> list[dict[str, Any]]:
    """The changes as the game's view carries them, seat by seat: "1500?" → "1523" (+23)."""
    seat_of = {player: seat for seat, player in recorded.items() if player is not None}
    shown = []
    for player, before, after in changes:
        if player not in seat_of:
            continue
        diff = round(after.rating) - round(before.rating)
        shown.append({"seat": seat_of[player], "name": names.get(player, ""), "before": before.shown, "after": after.shown,
                      "diff": f"{diff:+d}"})
    return sorted(shown, key=lambda change: change["seat"])


class Rater(Generic[Live]):
    """Rates a hub's rated games as they end, and reads back what their end did to the ratings."""

    def __init__(self, store: Store, announce: Callable[[Live], Awaitable[None]]):
        self.store = store
        self.announce = announce
        self._side = Background("ratings")
        self._settling: set[str] = set()  # the games being settled now (each once at a time)

    def ended(self, live: Live) -> None:
        """A game held here has ended, or was loaded ended: settle its rating on the side."""
        if live.rated and live.state.is_over and not live.aborted and live.rating_changes is None \
                and live.id not in self._settling:
            self._settling.add(live.id)
            task = self._side.spawn(self.settle(live), name=f"ogames-rate-{live.id}")
            task.add_done_callback(lambda _: self._settling.discard(live.id))

    async def settle(self, live: Live) -> None:
        """Rate the game if no process has (its result is final: it is never taken back), then
        show every process's pages the changes as stored."""
        try:
            recorded = await asyncio.to_thread(seats_records.seat_players_of, self.store, live.id)
            players = rated_players(live, recorded)
            if players is None:
                live.rating_changes = []
                log.info("game %s: not rated: a seat was not held by an account", live.id)
            else:
                await asyncio.to_thread(records.rate_game, self.store, live.id, live.state, players)
                changes = await asyncio.to_thread(records.game_changes, self.store, live.id)
                names = await asyncio.to_thread(records.names_of, self.store, [player for player, _, _ in changes])
                live.rating_changes = shown_changes(changes, recorded, names)
                log.info("game %s: rated (%s)", live.id,
                         ", ".join(f"seat {change['seat'] + 1} {change['diff']}" for change in live.rating_changes))
        except StorageError as exc:  # the database is away: the next process to load or hear of the game tries again
            log.warning("game %s: could not be rated now: %s", live.id, exc)
            return
        await self.announce(live)

    async def close(self) -> None:
        await self._side.close()


__all__ = ["RatedGame", "Rater", "rated_players", "shown_changes"]
