"""The server's worker processes, and how they end with it.

Three kinds of work leave the event loop:
- **moves**: the board games' computer moves, in `Settings.ai_workers` lanes (`MoveWorkers`,
  web/core/move_workers.py), each live game's moves in one of them so that its search is kept
  there. They are short and must come in time.
- **bots**: Omiga's bots' decisions, in a pool of their own (`move_pool(settings, "bot")`, one
  process, started when the first table needs it): a bot reacts in about a second, so it must not
  wait behind a board game's search of up to `ai_time_cap` seconds.
- **analyses**: long searches a visitor asks for, each in a `Lane` of its own (one worker process
  searching one position at a time), so that no analysis ever waits in front of a move, and an
  analysis nobody waits for any more is stopped at once by killing its process
  (`web/boards/analysis.py` decides when).

Every worker watches the server that started it and exits as soon as the server is gone — even
one killed with SIGKILL, which runs no clean-up — so workers never outlive it and a restarted
server never adds to a pile of old ones. (multiprocessing's resource tracker then exits too: it
ends when the last process holding its pipe is gone.) With `ai_executor="thread"` (tests) both
kinds run in threads of the server instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from ogames.web.core.settings import Settings

PARENT_POLL = 0.5  # seconds between a worker's looks at whether its server is still there
ANALYSIS_NICENESS = 10  # analyses run at a lower CPU priority than moves and the server itself


def watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the process that started it (`parent`) is gone.

    A thread looks every PARENT_POLL seconds: when the parent dies the worker is handed to another
    process (init, or a subreaper), so its parent id changes. (Linux's PR_SET_PDEATHSIG would be
    quicker, but it fires when the *thread* that started the worker ends, which in a threaded
    server is not the server's end.)"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(0)  # no clean-up to run: whatever the worker was doing is nobody's any more

    threading.Thread(target=watch, name="ogames-parent-watch", daemon=True).start()


def move_pool(settings: Settings, kind: str = "bot") -> concurrent.futures.Executor:
    """The worker of Omiga's bots ("bot": one), spawned when work first comes, not before. (The
    board games' moves have workers of their own, `move_workers.MoveWorkers`.)"""
    if settings.ai_executor == "thread":
        return concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f"ogames-{kind}")
    context = multiprocessing.get_context("spawn")  # no fork of a threaded server
    return concurrent.futures.ProcessPoolExecutor(
        1, mp_context=context, initializer=watch_parent, initargs=(os.getpid(),)
    )


class WorkerFailed(Exception):
    """The work raised an exception in the worker (its type and message; the trace is logged)."""

    def __init__(self, message: str, trace: str = ""):
        super().__init__(message)
        self.trace = trace


class WorkerLost(Exception):
    """The worker process ended before it answered (killed, or crashed)."""


