"""Rate limits: per WebSocket connection, per client of the JSON API, and each client's analysis quota.

A limit of `rate` a second in bursts of `burst` lets `burst` messages through at once and then
`rate` a second; what passes it is refused and changes nothing.

- **A WebSocket connection** lives in one process: its limit is a leaky bucket of its own
  (`aiolimiter`: the bucket drains at `rate`, holds `burst`). A connection that keeps sending after
  its refusals is closed: past `strikes` refusals in a row it ends.
- **A client** (an address) may reach any of several server processes: its limits are counted by
  the `limits` package in a moving window — at most `burst` in any `burst / rate` seconds (for the
  analysis quota: `analysis_quota` seconds of search in any minute) — kept in Redis when the
  server runs several processes on one (`Settings.redis_url`, the bus's), so that the limit holds
  across them, and in this process's memory otherwise. A refusal says when to try again: when the
  window's oldest charge leaves it.

If Redis cannot be reached, a client's request passes (the limits fail open, saying so in the
log once): a server that cannot count must still serve.
"""

from __future__ import annotations

import itertools
import logging
import math
import time
from dataclasses import dataclass, field

from aiolimiter import AsyncLimiter
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string
from starlette.types import Scope

from ogames.wording import Said, say

log = logging.getLogger("ogames.web")

KEY_PREFIX = "ogames-limits"  # the Redis keys of the clients' counts (the bus's are its own)


def client_address(scope: Scope) -> str:
    """The client's address of an HTTP request or a WebSocket, what the per-client limits count
    ("?" when the server is not told)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def storage_for(redis_url: str | None) -> Storage:
    """Where the clients' counts are kept: Redis when the server processes share one, else memory."""
    if redis_url:
        shared = storage_from_string(f"async+{redis_url}", implementation="redispy", key_prefix=KEY_PREFIX, wrap_exceptions=True)
        assert isinstance(shared, Storage)
        return shared
    return MemoryStorage()


def window(rate: float, burst: float) -> RateLimitItem:
    """`burst` in any `burst / rate` seconds (whole seconds, rounded up): `rate` a second in the long run."""
    return RateLimitItemPerSecond(max(1, int(burst)), max(1, math.ceil(burst / rate)))


@dataclass
class ConnectionLimit:
    """One WebSocket's limit: its bucket and the refusals it has had in a row of excess."""

    rate: float
    burst: float
    strikes: int
    refused: int = 0
    bucket: AsyncLimiter = field(init=False)

    def __post_init__(self) -> None:
        self.bucket = AsyncLimiter(self.burst, self.burst / self.rate)

    async def allow(self) -> bool:
        """Whether the next message may be handled; a message that passes forgives earlier excess."""
        if self.bucket.has_capacity():
            await self.bucket.acquire()  # (at once: there is room)
            self.refused = 0
            return True
        self.refused += 1
        return False

    @property
    def exhausted(self) -> bool:
        """Whether the connection kept sending after too many refusals and should be closed."""
        return self.refused > self.strikes

    def refusal(self) -> Said:
        """What a refused message is told."""
        return say("too-many-messages",
                   "too many messages: at most {rate} a second (wait a moment; sending on closes the connection)",
                   rate=f"{self.rate:g}")


_names = itertools.count()


class ClientLimits:
    """A limit per client (by address), in a storage the server's processes may share."""

    def __init__(self, rate: float, burst: float, storage: Storage, name: str | None = None):
        self.rate = rate
        self.burst = burst
        self.item = window(rate, burst)
        self.limiter = MovingWindowRateLimiter(storage)
        self.name = name or f"limit{next(_names)}"  # the counts' namespace in the storage
        self._failing = False

    async def allow(self, client: str, cost: float = 1.0) -> bool:
        """Whether a request from a client (worth `cost`, in whole units rounded up) may pass now,
        counting it if so."""
        try:
            passed = await self.limiter.hit(self.item, self.name, client, cost=max(1, math.ceil(cost)))
        except StorageError as exc:  # (Redis gone: serve rather than refuse everyone)
            self._warn(exc)
            return True
        self._failing = False
        return passed

    async def fits(self, client: str, cost: float = 1.0) -> bool:
        """Whether a request worth `cost` would pass now, counting nothing."""
        try:
            return await self.limiter.test(self.item, self.name, client, cost=max(1, math.ceil(cost)))
        except StorageError as exc:
            self._warn(exc)
            return True

    async def wait(self, client: str) -> float:
        """Seconds until the client's oldest charge leaves the window (0: nothing is charged)."""
        try:
            stats = await self.limiter.get_window_stats(self.item, self.name, client)
        except StorageError as exc:
            self._warn(exc)
            return 0.0
        if stats.remaining >= self.item.amount:
            return 0.0
        return max(0.0, stats.reset_time - time.time())

    def refusal(self) -> Said:
        """What a refused request is told."""
        return say("too-many-requests", "too many requests: at most {rate} a second from one client; wait a moment",
                   rate=f"{self.rate:g}")

    def _warn(self, exc: StorageError) -> None:
        if not self._failing:
            log.warning("rate limits not counted (%s): requests pass until the storage answers", exc.storage_error)
        self._failing = True


__all__ = ["ClientLimits", "ConnectionLimit", "storage_for", "window"]
