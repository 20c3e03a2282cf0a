"""The analysis desk (web/boards/analysis.py): quotas, caps, the line, cancellation — with searches that
are stand-ins (a function that waits for the test) in thread lanes, and one real worker process
for what only a process does (a cancelled search killed, its worker replaced)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from ogames.web.boards.analysis import AnalysisDesk
from ogames.web.core.common import Refusal
from ogames.web.core.settings import Settings
from ogames.web.core.workers import ProcessLane, ThreadLane


def desk(**changes: Any) -> AnalysisDesk:
    values: dict[str, Any] = {"ai_executor": "thread", "analysis_workers": 1, "analysis_per_client": 2,
                              "analysis_waiting": 1, "analysis_quota": 30.0, "max_analysis_seconds": 10.0}
    values.update(changes)
    return AnalysisDesk.for_settings(Settings(**values))


def held(gate: threading.Event, answer: str = "done") -> str:
    """A stand-in search: it ends when the test opens the gate."""
    assert gate.wait(30)
    return answer


async def until(condition: Any) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


def test_a_client_may_have_two_analyses_running_or_waiting_and_the_server_a_line_of_one() -> None:
    async def scenario() -> None:
        analyses = desk()
        gate = threading.Event()
        first = asyncio.create_task(analyses.analyse("ann", 5, held, gate, "first"))
        await until(lambda: analyses.running == 1)
        second = asyncio.create_task(analyses.analyse("ann", 5, held, gate, "second"))
        await until(lambda: analyses.waiting == 1)
        with pytest.raises(Refusal) as mine:
            await analyses.analyse("ann", 1, held, gate)
        with pytest.raises(Refusal) as theirs:
            await analyses.analyse("bob", 1, held, gate)  # the line is full
        assert (mine.value.status, mine.value.code) == (429, "busy")
        assert (theirs.value.status, theirs.value.code) == (503, "busy")
        assert mine.value.retry_after is not None and 0 < mine.value.retry_after <= 5
        assert theirs.value.retry_after is not None and theirs.value.retry_after >= 5
        gate.set()
        assert [await first, await second] == ["first", "second"]  # in the order they came
        assert analyses.jobs == {} and analyses.waiting == 0
        await analyses.close()

    asyncio.run(scenario())


def test_the_quota_refuses_the_excess_and_says_when_to_retry() -> None:
    async def scenario() -> None:
        analyses = desk(analysis_quota=20.0)  # 20 s of search a minute, a third of a second a second
        gate = threading.Event()
        gate.set()
        assert await analyses.analyse("ann", 10, held, gate) == "done"
        assert await analyses.analyse("ann", 0.1, held, gate) == "done"  # costs a second: 11 used
        with pytest.raises(Refusal) as over:
            await analyses.analyse("ann", 10, held, gate)
        assert (over.value.status, over.value.code) == (429, "quota")
        # (9 s are left in the minute: the first analysis's 10 must leave it, a minute after it started)
        assert over.value.retry_after is not None and 50 < over.value.retry_after <= 60
        assert "20 seconds of analysis a minute" in over.value.message
        assert await analyses.analyse("bob", 10, held, gate) == "done"  # another client has its own
        await analyses.close()

    asyncio.run(scenario())


def test_a_waiting_analysis_cancelled_leaves_the_line_and_gets_its_quota_back() -> None:
    async def scenario() -> None:
        analyses = desk(analysis_quota=20.0, analysis_per_client=3)
        gate = threading.Event()
        running = asyncio.create_task(analyses.analyse("ann", 5, held, gate))
        await until(lambda: analyses.running == 1)
        waiting = asyncio.create_task(analyses.analyse("ann", 10, held, gate))
        await until(lambda: analyses.waiting == 1)
        waiting.cancel()
        await until(lambda: analyses.waiting == 0)
        gate.set()
        assert await running == "done"
        assert await analyses.analyse("ann", 10, held, gate) == "done"  # 5 + 10 charged, not 5 + 10 + 10
        await analyses.close()

    asyncio.run(scenario())


def test_a_running_analysis_that_cannot_be_stopped_keeps_its_lane_until_it_ends() -> None:
    async def scenario() -> None:
        analyses = desk()
        gate = threading.Event()
        abandoned = asyncio.create_task(analyses.analyse("ann", 10, held, gate, "abandoned"))
        await until(lambda: analyses.running == 1)
        abandoned.cancel()
        next_one = asyncio.create_task(analyses.analyse("bob", 1, held, gate, "next"))
        await asyncio.sleep(0.05)
        assert not next_one.done()  # a thread cannot be stopped: the lane is free once it ends
        gate.set()
        assert await next_one == "next"
        await analyses.close()

    asyncio.run(scenario())


def sleep_then(seconds: float, answer: str) -> str:
    time.sleep(seconds)
    return answer


def test_a_search_in_a_worker_process_is_killed_when_abandoned_and_the_next_one_runs_at_once() -> None:
    async def scenario() -> None:
        analyses = AnalysisDesk(Settings(analysis_workers=1, analysis_waiting=2), ProcessLane)
        assert await analyses.analyse("ann", 1, sleep_then, 0, "warm") == "warm"
        worker = analyses.slots[0].lane
        assert isinstance(worker, ProcessLane) and worker.process.is_alive()
        abandoned = asyncio.create_task(analyses.analyse("ann", 10, sleep_then, 60, "never"))  # 10 s asked, a minute spent
        await until(lambda: analyses.running == 1)
        abandoned.cancel()
        await until(lambda: not worker.process.is_alive())  # killed: its search is over
        started = time.monotonic()
        assert await analyses.analyse("bob", 1, sleep_then, 0, "next") == "next"
        assert time.monotonic() - started < 50  # it did not wait for the abandoned search's minute
        assert analyses.slots[0].lane is not worker
        await analyses.close()

    asyncio.run(scenario())


def test_a_failing_search_is_refused_and_its_lane_replaced() -> None:
    def broken() -> None:
        raise ValueError("no such position")

    async def scenario() -> None:
        analyses = AnalysisDesk(Settings(ai_executor="thread"), ThreadLane)
        with pytest.raises(Refusal) as failed:
            await analyses.analyse("ann", 1, broken)
        assert (failed.value.status, failed.value.code) == (500, "analysis") and "ValueError" in failed.value.message
        assert await analyses.analyse("ann", 1, sleep_then, 0, "fine") == "fine"
        await analyses.close()

    asyncio.run(scenario())
