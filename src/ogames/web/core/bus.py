"""The bus between server processes that share one database: what one process stored, the others hear.

One server process alone needs nothing of this: `Bus` (the default) tells nobody and lets the
process play every computer move itself. Several processes (uvicorn workers, or `ogames serve`
on several ports behind a proxy) on one PostgreSQL use `RedisBus`:

- after every stored action (a move or a resignation) the hub publishes it on the game's Redis
  channel `ogames:game:ID` (`{"worker", "version", "move"|"resign", "entry"}`: the record entry
  as stored, with its time); every other process that
  holds the game in memory applies it to its copy (or rebuilds the game from the database when it
  missed one) and sends the new view to its pages at once;
- a computer's move at a version is claimed with a Redis key (`SET NX` with a lease that the
  holder renews while it thinks), so exactly one process thinks; if that process dies, the lease
  lapses and another takes the move over. The store's version check stays the last word: two
  processes can never both store an action at the same version.

Redis is only a messenger: every move is in the database before it is published, so a lost
message delays a view but loses nothing (a process that reconnects to Redis re-reads its games).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from ogames.web.core.background import Background, from_others, listen

log = logging.getLogger("ogames.web")

CHANNEL = "ogames:game:"  # + game id
TURN_KEY = "ogames:turn:"  # + game id + ":" + version: who plays the computer's move there
# What a game's message may carry besides its version: a stored move or resignation (with its record
# entry), `seats` (a seat was taken: read the seats again), `undo` (a take-back asked or answered),
# `rematch` (a finished game's rematch offered or made: web/lobby/rematch.py), `hints` (a learner's
# hints taken so far: web/boards/learner_hints.py).
ACTION_KEYS = ("move", "resign", "entry", "seats", "undo", "rematch", "hints")

# Called with (game id, version, action) for an action another process stored.
Heard = Callable[[str, int, dict[str, Any]], Awaitable[None]]
# Called after (re)connecting to the messenger, when messages may have been missed.
Resync = Callable[[], Awaitable[None]]


class BusUnavailable(Exception):
    """The bus cannot be made (its driver is not installed); the message says what to install."""


class Bus:
    """One server process alone: nothing to publish, and every computer move is its own."""

    lease_seconds = 10.0
    shared = False  # whether other processes store actions too (a copy held here can fall behind the store)

    async def start(self, heard: Heard, resync: Resync) -> None:
        """Begin listening for other processes' actions (nothing to hear when alone)."""

    async def publish(self, game_id: str, version: int, action: dict[str, Any]) -> None:
        """Tell the other processes that action `version` of a game is stored (nobody to tell)."""

    async def claim(self, game_id: str, version: int, holding: Callable[[], bool]) -> bool:
        """Whether this process may play the computer's move at `version` (alone: always). The
        claim is held while `holding()` is true."""
        return True

    async def close(self) -> None:
        """Stop listening and let go of the connection."""


class RedisBus(Bus):
    """Server processes sharing one database, in step through one Redis (pub/sub and keys)."""

    shared = True

    def __init__(self, url: str, lease_seconds: float = 10.0):
        try:
            import redis.asyncio as aioredis
        except ImportError:
            raise BusUnavailable("a Redis URL needs the redis driver: pip install 'ogames[scale]'") from None
        self.redis: Any = aioredis.from_url(url, socket_connect_timeout=5, health_check_interval=30)
        self.worker = secrets.token_hex(6)  # this process, so it ignores its own messages
        self.lease_seconds = lease_seconds
        self._side = Background("bus: catching up failed")
        # Renew or delete a turn key only while it still names this process.
        self._renew = self.redis.register_script(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0"
        )
        self._drop = self.redis.register_script(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        )

    async def start(self, heard: Heard, resync: Resync) -> None:
        self._side.spawn(self._listen(heard, resync), name="ogames-bus")

    async def _listen(self, heard: Heard, resync: Resync) -> None:
        async def again() -> None:
            log.info("bus: connected to Redis again; re-reading the live games")
            self._side.spawn(resync())

        await listen(self.redis, CHANNEL + "*", lambda message: self._dispatch(message, heard), "bus", again)

    def _dispatch(self, message: dict[str, Any], heard: Heard) -> None:
        try:
            found = from_others(message, CHANNEL, self.worker)
            if found is None:
                return
            game_id, data = found
            version = int(data["version"])
        except (ValueError, KeyError, TypeError):
            log.warning("bus: a message that is not ours was ignored")
            return
        action = {key: data[key] for key in ACTION_KEYS if key in data}
        self._side.spawn(heard(game_id, version, action))

    async def publish(self, game_id: str, version: int, action: dict[str, Any]) -> None:
        message = json.dumps({"worker": self.worker, "version": version, **action})
        try:
            await self.redis.publish(CHANNEL + game_id, message)
        except Exception as exc:  # stored already: the others see it on the next action or reload
            log.warning("bus: could not publish game %s version %d (%s)", game_id, version, type(exc).__name__)

    async def claim(self, game_id: str, version: int, holding: Callable[[], bool]) -> bool:
        key, lease_ms = f"{TURN_KEY}{game_id}:{version}", int(self.lease_seconds * 1000)
        try:
            won = await self.redis.set(key, self.worker, nx=True, px=lease_ms)
        except Exception as exc:  # no Redis: let the store's version check decide between processes
            log.warning("bus: could not claim the computer's move (%s); the database will decide", type(exc).__name__)
            return True
        if won:
            self._side.spawn(self._hold(key, lease_ms, holding))
        return bool(won)

    async def _hold(self, key: str, lease_ms: int, holding: Callable[[], bool]) -> None:
        """Renew a claim while the computer thinks; give it up when it is done."""
        try:
            while holding():
                await asyncio.sleep(self.lease_seconds / 4)
                if holding():
                    await self.renew(key, lease_ms)
            await self.release(key)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the lease lapses by itself
            log.warning("bus: could not renew the claim %s (%s)", key, type(exc).__name__)

    async def renew(self, key: str, lease_ms: int) -> bool:
        """Extend a lease this process holds; False if it is no longer this process's."""
        return bool(await self._renew(keys=[key], args=[self.worker, lease_ms]))

    async def release(self, key: str) -> None:
        """Give up a lease, if it is still this process's."""
        await self._drop(keys=[key], args=[self.worker])

    async def close(self) -> None:
        await self._side.close()
        await self.redis.aclose()


def make_bus(redis_url: str | None, lease_seconds: float = 10.0) -> Bus:
    """The bus for a server's settings: Redis when a URL is given, else one process alone."""
    return RedisBus(redis_url, lease_seconds) if redis_url else Bus()


__all__ = ["Bus", "BusUnavailable", "RedisBus", "make_bus"]
