"""Rate limits: a token bucket per WebSocket connection and per client of the JSON API.

A bucket holds up to `burst` messages and refills at `rate` a second; a message that finds it empty
is refused (and changes nothing). A WebSocket that keeps sending after its refusals is closed: its
refusals are counted, and past `strikes` of them the connection ends.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

from ogames.wording import say

MAX_CLIENTS = 10_000  # API clients remembered at once (the least recently seen are forgotten)


@dataclass
class Bucket:
    """A token bucket: `allow()` takes one message's token if there is one."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def allow(self, now: float | None = None, cost: float = 1.0) -> bool:
        """Whether one more message (or something worth `cost` tokens) may pass now, taking its
        tokens if so."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def wait(self, cost: float = 1.0, now: float | None = None) -> float:
        """Seconds until `cost` tokens are there (0: now; never, beyond the burst: infinity).

        >>> bucket = Bucket(rate=0.5, burst=30, tokens=0, stamp=0.0)
        >>> bucket.wait(10, now=0.0), bucket.wait(31, now=0.0)
        (20.0, inf)
        """
        if cost > self.burst:
            return float("inf")
        self._refill(now)
        return max(0.0, (cost - self.tokens) / self.rate)

    def give_back(self, cost: float) -> None:
        """Return tokens taken for something that was not done."""
        self.tokens = min(self.burst, self.tokens + cost)

    def _refill(self, now: float | None) -> None:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)


@dataclass
class ConnectionLimit:
    """One WebSocket's limit: its bucket and the refusals it has had in a row of excess."""

    rate: float
    burst: float
    strikes: int
    refused: int = 0
    bucket: Bucket = field(init=False)

    def __post_init__(self) -> None:
        self.bucket = Bucket(self.rate, self.burst)

    def allow(self) -> bool:
        """Whether the next message may be handled; a message that passes forgives earlier excess."""
        if self.bucket.allow():
            self.refused = 0
            return True
        self.refused += 1
        return False

    @property
    def exhausted(self) -> bool:
        """Whether the connection kept sending after too many refusals and should be closed."""
        return self.refused > self.strikes

    def refusal(self) -> str:
        """What a refused message is told."""
        return say("too-many-messages",
                   "too many messages: at most {rate} a second (wait a moment; sending on closes the connection)",
                   rate=f"{self.rate:g}")


class ClientLimits:
    """A bucket per API client (by address), forgetting the least recently seen past MAX_CLIENTS."""

    def __init__(self, rate: float, burst: float):
        self.rate = rate
        self.burst = burst
        self.clients: OrderedDict[str, Bucket] = OrderedDict()

    def allow(self, client: str) -> bool:
        """Whether a request from a client may be handled now."""
        return self.bucket(client).allow()

    def bucket(self, client: str) -> Bucket:
        """A client's bucket (a new, full one for a client not seen lately)."""
        bucket = self.clients.get(client)
        if bucket is None:
            bucket = self.clients[client] = Bucket(self.rate, self.burst)
            while len(self.clients) > MAX_CLIENTS:
                self.clients.popitem(last=False)
        else:
            self.clients.move_to_end(client)
        return bucket

    def refusal(self) -> str:
        """What a refused request is told."""
        return say("too-many-requests", "too many requests: at most {rate} a second from one client; wait a moment",
                   rate=f"{self.rate:g}")
