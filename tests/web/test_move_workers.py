"""The computer's move workers (web/core/move_workers.py): a game's moves go to the worker that
keeps its search, yet no move waits while a worker is free, and a dead worker is replaced with
its move run again."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from ogames.web.core.move_workers import MoveWorkers
from ogames.web.core.workers import Lane, ProcessLane, ThreadLane, WorkerFailed, WorkerLost

WAIT = 30.0  # seconds: a generous deadline for what should happen at once


def where() -> int:
    """The thread that runs a call: each thread lane has its own."""
    return threading.get_ident()


def blocked(gate: threading.Event, started: threading.Event) -> int:
    started.set()
    assert gate.wait(WAIT), "never released"
    return threading.get_ident()


@contextlib.asynccontextmanager
async def threads(count: int) -> AsyncIterator[MoveWorkers]:
    """A pool of `count` thread workers, closed on the way out."""
    pool = MoveWorkers(count, ThreadLane)
    try:
        yield pool
    finally:
        await pool.close()


async def holding(pool: MoveWorkers, game: str) -> tuple[threading.Event, asyncio.Future[int]]:
    """A call of `game` that holds its worker until the gate is set: the gate, and the call once it runs."""
    gate, running = threading.Event(), threading.Event()
    call = asyncio.ensure_future(pool.run(game, blocked, gate, running))
    await started(running)
    return gate, call


async def started(event: threading.Event) -> None:
    assert await asyncio.to_thread(event.wait, WAIT)


def run(test: Callable[[], Any]) -> None:
    asyncio.run(asyncio.wait_for(test(), 120))


def test_a_games_moves_go_to_one_worker() -> None:
    async def test() -> None:
        async with threads(3) as pool:
            homes = {game: await pool.run(game, where) for game in "abc"}
            assert len(set(homes.values())) == 3  # new games spread over the free workers
            for _ in range(5):
                for game in "cab":
                    assert await pool.run(game, where) == homes[game]

    run(test)


def test_a_move_whose_worker_is_busy_goes_to_a_free_one_and_its_game_moves_there() -> None:
    async def test() -> None:
        async with threads(2) as pool:
            first = await pool.run("a", where)
            second = await pool.run("b", where)
            assert first != second
            # "b" now waits behind nothing: "a"'s long search holds worker 0 only
            gate, long = await holding(pool, "a")
            assert await pool.run("b", where) == second
            # a third game while "a" searches goes to the free worker, not behind "a"
            assert await pool.run("c", where) == second
            # and "c" ends up sharing "b"'s worker only while "a"'s is busy: a move of "c" made while
            # "b" holds worker 1 goes to worker 0 as soon as it is free
            gate.set()
            assert await long == first
            gate2, held = await holding(pool, "b")
            assert await pool.run("c", where) == first
            assert pool.home_of("c") == pool.home_of("a")
            gate2.set()
            await held

    run(test)


def test_waiting_moves_are_taken_oldest_first_by_their_own_worker() -> None:
    async def test() -> None:
        async with threads(1) as pool:
            gate, first = await holding(pool, "a")
            order: list[str] = []

            async def queued(game: str) -> None:
                await pool.run(game, where)
                order.append(game)

            later = [asyncio.ensure_future(queued(game)) for game in "bcd"]
            await asyncio.sleep(0)  # all three queued behind "a"
            gate.set()
            await first
            await asyncio.gather(*later)
            assert order == ["b", "c", "d"]

    run(test)


def test_a_cancelled_move_is_skipped_and_the_worker_goes_on() -> None:
    async def test() -> None:
        async with threads(1) as pool:
            gate, first = await holding(pool, "a")
            ran = threading.Event()
            skipped = asyncio.ensure_future(pool.run("b", ran.set))
            await asyncio.sleep(0)
            skipped.cancel()
            first.cancel()  # its call runs on; its answer is dropped
            gate.set()
            assert await pool.run("c", where)
            assert not ran.is_set()

    run(test)


def test_a_call_at_home_runs_where_the_game_is_and_leaving_forgets_its_home() -> None:
    async def test() -> None:
        async with threads(2) as pool:
            await pool.run("a", where)
            home = await pool.run("b", where)
            at_home = pool.at_home("b", where)
            assert at_home is not None and await at_home == home
            assert pool.at_home("nobody", where) is None
            done = threading.Event()
            pool.leave("b", done.set)
            await started(done)
            assert pool.home_of("b") is None and pool.at_home("b", where) is None

    run(test)


def test_an_error_in_the_worker_reaches_the_caller() -> None:
    async def test() -> None:
        async with threads(1) as pool:
            with pytest.raises(WorkerFailed, match="ZeroDivisionError"):
                await pool.run("a", divmod, 1, 0)
            assert await pool.run("a", divmod, 7, 2) == (3, 1)

    run(test)


def move_process() -> Lane:
    return ProcessLane(niceness=0, name="ogames-moves-test")


def test_a_worker_that_dies_is_replaced_and_its_move_run_again() -> None:
    async def test() -> None:
        pool = MoveWorkers(1, move_process)
        try:
            first = await pool.run("a", os.getpid)
            # a worker killed between two moves: the next move comes from a new one
            os.kill(first, 9)
            second = await pool.run("a", os.getpid)
            assert second != first and pool.workers[0].replaced == 1
            # a call that kills every worker it runs on is run once more, then reported lost
            with pytest.raises(WorkerLost):
                await pool.run("a", os._exit, 3)
            assert pool.workers[0].replaced == 3
            assert await pool.run("a", divmod, 7, 2) == (3, 1)  # and the next move is served
        finally:
            await pool.close()
        assert all(worker.lane.pid is None or not _alive(worker.lane.pid) for worker in pool.workers)

    run(test)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
