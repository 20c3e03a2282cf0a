"""The computer's move workers: each live game's moves go to one worker, which keeps its search.

A worker (a `Lane`: one process, or one thread in tests) runs one move at a time. A game's first
move makes the worker that takes it the game's *home*; its later moves go home, where the search
of its last move waits (web/boards/ai.py keeps it), so the tree and `opponent=auto`'s memory carry
over from move to move.

Affinity is a preference, never a wait behind an idle worker: the pool stays as fair as one shared
queue. A worker that comes free takes the oldest waiting move of its own games; if it has none, the
oldest waiting move of any game, which then moves home to it (its search is rebuilt from the
record there, once). So no move waits while a worker is free, and a move waits only behind moves
older than it — one visitor's long searches hold at most the workers they run on.

A worker that dies (killed, or crashed) is replaced by a new one, its games lose their home (their
searches are rebuilt from the record by whichever worker takes their next move), and the move it
was running is run again from the record, once: a lost tree costs time, never a move (the server
commits a move only for the version it was asked at, so none is made twice).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ogames.web.core.workers import Lane, WorkerLost

log = logging.getLogger("ogames.web")

HOMES = 4096  # games whose home is remembered at most (least recently moved forgotten first)
RETRIES = 1  # times a move is run again after its worker died under it


@dataclass(eq=False)
class Job:
    """A call waiting for, or running on, a worker. `pinned`: only that worker may run it (a call
    about the searches it keeps), else the game's home is preferred."""

    game: str | None
    function: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any]
    pinned: int | None = None
    lost: int = 0  # workers that died under it


@dataclass(eq=False)
class Worker:
    lane: Lane
    started: bool = False
    job: Job | None = None
    replaced: int = 0  # lanes that died here and were replaced (a diagnostic)


