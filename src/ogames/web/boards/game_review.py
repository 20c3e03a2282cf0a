"""The computer's review of a finished board game on the site, computed in the background.

When a game of Omny, Odd-Y, Omega or Onyx ends, its review (`ogames.teach.review`: every move's
win chance before and after, its mark, the better move and its line, the solver's proofs) may be
asked for: at once and by itself for a game against the computer, by a player's "Review" button
otherwise (POST /api/games/ID/review). The game's row in `game_reviews` (web/boards/review_records.py)
is the guard that it is computed once, whichever server process is asked and however often: the
process that made the row computes it, the others only read it.

Reviews are computed one at a time in a worker of their own (`review_lane`: a process like an
analysis worker's, at the lowest CPU priority), never in the move workers nor in the analysis
desk's lanes: a review never takes a lane a live move or a visitor's analysis waits for, and when
they want the same core, Linux gives a niceness-19 review about 1/70 of a move worker's share
(niceness 0) and 1/7 of an analysis's (niceness 10). On a busy machine it still costs the moves
something (caches, memory): benchmarks/bench_review_priority.py measures how much. A worker that
dies under a review is replaced, and that review fails with the reason
(a person may see it and nothing else is lost). A review left pending by a server process that
died is taken over by the next process asked about it once it is older than PENDING_LEASE.
"""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any

from ogames.web.boards import ai
from ogames.web.boards import review_records as records
from ogames.web.boards.live import LiveGame
from ogames.web.core.common import Refusal
from ogames.web.core.settings import Settings
from ogames.web.core.store import Store
from ogames.web.core.store_faults import StorageError
from ogames.web.core.workers import Lane, ProcessLane, ThreadLane, WorkerFailed, WorkerLost
from ogames.wording import say

log = logging.getLogger("ogames.web")

REVIEW_NICENESS = 19  # below the analyses (10) and the moves (0): a review takes only the time left over
PENDING_LEASE = 30 * 60.0  # seconds a pending review may go unfinished before another process takes it over
REVIEWED = ("omny", "oddy", "omega", "onyx")  # the board games a review covers
IDLE = 300.0  # seconds with nothing to review after which the review worker is stopped (started again when needed)
PROGRESS_EVERY = 2.0  # seconds between two looks at how far the review under way has come
WAITING = 100  # reviews waiting here at most: beyond, a new one is refused (busy) and nothing is stored


def review_lane() -> Lane:
    """The reviews' worker: a process at the lowest priority."""
    return ProcessLane(niceness=REVIEW_NICENESS, name="ogames-review")


def thread_review_lane() -> Lane:
    """The reviews' worker in a thread of the server (`ai_executor="thread"`, tests)."""
    return ThreadLane(name="ogames-review")


def reviewable(live: LiveGame) -> bool:
    """Whether a game can be reviewed: a board game the review covers, over with a result (not aborted)."""
    return live.state.game.name in REVIEWED and live.state.result is not None and not live.aborted


def automatic(live: LiveGame) -> bool:
    """Whether a game's review starts by itself when it ends: a game against the computer."""
    return live.mode == "ai"


