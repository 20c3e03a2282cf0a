"""The asyncio tasks a part of the server runs on the side (listening to Redis, renewing leases,
catching up with another process's message): kept so they are not collected half-way, a failure
logged rather than lost, and all of them cancelled and awaited when the part closes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

log = logging.getLogger("ogames.web")


class Background:
    """A set of side tasks; `what` names their owner in the log."""

    def __init__(self, what: str):
        self.what = what
        self.tasks: set[asyncio.Future] = set()

    def spawn(self, work: Awaitable[Any], name: str | None = None) -> asyncio.Future:
        """Run `work` on the side (a coroutine becomes a task, named if `name` is given)."""
        task: asyncio.Future = asyncio.ensure_future(work)
        if name is not None and isinstance(task, asyncio.Task):
            task.set_name(name)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Future) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s: %r", self.what, task.exception())

    async def close(self) -> None:
        """Cancel every task still running and wait until each has stopped."""
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
