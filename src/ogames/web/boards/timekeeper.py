"""The time of board games with a clock: a timer per live game that makes the seat to move lose
when its time runs out, and the flag's fall checked before anything is done in a game whose time
may have run out while nobody looked (the clock itself, a value, is `clock.Clock`). A
correspondence game (`correspondence.DaysClock`) has no timer: the sweeper finds the games whose
deadline has passed in the database (web/boards/sweeper.py) and lets their flags fall here; a seat
that runs out of days before its first move aborts the game instead (web/boards/endings.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ogames.errors import OgamesError
from ogames.web.boards.correspondence import DaysClock
from ogames.web.boards.endings import Endings
from ogames.web.boards.live import LiveGame, describe_result, seat_colour
from ogames.web.boards.recorder import Recorder
from ogames.web.core.common import Refusal
from ogames.wording import say

log = logging.getLogger("ogames.web")

FLAG_GRACE = 0.05  # seconds after a clock reaches zero before the server looks (timers may fire early)

class Timekeeper:
    """Arms, checks and lets fall the flags of a hub's timed games."""

    def __init__(self, recorder: Recorder, announce: Callable[[LiveGame], Awaitable[None]], endings: Endings):
        self.recorder = recorder
        self.announce = announce
        self.endings = endings
        self._tasks: set[asyncio.Task[None]] = set()  # kept so that they are not collected mid-run

    def arm(self, live: LiveGame) -> None:
        """Set the timer that makes the seat to move lose when its time runs out (or none, if no
        clock runs)."""
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        clock, state = live.clock, live.state
        if clock is None or clock.correspondence or clock.since is None or live.ended or state.mover is None:
            return  # (a correspondence game's days are kept by the sweeper: no timer holds it in memory)
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

    async def fall_now(self, live: LiveGame) -> str | None:
        """Let the flag of a game fall if its time has run out (the sweeper's call; the lock is
        taken here): the result's text, else None. A copy found behind the store (another server
        process moved) is read again and looked at once more."""
        flagged = None
        for _ in range(2):
            async with live.lock:
                version = live.version
                flagged = await self.flag_if_out_of_time(live)
            if flagged is not None:
                await self.announce(live)
            if flagged is not None or live.version == version:
                break  # ended, or nothing to do; else the game was read again: look at it as it is now
        return flagged

    async def flag_if_out_of_time(self, live: LiveGame) -> str | None:
        """If the seat to move has used up its time, it loses on time (stored like a move): the
        result's text, else None. A correspondence game whose seat to move has not made its first
        move is aborted instead, and a computer's seat never runs out of days (it moves as soon as
        its game is loaded). The game's lock is held. If another server process changed the game
        first, the copy is read again and None is returned."""
        clock, state = live.clock, live.state
        if clock is None or live.ended or not clock.out_of_time(state.mover):
            return None
        if clock.correspondence and live.is_computer(state.mover):
            return None
        if isinstance(clock, DaysClock) and clock.aborts(state.mover):
            try:
                await self.endings.abort(live)
            except Refusal as exc:
                log.info("game %s: not aborted: %s", live.id, exc.message)
                return None
            log.info("game %s: seat %d let its first move's days run out", live.id, (state.mover or 0) + 1)
            return describe_result(live)
        seat = state.mover
        colour = None if seat is None else seat_colour(state, seat)
        if seat is None or colour is None:
            return None
        trial = state.clone()
        try:
            trial.resign(colour)
            await self.recorder.commit(live, trial, flagged=seat)
        except Refusal as exc:
            if exc.code == "stale":
                log.info("game %s: another server process changed it first: read again", live.id)
                return None
            log.error("game %s: the loss on time of seat %d could not be made: %s", live.id, seat + 1, exc)
            return None
        except (OgamesError, NotImplementedError) as exc:
            log.error("game %s: the loss on time of seat %d could not be made: %s", live.id, seat + 1, exc)
            return None
        log.info("game %s: seat %d lost on time", live.id, seat + 1)
        return describe_result(live)

__all__ = ["FLAG_GRACE", "Timekeeper"]
