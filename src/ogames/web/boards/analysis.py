"""The computer's analyses for visitors, shared fairly and never in the way of a game.

An analysis is a search of up to `max_analysis_seconds` (web/boards/ai.py, `analyse`) in an analysis
worker of its own (`Settings.analysis_workers` lanes, web/core/workers.py), never in the workers of
the computer's moves and Omiga's bots, and at a lower CPU priority than they. Each client (by
address) is bounded:

- **a quota**: `analysis_quota` seconds of search in any minute (web/limits.py: counted in Redis
  when several server processes share one; an analysis costs its seconds, at least one, charged
  when it starts) — beyond it, 429 `quota`, to try again when its oldest charge is a minute old;
- **a cap**: at most `analysis_per_client` analyses running or waiting — beyond it, 429 `busy`;

and in all, at most `analysis_waiting` analyses wait for a lane (503 `busy`). Every refusal says
when to try again (`Refusal.retry_after`: the Retry-After header). Waiting analyses start in the
order they came.

An analysis nobody waits for any more (its page closed, so its request's connection ended) is
cancelled: a waiting one leaves the line, never charged; a running one has its
worker process killed and a new one started (a search in compiled code cannot be interrupted
otherwise), unless it is within NEARLY_DONE seconds of its end — then it is left to finish, which
frees the lane sooner than starting a new worker would.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ogames.web.core.common import Refusal
from ogames.web.core.settings import Settings
from ogames.web.core.workers import Lane, ProcessLane, ThreadLane, WorkerFailed, WorkerLost
from ogames.web.limits import ClientLimits, storage_for
from ogames.wording import say

log = logging.getLogger("ogames.web")

NEARLY_DONE = 2.0  # seconds: an abandoned search this close to its end is left to finish
MIN_COST = 1.0  # seconds of quota an analysis costs at least (each one starts a search, maybe a worker)


@dataclass(eq=False)
class Job:
    """One analysis asked for: by whom, for how long, and since when it searches (None: waiting)."""

    client: str
    seconds: float
    cost: float
    started: float | None = None

    def left(self, now: float) -> float:
        """Seconds until it should be done."""
        return self.seconds if self.started is None else max(0.0, self.started + self.seconds - now)


@dataclass(eq=False)
class Slot:
    """A place for one search at a time: its lane, once started (None: start one when needed)."""

    lane: Lane | None = None


@dataclass
class AnalysisDesk:
    """Who is analysing, who waits, and the lanes they search in."""

    settings: Settings
    make_lane: Callable[[], Lane]
    jobs: dict[str, list[Job]] = field(default_factory=dict)  # running or waiting, by client
    waiting: int = 0
    quotas: ClientLimits = field(init=False)
    free: asyncio.Queue[Slot] = field(init=False)
    slots: list[Slot] = field(init=False)
    _chores: set[asyncio.Task[None]] = field(default_factory=set)  # lanes being settled or replaced

    def __post_init__(self) -> None:
        quota = self.settings.analysis_quota
        self.quotas = ClientLimits(quota / 60.0, quota, storage_for(self.settings.redis_url), "analysis")
        self.slots = [Slot() for _ in range(self.settings.analysis_workers)]
        self.free = asyncio.Queue()
        for slot in self.slots:
            self.free.put_nowait(slot)

    @classmethod
    def for_settings(cls, settings: Settings) -> AnalysisDesk:
        """Lanes in worker processes, or in threads with `ai_executor="thread"` (tests)."""
        return cls(settings, ProcessLane if settings.ai_executor == "process" else ThreadLane)

    # ----- asking -------------------------------------------------------------------------------

    async def analyse(self, client: str, seconds: float, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` (a search of `seconds`) in a lane, for a client; Refusal if the client
        or the server has too much going on, or if the search failed. Cancel it and the search
        stops (see the module's docstring)."""
        job = await self._admit(client, seconds)
        try:
            slot = await self.free.get()
        except asyncio.CancelledError:
            self._forget(job)  # it never searched, so it was never charged
            raise
        try:
            charged = await self.quotas.allow(client, job.cost)
        except BaseException:
            self.free.put_nowait(slot)
            self._forget(job)
            raise
        if not charged:  # another of the client's analyses started first and took the rest of its share
            self.free.put_nowait(slot)
            self._forget(job)
            raise await self._over_quota(client)
        self.waiting -= 1
        job.started = time.monotonic()
        try:
            if slot.lane is None:
                slot.lane = await self._new_lane()
            answer = await slot.lane.run(function, *args)
        except asyncio.CancelledError:
            self._abandon(job, slot)
            raise
        except (WorkerFailed, WorkerLost) as exc:
            self._replace(slot)
            if isinstance(exc, WorkerFailed):
                log.error("an analysis failed: %s\n%s", exc, exc.trace.rstrip())
            else:
                log.error("an analysis worker ended: %s", exc)
            name = str(exc).split(":", 1)[0]
            raise Refusal(say("analysis-failed", "the computer could not analyse this position ({error})", error=name),
                          "analysis", 500) from None
        except BaseException:
            self._replace(slot)
            raise
        else:
            self.free.put_nowait(slot)
        finally:
            self._forget(job)
        return answer

    async def _admit(self, client: str, seconds: float) -> Job:
        """A new job for a client, if its quota has room for it (charged when it starts); Refusal
        (with when to try again) if not now."""
        self._check_caps(client)
        cost = max(seconds, MIN_COST)
        if not await self.quotas.fits(client, cost):
            raise await self._over_quota(client)
        self._check_caps(client)  # (again: others may have come while the quota was asked)
        job = Job(client, seconds, cost)
        self.jobs.setdefault(client, []).append(job)
        self.waiting += 1
        return job

    def _check_caps(self, client: str) -> None:
        """Refusal if the client has too many analyses, or too many wait already in all."""
        settings, now = self.settings, time.monotonic()
        mine = self.jobs.get(client, [])
        if len(mine) >= settings.analysis_per_client:
            soonest = min(job.left(now) for job in mine)
            raise Refusal(say("analyses-yours", "you have {count} analyses running or waiting already (at most {most}): "
                              "wait for an answer", count=len(mine), most=settings.analysis_per_client),
                          "busy", 429, retry_after=soonest)
        would_wait = self.waiting >= self.free.qsize()
        if would_wait and self.waiting >= settings.analysis_waiting:
            raise Refusal(say("analyses-busy", "the computer is busy with other analyses: try again in a few seconds"),
                          "busy", 503, retry_after=self._backlog(now))

    async def _over_quota(self, client: str) -> Refusal:
        """The refusal of an analysis past the client's quota: try again when its oldest charge
        leaves the minute (never later than a minute: the quota allows the longest analysis)."""
        wait = min(await self.quotas.wait(client), 60.0)
        return Refusal(say("analysis-quota", "that is more than your share of the computer ({seconds} seconds of "
                           "analysis a minute): try again in {wait} s", seconds=f"{self.settings.analysis_quota:g}",
                           wait=max(1, math.ceil(wait))), "quota", 429, retry_after=max(wait, 1.0))

    def _backlog(self, now: float) -> float:
        """About how long until a waiting analysis would start: the work ahead of it, per lane."""
        ahead = sum(job.left(now) for jobs in self.jobs.values() for job in jobs)
        return ahead / max(1, len(self.slots))

    def _forget(self, job: Job) -> None:
        mine = self.jobs.get(job.client, [])
        if job in mine:
            mine.remove(job)
            if job.started is None:
                self.waiting -= 1
        if not mine:
            self.jobs.pop(job.client, None)

    # ----- lanes ------------------------------------------------------------------------------

    async def _new_lane(self) -> Lane:
        lane = self.make_lane()
        try:
            await lane.start()
        except BaseException:
            await asyncio.shield(lane.stop())
            raise
        return lane

    def _abandon(self, job: Job, slot: Slot) -> None:
        """The search of a cancelled job: stopped (its lane replaced), or left to finish if it
        nearly has (or cannot be stopped); the slot is free again after that."""
        lane = slot.lane
        if lane is None:
            self.free.put_nowait(slot)  # cancelled while its lane started: nothing to undo
        elif lane.killable and job.left(time.monotonic()) > NEARLY_DONE:
            self._replace(slot)
        else:
            self._chore(self._settle(slot, lane))

    def _replace(self, slot: Slot) -> None:
        """Stop a slot's lane and start a new one in the background (ready for the next analysis)."""
        lane, slot.lane = slot.lane, None
        self._chore(self._restart(slot, lane))

    async def _restart(self, slot: Slot, lane: Lane | None) -> None:
        try:
            if lane is not None:
                await lane.stop()
            slot.lane = await self._new_lane()
        except Exception:
            log.exception("an analysis worker could not be started (the next analysis tries again)")
            slot.lane = None
        finally:
            self.free.put_nowait(slot)

    async def _settle(self, slot: Slot, lane: Lane) -> None:
        try:
            await lane.settle()
        finally:
            self.free.put_nowait(slot)

    def _chore(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work, name="ogames-analysis-lane")
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def close(self) -> None:
        """Stop every lane (and its search)."""
        for task in list(self._chores):
            task.cancel()
        for slot in self.slots:
            if slot.lane is not None:
                await slot.lane.stop()
                slot.lane = None

    # ----- what is going on ------------------------------------------------------------------

    @property
    def running(self) -> int:
        """Analyses searching now."""
        return sum(1 for jobs in self.jobs.values() for job in jobs if job.started is not None)


async def unless_gone(receive: Callable[[], Any], work: Any) -> tuple[bool, Any]:
    """Await `work` while watching a request's connection (its ASGI `receive`, the body read
    already): (True, its result), or (False, None) once the client has gone — `work` cancelled."""
    async def gone() -> None:
        try:
            while (await receive())["type"] != "http.disconnect":
                pass
        except Exception:  # the connection broke in some other way: gone all the same
            return

    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
    if task.done():
        return True, task.result()
    task.cancel()
    try:
        await task
    except (asyncio.CancelledError, Refusal):
        pass
    return False, None


__all__ = ["AnalysisDesk", "Job", "unless_gone"]