class Reviews:
    """The reviews of one server process: asked for, queued, computed one at a time, stored."""

    def __init__(self, store: Store, settings: Settings, make_lane: Callable[[], Lane] | None = None):
        self.store = store
        self.budget, self.prove = settings.review_budget, settings.review_prove
        self.make_lane = make_lane or (review_lane if settings.ai_executor == "process" else thread_review_lane)
        self.compute: Callable[..., dict[str, Any]] = ai.review_game  # what the worker runs (tests may wrap it)
        self.lane: Lane | None = None
        self.waiting: list[str] = []  # game ids to review here, oldest first
        self.queued: set[str] = set()  # waiting or being reviewed here
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.chores: set[asyncio.Task[Any]] = set()
        self.done = 0  # reviews computed here (a diagnostic; tests read it)

    # ----- asking ----------------------------------------------------------------------------------

    def ended(self, live: LiveGame) -> None:
        """A game ended (here, or heard from another process): a game against the computer has its
        review asked for at once."""
        if reviewable(live) and automatic(live):
            self._chore(self.ask(live.id))

    async def ask(self, game_id: str) -> records.StoredReview | None:
        """Ask for a finished game's review (the caller checked that it may be reviewed): queued
        here if this is the first asking; the row as it is now. Refusal (busy, nothing stored) if
        WAITING reviews wait here already and this one was never asked for."""
        if len(self.waiting) >= WAITING and game_id not in self.queued:
            row = await asyncio.to_thread(records.stored, self.store, game_id)
            if row is not None:
                return row
            raise Refusal(say("reviews-busy", "the computer has too many games to review just now: ask again later"),
                          "busy", 503, retry_after=60.0)
        if await asyncio.to_thread(records.claim, self.store, game_id):
            self._queue(game_id)
        return await self.status(game_id)

    async def status(self, game_id: str) -> records.StoredReview | None:
        """A game's review as stored (None: never asked for). One left pending by a process that
        died (older than PENDING_LEASE, not queued here) is taken over and queued here."""
        row = await asyncio.to_thread(records.stored, self.store, game_id)
        if row is not None and row.status == records.PENDING and game_id not in self.queued:
            stale = time.time() - PENDING_LEASE
            if row.updated_at < stale and await asyncio.to_thread(records.take_over, self.store, game_id, stale):
                log.info("game %s: its review was left pending: computed here", game_id)
                self._queue(game_id)
        return row

    def _queue(self, game_id: str) -> None:
        if game_id in self.queued:
            return
        self.queued.add(game_id)
        self.waiting.append(game_id)
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._work(), name="ogames-reviews")

    # ----- computing -------------------------------------------------------------------------------

    async def _work(self) -> None:
        while True:
            if not self.waiting:
                self.wake.clear()
                try:
                    await asyncio.wait_for(self.wake.wait(), IDLE)
                except TimeoutError:  # nothing to review for a while: its worker's memory back
                    await self._drop_lane()
                    await self.wake.wait()
                continue
            game_id = self.waiting.pop(0)
            try:
                await self._review(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store failed, or a fault here: the next review still runs
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # stopping: a fault on the way out must not swallow the cancellation
                log.exception("game %s: its review failed", game_id)
                try:
                    await asyncio.to_thread(records.fail, self.store, game_id, type(exc).__name__)
                except Exception:  # the store is away: the row stays pending, taken over after PENDING_LEASE
                    log.warning("game %s: its failed review could not be stored as failed", game_id)
            finally:
                self.queued.discard(game_id)

    async def _review(self, game_id: str) -> None:
        try:
            row = await asyncio.to_thread(self.store.load_game, game_id)
        except StorageError as exc:
            log.warning("game %s: its review could not read the game: %s", game_id, exc)
            return  # left pending: taken over later
        if row is None:
            return
        started = time.monotonic()
        try:
            if self.lane is None:
                lane = self.make_lane()
                await lane.start()
                self.lane = lane
            # (a worker may still write its count in the folder while it is removed: not an error)
            with tempfile.TemporaryDirectory(prefix="ogames-review-", ignore_cleanup_errors=True) as folder:
                noted = os.path.join(folder, "progress")
                follower = asyncio.get_running_loop().create_task(self._follow(game_id, noted), name="ogames-review-progress")
                try:
                    found = await self.lane.run(self.compute, row.record(), self.budget, self.prove, noted)
                finally:
                    follower.cancel()
                    await asyncio.gather(follower, return_exceptions=True)
        except (WorkerFailed, WorkerLost) as exc:
            if isinstance(exc, WorkerFailed):
                log.error("game %s: its review failed: %s\n%s", game_id, exc, exc.trace.rstrip())
            else:
                log.error("game %s: the review's worker ended: %s", game_id, exc)
                await self._drop_lane()
            await asyncio.to_thread(records.fail, self.store, game_id, str(exc).split(":", 1)[0])
            return
        self.done += 1  # (counted before it is stored: whoever sees it stored sees it counted)
        await asyncio.to_thread(records.finish, self.store, game_id, found)
        log.info("game %s reviewed in %.1f s (%d positions, budget %d)", game_id, time.monotonic() - started,
                 len(found.get("moves", ())) + 1, self.budget)

    async def _follow(self, game_id: str, noted: str) -> None:
        """Store how far a review has come, as its worker notes it in a file (`ai.review_game`), every
        PROGRESS_EVERY seconds while it changes: any process can then tell a waiting page."""
        stored: tuple[int, int] | None = None
        while True:
            await asyncio.sleep(PROGRESS_EVERY)
            try:
                with open(noted, encoding="ascii") as file:
                    done, total = (int(part) for part in file.read().split())
            except (OSError, ValueError):  # not begun yet
                continue
            if (done, total) != stored:
                try:
                    await asyncio.to_thread(records.progress, self.store, game_id, done, total)
                    stored = (done, total)
                except StorageError as exc:  # only the count is late: the review goes on
                    log.warning("game %s: its review's progress could not be stored: %s", game_id, exc)

    async def _drop_lane(self) -> None:
        lane, self.lane = self.lane, None
        if lane is not None:
            try:
                await lane.stop()
            except Exception:
                log.exception("the review's worker could not be stopped")

    def _chore(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work, name="ogames-review-ask")
        self.chores.add(task)
        task.add_done_callback(self._finished_chore)

    def _finished_chore(self, task: asyncio.Task[Any]) -> None:
        self.chores.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a game's review could not be asked for: %s", task.exception())

    async def close(self) -> None:
        """Stop the reviews' work and its worker (a review under way is left pending)."""
        for task in [*self.chores, *([self.task] if self.task else [])]:
            task.cancel()
        await asyncio.gather(*self.chores, *([self.task] if self.task else []), return_exceptions=True)
        await self._drop_lane()


__all__ = ["PENDING_LEASE", "PROGRESS_EVERY", "REVIEWED", "WAITING", "Reviews", "automatic", "review_lane", "reviewable"]