@dataclass(eq=False)
class MoveWorkers:
    """`count` workers made by `make_lane`, started when work first comes to each."""

    count: int
    make_lane: Callable[[], Lane]
    workers: list[Worker] = field(init=False)
    home: OrderedDict[str, int] = field(init=False, default_factory=OrderedDict)
    waiting: list[Job] = field(init=False, default_factory=list)
    running: set[asyncio.Task[None]] = field(init=False, default_factory=set)
    closed: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("at least one move worker is needed")
        self.workers = [Worker(self.make_lane()) for _ in range(self.count)]

    async def run(self, game: str | None, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` on a worker — the game's home if it is free (WorkerFailed if the call
        raised, WorkerLost if workers died under it more than RETRIES times)."""
        if self.closed:
            raise WorkerLost("the move workers are stopped")
        job = Job(game, function, args, asyncio.get_running_loop().create_future())
        self.waiting.append(job)
        self._dispatch()
        return await job.answer  # cancelled: the job is skipped, or its answer dropped when it comes

    def at_home(self, game: str, function: Callable[..., Any], *args: Any) -> asyncio.Future[Any] | None:
        """`function(*args)` on the game's home worker, after the calls before it there (None if the
        game has no home: nothing of it is kept). If the worker dies first, the answer is None."""
        where = self.home.get(game)
        if where is None or self.closed:
            return None
        job = Job(game, function, args, asyncio.get_running_loop().create_future(), pinned=where)
        self.waiting.append(job)
        self._dispatch()
        return job.answer

    def leave(self, game: str, function: Callable[..., Any], *args: Any) -> None:
        """The game is over: `function(*args)` at its home (dropping what the worker keeps of it),
        answered to nobody, and the game has no home any more."""
        answer = self.at_home(game, function, *args)
        self.home.pop(game, None)
        if answer is not None:
            answer.add_done_callback(_swallow)

    def home_of(self, game: str) -> int | None:
        return self.home.get(game)

    def pid(self, worker: int) -> int | None:
        """A worker's process id (None for a thread, or a worker not started)."""
        return self.workers[worker].lane.pid

    async def close(self) -> None:
        """Stop every worker; moves waiting or running are cancelled."""
        self.closed = True
        for job in self.waiting:
            job.answer.cancel()
        self.waiting.clear()
        for task in list(self.running):
            task.cancel()
        await asyncio.gather(*self.running, return_exceptions=True)
        await asyncio.gather(*(worker.lane.stop() for worker in self.workers if worker.started), return_exceptions=True)

    # ----- which worker runs what ----------------------------------------------------------

    def _dispatch(self) -> None:
        if self.closed:
            return
        self.waiting = [job for job in self.waiting if not job.answer.done()]  # callers gone
        free = [number for number, worker in enumerate(self.workers) if worker.job is None]
        for number in list(free):  # first each free worker's own: the searches it keeps are there
            own = next((job for job in self.waiting if self._home(job) == number), None)
            if own is not None:
                self._start(number, own)
                free.remove(number)
        for job in [job for job in self.waiting if job.pinned is None]:
            if not free:
                break
            # the oldest left, to the free worker with the fewest games (a game with a busy home
            # moves here: its search is rebuilt from the record, rather than wait behind another's)
            number = min(free, key=lambda number: (self._games_at(number), number))
            self._start(number, job)
            free.remove(number)

    def _home(self, job: Job) -> int | None:
        if job.pinned is not None:
            return job.pinned
        return None if job.game is None else self.home.get(job.game)

    def _games_at(self, number: int) -> int:
        return sum(1 for where in self.home.values() if where == number)

    def _start(self, number: int, job: Job) -> None:
        self.waiting.remove(job)
        self.workers[number].job = job
        if job.game is not None and job.pinned is None:
            self.home[job.game] = number
            self.home.move_to_end(job.game)
            while len(self.home) > HOMES:
                self.home.popitem(last=False)
        task = asyncio.get_running_loop().create_task(self._work(number, job), name=f"ogames-move-worker-{number}")
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    async def _work(self, number: int, job: Job) -> None:
        worker = self.workers[number]
        try:
            if not worker.started:
                worker.started = True
                try:
                    await worker.lane.start()
                except Exception as exc:  # it could not start (or died starting): a new one is made
                    raise WorkerLost(f"the worker did not start: {exc}") from exc
            value = await worker.lane.run(job.function, *job.args)
        except WorkerLost as lost:
            await self._replace(number)
            if job.pinned is not None:
                _answer(job, None)  # what it was about died with the worker
            elif job.lost < RETRIES:
                job.lost += 1
                self.waiting.insert(0, job)  # run again, from the record, on a worker alive
            else:
                _fail(job, lost)
        except Exception as exc:
            _fail(job, exc)
        else:
            _answer(job, value)
        finally:
            worker.job = None
            self._dispatch()

    async def _replace(self, number: int) -> None:
        """A new lane for a worker that died; its games have no home any more (their searches died
        with it), and calls pinned to it are answered None."""
        worker = self.workers[number]
        log.warning("move worker %d ended unexpectedly: replaced (its games' searches are rebuilt)", number)
        try:
            await worker.lane.stop()
        except Exception:
            log.exception("move worker %d: stopping what was left of it failed", number)
        worker.lane, worker.started = self.make_lane(), False
        worker.replaced += 1
        for game in [game for game, where in self.home.items() if where == number]:
            del self.home[game]
        for job in [job for job in self.waiting if job.pinned == number]:
            self.waiting.remove(job)
            _answer(job, None)


def _answer(job: Job, value: Any) -> None:
    if not job.answer.done():
        job.answer.set_result(value)


def _fail(job: Job, error: BaseException) -> None:
    if not job.answer.done():
        job.answer.set_exception(error)


def _swallow(answer: asyncio.Future[Any]) -> None:
    """An answer nobody waits for: its error, if any, is logged (not left "never retrieved")."""
    if not answer.cancelled() and answer.exception() is not None:
        log.error("a move worker's call failed: %s", answer.exception())


__all__ = ["HOMES", "RETRIES", "MoveWorkers"]
