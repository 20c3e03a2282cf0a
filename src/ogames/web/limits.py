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

    def allow(self, now: float | None = None) -> bool:
        """Whether one more message may pass now (and take its token if so)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


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
        bucket = self.clients.get(client)
        if bucket is None:
            bucket = self.clients[client] = Bucket(self.rate, self.burst)
            while len(self.clients) > MAX_CLIENTS:
                self.clients.popitem(last=False)
        else:
            self.clients.move_to_end(client)
        return bucket.allow()

    def refusal(self) -> str:
        """What a refused request is told."""
        return say("too-many-requests", "too many requests: at most {rate} a second from one client; wait a moment",
                   rate=f"{self.rate:g}")
