"""The sweeper: every `Settings.sweep_seconds` (30 unless the server is set otherwise), and once as
soon as the server starts, it asks the database for the correspondence games whose turn's
deadline has passed (`Store.due_games`) and lets their flags fall (`Timekeeper.fall_now`): the
seat to move loses on time, or the game is aborted if that seat had not moved yet. A game whose
deadline passed while the server was down ends when it starts.

Several server processes on one database each sweep; a game ends once all the same, as the loss on
time is stored only at the version the process read (the store's version check): the other
process's attempt finds the game changed, reads it again and sees it over.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ogames.web.boards import clock as clocks
from ogames.web.core.background import Background
from ogames.web.core.common import Refusal
from ogames.web.core.store_faults import StorageError

if TYPE_CHECKING:
    from ogames.web.boards.hub import Hub

log = logging.getLogger("ogames.web")

class Sweeper:
    """Ends a hub's correspondence games whose player ran out of days, every `every` seconds (the
    hub's `Settings.sweep_seconds` unless given); `wait` is how it waits between sweeps (asyncio's
    sleep: a test gives its own clock)."""

    def __init__(self, hub: Hub, every: float | None = None, wait: Callable[[float], Awaitable[object]] = asyncio.sleep):
        self.hub = hub
        self.every = hub.settings.sweep_seconds if every is None else every
        self.wait = wait
        self._side = Background("sweeper")

    def start(self) -> None:
        """Sweep now, then every `every` seconds until closed."""
        self._side.spawn(self._run(), name="ogames-sweeper")

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug: logged, and the next sweep tries again
                log.exception("sweeper: a sweep failed")
            await self.wait(self.every)

    async def sweep(self) -> int:
        """End every game whose deadline has passed: how many of them are over now."""
        try:
            due = await asyncio.to_thread(self.hub.store.due_games, clocks.now())
        except StorageError as exc:  # the database is away: the next sweep asks again
            log.warning("sweeper: the games due could not be read: %s", exc)
            return 0
        ended = 0
        for game_id in due:
            try:
                held = game_id in self.hub.live
                live = await self.hub.get(game_id)  # a game loaded now has its flag fall as it loads
                if held and not live.ended:
                    async with live.lock:  # another process may have moved since: the store decides
                        await self.hub.recorder.reload(live)
                if not live.ended:
                    await self.hub.timekeeper.fall_now(live)
                ended += live.ended
            except Refusal as refusal:  # a game that cannot be read just now: the next sweep
                log.warning("sweeper: game %s: %s", game_id, refusal.message)
        return ended

    async def close(self) -> None:
        await self._side.close()


__all__ = ["Sweeper"]
