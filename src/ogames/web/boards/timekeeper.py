"""The time of live board games with a clock: a timer per game that makes the seat to move lose
when its time runs out, and the flag's fall checked before anything is done in a game whose time
may have run out while nobody looked (the clock itself, a value, is `clock.Clock`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ogames.errors import OgamesError
from ogames.web.boards.live import LiveGame, describe_result, seat_colour
from ogames.web.boards.recorder import Recorder
from ogames.web.core.common import Refusal
from ogames.wording import say

log = logging.getLogger("ogames.web")

FLAG_GRACE = 0.05  # seconds after a clock reaches zero before the server looks (timers may fire early)

class Timekeeper:
    """Arms, checks and lets fall the flags of a hub's timed games."""

    def __init__(self, recorder: Recorder, announce: Callable[[LiveGame], Awaitable[None]]):
        self.recorder = recorder
        self.announce = announce
        self._tasks: set[asyncio.Task[None]] = set()  # kept so that they are not collected mid-run

    def arm(self, live: LiveGame) -> None:
        """Set the timer that makes the seat to move lose when its time runs out (or none, if no
        clock runs)."""
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        clock, state = live.clock, live.state
        if clock is None or clock.since is None or state.is_over or state.mover is None:
            return
        delay = max(0.0, clock.left(state.mover, state.mover)) + FLAG_GRACE
        loop = asyncio.get_running_loop()
        live.flag_timer = loop.call_later(delay, self._due, live)

    def _due(self, live: LiveGame) -> None:
        live.flag_timer = None
        task = asyncio.get_running_loop().create_task(self._when_due(live), name=f"ogames-flag-{live.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _when_due(self, live: LiveGame) -> None:
        async with live.lock:
            flagged = await self.flag_if_out_of_time(live)
            if flagged is None:
                self.arm(live)  # the timer was early, or the position changed: wait again
        if flagged is not None:
            await self.announce(live)

    async def fall_if_due(self, live: LiveGame) -> None:
        """Before a resignation or an undo: if the seat to move's time has run out (its timer not
        yet run), its flag falls first and the request is refused, as the game is over."""
        if live.clock is None or not live.clock.out_of_time(live.state.mover):
            return
        async with live.lock:
            flagged = await self.flag_if_out_of_time(live)
        if flagged is not None:
            await self.announce(live)
            raise Refusal(say("too-late-over", "too late: the game is over ({result})", result=flagged), "over", 409)

    async def flag_if_out_of_time(self, live: LiveGame) -> str | None:
        """If the seat to move has used up its time, it loses on time (stored like a move): the
        result's text, else None. The game's lock is held."""
        clock, state = live.clock, live.state
        if clock is None or state.is_over or not clock.out_of_time(state.mover):
            return None
        seat = state.mover
        colour = None if seat is None else seat_colour(state, seat)
        if seat is None or colour is None:
            return None
        trial = state.clone()
        try:
            trial.resign(colour)
            await self.recorder.commit(live, trial, flagged=seat)
        except (OgamesError, NotImplementedError, Refusal) as exc:
            log.error("game %s: the loss on time of seat %d could not be made: %s", live.id, seat + 1, exc)
            return None
        log.info("game %s: seat %d lost on time", live.id, seat + 1)
        return describe_result(live)

__all__ = ["FLAG_GRACE", "Timekeeper"]
