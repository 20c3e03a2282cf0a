"""When play starts at a table. Game time `t` is seconds since the signal ("Omiga!"). A turn-based
table is on at once; a real-time one waits until every person's seat has a page open (`ready`, on
any server process: web/core/presence.py), counts down `countdown` seconds and gives the signal, and
its bots start then. After a restart the clock resumes at the time of the last stored action: the
time the server was down (or before everyone was back) does not count."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from ogames.web.core.presence import Presence
from ogames.web.omiga.bots import Bots
from ogames.web.omiga.table import LiveTable

COUNTDOWN = 3.0  # seconds from "everyone is here" to the signal


class Signal:
    """Starts the tables a hub referees: at once, or once their people are here."""

    def __init__(self, presence: Presence, bots: Bots, announce: Callable[[LiveTable], Awaitable[None]],
                 countdown: float = COUNTDOWN):
        self.presence = presence
        self.bots = bots
        self.announce = announce
        self.countdown = countdown

    def begin(self, live: LiveTable) -> None:
        """Turn-based tables are on at once; real-time ones when their people are here."""
        if live.state.is_over:
            return
        if not live.realtime:
            now = time.monotonic()
            live.signal_at, live.origin = now, now - live.clock()
            self.bots.kick_turn(live)
        elif not live.people:
            self._count_down(live)

    async def presence_changed(self, live: LiveTable) -> None:
        """Who is at a table this process referees may have changed: show it, and count down once
        every person is here."""
        here = await self.presence.here(live.id)
        ready = set(here.seats) & live.people
        if (ready, here.pages) == (live.ready, live.pages):
            return
        live.ready, live.pages = ready, here.pages
        if live.realtime and live.signal_at is None and live.people <= live.ready and not live.state.is_over:
            self._count_down(live)
        await self.announce(live)

    def _count_down(self, live: LiveTable) -> None:
        """Count down, give the signal (the clock resumes where the record stops), start the bots."""
        live.signal_at = time.monotonic() + self.countdown
        live.origin = live.signal_at - live.clock()
        live.tasks.append(asyncio.get_running_loop().create_task(self._at_signal(live), name=f"omiga-signal-{live.id}"))

    async def _at_signal(self, live: LiveTable) -> None:
        assert live.signal_at is not None
        while (left := live.signal_at - time.monotonic()) > 0:
            await asyncio.sleep(left + 0.002)  # the loop's timers may wake a little early
        await self.announce(live)
        self.bots.start_realtime(live)


__all__ = ["COUNTDOWN", "Signal"]
