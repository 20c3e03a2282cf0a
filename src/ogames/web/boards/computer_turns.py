"""The computer's seats of live board games: when one is to move, its player searches in a worker
(never on the event loop; each game's moves in the worker that keeps its search, see
web/core/move_workers.py), one claim per move across server processes (web/core/bus.py), and
its move is made through the recorder like a person's, unless the position changed meanwhile."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, MutableMapping

from ogames.errors import OgamesError, shown
from ogames.web.boards import ai
from ogames.web.boards.live import LiveGame
from ogames.web.boards.recorder import Recorder
from ogames.web.boards.timekeeper import Timekeeper
from ogames.web.core.bus import Bus
from ogames.web.core.common import Refusal
from ogames.web.core.move_workers import MoveWorkers
from ogames.web.core.settings import Settings
from ogames.web.core.workers import Lane, ProcessLane, ThreadLane, WorkerFailed
from ogames.wording import say

log = logging.getLogger("ogames.web")

COMPUTER_REFUSED = say("computer-refused", "the computer could not move; reload the page to let it try again")

class ComputerTurns:
    """Plays the computer's seats of a hub's games, each game's turns in one task."""

    def __init__(self, settings: Settings, bus: Bus, recorder: Recorder, timekeeper: Timekeeper,
                 announce: Callable[[LiveGame], Awaitable[None]], held: MutableMapping[str, LiveGame]):
        self.bus = bus
        self.recorder = recorder
        self.timekeeper = timekeeper
        self.announce = announce
        self.held = held  # the hub's games in memory: one whose computer failed is dropped, to be rebuilt
        # The computer's moves (Omiga's bots and analyses have workers of their own: web/core/workers.py).
        self.workers = MoveWorkers(settings.ai_workers, move_lane if settings.ai_executor == "process" else thread_lane)

    async def close(self) -> None:
        """Stop the move workers (the games' tasks are cancelled by the hub)."""
        await self.workers.close()

    def start(self, live: LiveGame) -> None:
        """Let the computer play if one of its seats is to move and it is not already thinking."""
        state = live.state
        if state.is_over:
            self._forget(live.id)
            return
        if not live.is_computer(state.mover) or live.problem:
            return
        if live.ai_task is not None and not live.ai_task.done():
            return
        live.ai_task = asyncio.get_running_loop().create_task(self._turns(live), name=f"ogames-ai-{live.id}")

    async def _turns(self, live: LiveGame) -> None:
        while True:
            async with live.lock:
                state = live.state
                seat = state.mover
                if seat is None or not live.is_computer(seat):
                    break
                spec, version, record = live.seat_kinds[seat], live.version, state.record()
                live.thinking = True
            await self.announce(live)
            if not await self.bus.claim(live.id, version, _thinking_at(live, version)):
                await self._other_thinks(live, version)  # another server process plays this move
                continue
            try:
                move = await self.workers.run(live.id, functools.partial(ai.choose_move, record, spec, game=live.id))
            except asyncio.CancelledError:
                live.thinking = False
                raise
            except Exception as exc:
                if isinstance(exc, WorkerFailed):
                    log.error("game %s: the computer failed: %s\n%s", live.id, exc, exc.trace)
                    error = str(exc).partition(":")[0]  # the exception's type, raised in the worker
                else:
                    log.exception("game %s: the computer failed", live.id)
                    error = type(exc).__name__
                live.problem = say("computer-failed",
                                   "the computer could not move ({error}); reload the page to let it try again",
                                   error=error)
                break
            async with live.lock:
                if live.version != version or live.state.is_over:
                    live.thinking = False
                    continue  # the position changed while it thought (a resignation, an undo): look again
                if await self.timekeeper.flag_if_out_of_time(live) is not None:
                    live.thinking = False
                    continue  # its time ran out while it thought: the game is over
                trial = live.state.clone()
                try:
                    trial.play(move)
                    await self.recorder.commit(live, trial, {"move": move})
                except Refusal as exc:
                    if exc.code == "stale":
                        continue  # another process stored an action first (a resignation): look again
                    log.error("game %s: the computer's move %s was refused: %s", live.id, shown(move), exc)
                    live.problem = COMPUTER_REFUSED
                    break
                except OgamesError as exc:
                    log.error("game %s: the computer's move %s was refused: %s", live.id, shown(move), exc)
                    live.problem = COMPUTER_REFUSED
                    break
                live.thinking = False
            await self.announce(live)
        if live.thinking:
            live.thinking = False
            await self.announce(live)
        if live.problem:
            if self.held.get(live.id) is live:
                del self.held[live.id]  # the next visit rebuilds the game and lets the computer try again
            await self.announce(live)

    def _forget(self, game: str) -> None:
        """Let the game's move worker drop its kept search (ai.KeptSearches) now rather than when it
        idles out, and the game leave its worker. (A game over after the computer's own last move
        was dropped there already.)"""
        self.workers.leave(game, ai.forget, game)

    async def _other_thinks(self, live: LiveGame, version: int) -> None:
        """Wait while another server process thinks for the computer: until its move arrives here
        (through the bus) or its claim could have lapsed (it died), when this one tries to claim."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.bus.lease_seconds
        while live.version == version and not live.state.is_over and loop.time() < deadline:
            await asyncio.sleep(0.1)


def move_lane() -> Lane:
    """A move worker: a process at the server's own priority (analyses run below it)."""
    return ProcessLane(niceness=0, name="ogames-moves")


def thread_lane() -> Lane:
    """A move worker in a thread of the server (`ai_executor="thread"`, tests)."""
    return ThreadLane(name="ogames-moves")


def _thinking_at(live: LiveGame, version: int) -> Callable[[], bool]:
    """Whether the computer is still thinking about a game's move at `version` (a claim's hold)."""
    return lambda: live.version == version and live.thinking

__all__ = ["COMPUTER_REFUSED", "ComputerTurns"]