class Lane:
    """Where one analysis at a time runs. `killable`: whether `stop()` ends a search at once (a
    process) or only forgets it (a thread, which must be left to finish)."""

    killable = False

    async def start(self) -> None:
        """Be ready to take work (a process: started, its modules imported)."""

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` in the lane; WorkerFailed if it raised, WorkerLost if the lane died."""
        raise NotImplementedError

    async def settle(self) -> None:
        """After a `run` was cancelled: wait until the lane is free again (its call finished and its
        answer, which nobody wants, read)."""

    async def stop(self) -> None:
        """End the lane (and whatever it is doing, if it can)."""

    @property
    def pid(self) -> int | None:
        """The lane's worker process (None for a thread)."""
        return None


class ThreadLane(Lane):
    """A lane in a thread of the server (`ai_executor="thread"`, for tests): a search cannot be
    stopped there, so an abandoned one is waited for (`settle`)."""

    def __init__(self, name: str = "ogames-analysis") -> None:
        self.executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=name)
        self.call: concurrent.futures.Future[Any] | None = None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        self.call = self.executor.submit(function, *args)
        try:
            return await asyncio.wrap_future(self.call)
        except Exception as exc:
            raise WorkerFailed(f"{type(exc).__name__}: {exc}", traceback.format_exc()) from None

    async def settle(self) -> None:
        if self.call is not None and not self.call.done():
            await asyncio.wait([asyncio.wrap_future(self.call)])

    async def stop(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class ProcessLane(Lane):
    """A lane in a worker process of its own, spoken to over a pipe: one call at a time, its
    answer read when the pipe is readable (no thread waits on it)."""

    killable = True

    def __init__(self, niceness: int = ANALYSIS_NICENESS, name: str = "ogames-analysis"):
        self.niceness, self.name = niceness, name
        self.process: Any = None  # a multiprocessing Process once started
        self.connection: Connection | None = None
        self._waiting: tuple[int, asyncio.Future[Any]] | None = None  # the pipe watched for an answer
        self.busy = False  # a call was sent and its answer not read yet

    async def settle(self) -> None:
        if self.busy:
            try:
                await self._receive()
            except WorkerLost:
                pass
            self.busy = False

    async def start(self) -> None:
        context = multiprocessing.get_context("spawn")
        here, there = context.Pipe()
        process = context.Process(target=_serve, args=(there, os.getpid(), self.niceness), name=self.name, daemon=True)
        try:
            process.start()
        finally:
            there.close()
        self.process, self.connection = process, here
        await self._receive()  # "ready": its modules are imported (a large send never waits on them)

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        assert self.connection is not None, "start the lane first"
        if self.connection.closed or not self.process.is_alive():
            raise WorkerLost("the worker ended before it was asked")
        try:
            self.connection.send((function, args))
        except OSError:  # its end of the pipe is gone: it died (killed) since its last answer
            raise WorkerLost("the worker ended before it was asked") from None
        self.busy = True
        kind, value, trace = await self._receive()
        self.busy = False
        if kind == "error":
            raise WorkerFailed(value, trace)
        return value

    async def _receive(self) -> Any:
        """The worker's next message, awaited without blocking the loop; WorkerLost if it ended
        (or the lane was stopped meanwhile)."""
        connection = self.connection
        if connection is None or connection.closed:
            raise WorkerLost("the worker was stopped")
        loop = asyncio.get_running_loop()
        arrived: asyncio.Future[Any] = loop.create_future()
        descriptor = connection.fileno()

        def readable() -> None:
            loop.remove_reader(descriptor)
            if arrived.done():
                return
            try:
                arrived.set_result(connection.recv())
            except (EOFError, OSError):
                arrived.set_exception(WorkerLost("the worker ended before it answered"))

        loop.add_reader(descriptor, readable)
        self._waiting = (descriptor, arrived)
        try:
            return await arrived
        finally:
            self._waiting = None
            loop.remove_reader(descriptor)

    async def stop(self) -> None:
        waiting, self._waiting = self._waiting, None
        if waiting is not None:  # unwatched before the pipe closes: its number may be reused at once
            descriptor, arrived = waiting
            asyncio.get_running_loop().remove_reader(descriptor)
            if not arrived.done():
                arrived.set_exception(WorkerLost("the worker was stopped"))
        if self.connection is not None:
            self.connection.close()
        if self.process is not None and self.process.is_alive():
            self.process.kill()
        if self.process is not None:
            await asyncio.to_thread(self.process.join, 10)  # reaped: no zombie left behind

    @property
    def pid(self) -> int | None:
        return None if self.process is None else int(self.process.pid)


def _serve(connection: Connection, parent: int, niceness: int) -> None:
    """A lane's worker process: call what is sent, send back ("ok", result, "") or ("error",
    message, trace), until the pipe closes."""
    watch_parent(parent)
    if niceness:
        os.nice(niceness)
    import ogames.players.mcts  # noqa: F401  (the searches' modules, loaded before "ready")

    try:
        connection.send(("ready", None, ""))
    except OSError:  # the server stopped while this process started: nobody to serve
        return
    while True:
        try:
            function, args = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("ok", function(*args), "")
        except Exception as exc:
            answer = ("error", f"{type(exc).__name__}: {exc}", traceback.format_exc())
        try:
            connection.send(answer)
        except OSError:  # (BrokenPipeError among them) the server is gone
            return


__all__ = ["Lane", "ProcessLane", "ThreadLane", "WorkerFailed", "WorkerLost", "move_pool", "watch_parent"]
