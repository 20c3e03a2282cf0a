"""The bots of the tables a hub referees, as asyncio tasks. A real-time bot looks at the table,
decides in the AI worker (`ai.bot_action`, never on the event loop), and its action arrives its
reaction time after it looked, by when the table may have changed: the referee judges it then, as
any other. A turn-based bot (toddler, kids in turns) plays the climber's placement when its seat
is to move, after a pause so that people can follow it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
import time
from collections.abc import Awaitable, Callable, MutableMapping

from ogames.players.omiga.climber import climber_move
from ogames.web.omiga import ai
from ogames.web.omiga.referee import Referee
from ogames.web.omiga.table import HUMAN, LiveTable
from ogames.web.omiga.view import actor_of
from ogames.wording import say

log = logging.getLogger("ogames.web")

TURN_BOT_PAUSE = 0.5  # seconds a turn-based bot waits before its move, so people can follow it
TURN_BOT = "climber"  # toddler and kids-in-turns bots: the placement that climbs furthest


class Bots:
    """Starts, runs and stops the bots of a hub's tables."""

    def __init__(self, executor: concurrent.futures.Executor, held: MutableMapping[str, LiveTable], referee: Referee,
                 announce: Callable[[LiveTable], Awaitable[None]]):
        self.executor = executor  # the AI worker: where real-time bots decide
        self.held = held  # the hub's tables: a bot plays while its table is held, and stops it when it fails
        self.referee = referee
        self.announce = announce

    def warm(self, live: LiveTable) -> None:
        """Let the worker load the bots' kernels while the people arrive."""
        for spec in {kind for kind in live.seat_kinds if kind not in (HUMAN, TURN_BOT)}:
            self.executor.submit(ai.warm_up, spec)

    def start_realtime(self, live: LiveTable) -> None:
        """At the signal: a task for each bot seat of a real-time table."""
        loop = asyncio.get_running_loop()
        for seat, kind in enumerate(live.seat_kinds):
            if kind != HUMAN:
                live.tasks.append(loop.create_task(self._run_realtime(live, seat), name=f"omiga-bot-{live.id}-{seat}"))

    @staticmethod
    def stop(live: LiveTable) -> None:
        """Stop every bot (and the countdown) of a table."""
        for task in live.tasks:
            task.cancel()

    async def _run_realtime(self, live: LiveTable, seat: int) -> None:
        """A real-time bot: look, decide in the worker, wait out the reaction time, act; again."""
        from ogames.players import player

        spec = live.seat_kinds[seat]
        bot = player(spec)
        actor = actor_of(live.state, seat)
        rng = random.Random(f"{live.id}:{seat}:{live.version}")
        loop = asyncio.get_running_loop()
        while not live.state.is_over and self.held.get(live.id) is live:
            looked = time.monotonic()
            record = live.state.record()
            try:
                action = await loop.run_in_executor(
                    self.executor, ai.bot_action, f"{live.id}:{seat}", record, actor, spec, rng.randrange(2**31)
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("omiga table %s: bot %s failed", live.id, actor)
                live.problem = say("bot-stopped",
                                   "the bot {actor} stopped ({error}); reload the page to start it again", actor=actor,
                                   error=type(exc).__name__)
                self.held.pop(live.id, None)
                await self.announce(live)
                return
            wait = looked + bot.delay(rng) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if action is not None and not live.state.is_over:
                verdict = await self.referee.apply(live, seat, action, time.monotonic())
                if not verdict["accepted"]:
                    log.info("omiga table %s: bot %s's %s refused: %s", live.id, actor, action, verdict["reason"])

    def kick_turn(self, live: LiveTable) -> None:
        """In the turn-based modes, let a bot move when its seat is to move."""
        if live.realtime or live.state.is_over:
            return
        mover = live.state.mover
        if mover is None or live.seat_kinds[mover] != TURN_BOT:
            return
        if any(task.get_name().startswith("omiga-turn") and not task.done() for task in live.tasks):
            return
        live.tasks = [task for task in live.tasks if not task.done()]
        live.tasks.append(asyncio.get_running_loop().create_task(self._run_turns(live), name=f"omiga-turn-{live.id}"))

    async def _run_turns(self, live: LiveTable) -> None:
        rng = random.Random(f"{live.id}:{live.version}")
        while not live.state.is_over and self.held.get(live.id) is live:
            mover = live.state.mover
            if mover is None or live.seat_kinds[mover] != TURN_BOT:
                return
            await asyncio.sleep(TURN_BOT_PAUSE)
            if live.state.mover != mover:
                continue
            move = climber_move(live.state, rng)
            verdict = await self.referee.apply(live, mover, move, time.monotonic())
            if not verdict["accepted"]:  # never: the bot picks among the legal moves
                log.error("omiga table %s: turn bot's %s refused: %s", live.id, move, verdict["reason"])
                return


__all__ = ["TURN_BOT", "TURN_BOT_PAUSE", "Bots"]
