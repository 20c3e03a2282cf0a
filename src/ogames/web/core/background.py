"""The asyncio tasks a part of the server runs on the side (listening to Redis, renewing leases,
catching up with another process's message): kept so they are not collected half-way, a failure
logged rather than lost, and all of them cancelled and awaited when the part closes; and `listen`,
the one Redis subscription loop of the bus, the Omiga relay and presence."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("ogames.web")


class Background:
    """A set of side tasks; `what` names their owner in the log."""

    def __init__(self, what: str):
        self.what = what
        self.tasks: set[asyncio.Future[Any]] = set()

    def spawn(self, work: Awaitable[Any], name: str | None = None) -> asyncio.Future[Any]:
        """Run `work` on the side (a coroutine becomes a task, named if `name` is given)."""
        task: asyncio.Future[Any] = asyncio.ensure_future(work)
        if name is not None and isinstance(task, asyncio.Task):
            task.set_name(name)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Future[Any]) -> None:
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



def from_others(message: dict[str, Any], prefix: str, worker: str) -> tuple[str, dict[str, Any]] | None:
    """What another server process published on a channel `prefix…` that `listen` heard: (the
    rest of the channel's name, the message's JSON object); None for Redis's own notices and for
    this process's own messages (`worker`). ValueError for a message that is not one of ours."""
    if message.get("type") != "pmessage":
        return None
    try:
        raw = message["channel"]
        channel = raw.decode() if isinstance(raw, bytes) else str(raw)
        data = json.loads(message["data"])
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ValueError("not a message of ours") from exc
    if not isinstance(data, dict):
        raise ValueError("not a message of ours")
    return None if data.get("worker") == worker else (channel.removeprefix(prefix), data)

async def listen(
    redis: Any,
    pattern: str,
    dispatch: Callable[[dict[str, Any]], None],
    what: str,
    again: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Hand every message on the channels matching `pattern` to `dispatch`, until cancelled. When
    Redis goes away, wait (0.5 s, doubling up to 10 s) and subscribe again, then call `again`:
    messages may have been missed meanwhile."""
    pause, first = 0.5, True
    while True:
        try:
            async with redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                await pubsub.psubscribe(pattern)
                if not first and again is not None:
                    await again()
                first, pause = False, 0.5
                async for message in pubsub.listen():
                    dispatch(message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Redis went away: what matters is in the database; retry
            log.warning("%s: Redis connection lost (%s: %s); retrying in %.1f s", what, type(exc).__name__, exc, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)
