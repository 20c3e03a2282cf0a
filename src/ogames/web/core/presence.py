"""Who has a page open on each game or table, the same on every server process.

A page joins a game when its WebSocket opens, may say which seats it holds (Omiga's `ready` with
the seats' tokens, checked by the hub before they get here), and leaves when the socket closes.
`here(game)` is the union: the seats some page holds and the number of pages.

One process alone (`Presence`, the default) counts its own pages in memory. Several processes
(`RedisPresence`, made with the `RedisBus`) also keep one Redis hash per game,
`ogames:here:ID`, with one field per process: `{"seats", "pages", "at"}`. A process rewrites its
field at every join and leave and publishes the game's id on `ogames:here:ID`, so every other
process that watches the game reads the hash again at once. Each process also rewrites its fields
every `lease/4` seconds and entries older than `lease/2` are ignored: a killed process's pages
vanish from everyone's views within half a lease (the hash itself expires when nobody writes).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ogames.web.core.background import Background, listen

log = logging.getLogger("ogames.web")

KEY = "ogames:here:"  # + game id: the hash of every process's pages; also the channel of its changes

# Called with a game's id when who is here may have changed.
Changed = Callable[[str], Awaitable[None]]


@dataclass(frozen=True)
class Here:
    """Who is at a game: the seats some open page holds, and how many pages are open."""

    seats: frozenset[int] = frozenset()
    pages: int = 0


class Presence:
    """One server process alone: the pages open here are all there are."""

    def __init__(self) -> None:
        self._pages: dict[str, dict[int, set[int]]] = {}  # game id → page number → seats it holds
        self._numbers = itertools.count(1)
        self._changed: Changed | None = None

    async def start(self, changed: Changed) -> None:
        """Begin telling `changed` when who is at a game may have changed."""
        self._changed = changed

    async def join(self, game_id: str) -> int:
        """A page opened on a game: its number, for `hold` and `leave`."""
        page = next(self._numbers)
        self._pages.setdefault(game_id, {})[page] = set()
        await self._tell(game_id)
        return page

    async def hold(self, game_id: str, page: int, seats: Iterable[int]) -> None:
        """A page says it holds these seats (besides those it held already)."""
        held = self._pages.get(game_id, {}).get(page)
        if held is None or held.issuperset(seats):
            return
        held.update(seats)
        await self._tell(game_id)

    async def leave(self, game_id: str, page: int) -> None:
        """A page closed."""
        pages = self._pages.get(game_id, {})
        if pages.pop(page, None) is None:
            return
        if not pages:
            del self._pages[game_id]
        await self._tell(game_id)

    def local(self, game_id: str) -> Here:
        """The pages open on a game in this process."""
        pages = self._pages.get(game_id, {})
        return Here(frozenset().union(*pages.values()) if pages else frozenset(), len(pages))

    async def here(self, game_id: str) -> Here:
        """The pages open on a game in every process (alone: this one's)."""
        return self.local(game_id)

    async def _tell(self, game_id: str) -> None:
        if self._changed is not None:
            await self._changed(game_id)

    async def close(self) -> None:
        """Stop listening; forget this process's pages."""


class RedisPresence(Presence):
    """Server processes sharing one Redis: each writes its own pages, everyone reads them all."""

    def __init__(self, redis: Any, worker: str, lease_seconds: float):
        super().__init__()
        self.redis, self.worker = redis, worker
        self.refresh, self.stale = lease_seconds / 4, lease_seconds / 2
        self._side = Background("presence")
        self._elsewhere: set[str] = set()  # games whose last read showed pages on other processes

    async def start(self, changed: Changed) -> None:
        await super().start(changed)
        self._side.spawn(self._listen(), name="ogames-here")
        self._side.spawn(self._refresh(), name="ogames-here-refresh")

    async def _tell(self, game_id: str) -> None:
        try:
            await self._write(game_id)
            await self.redis.publish(KEY + game_id, self.worker)
        except Exception as exc:  # the others see it at the next refresh
            log.warning("presence: could not publish game %s (%s)", game_id, type(exc).__name__)
        await super()._tell(game_id)

    async def _write(self, game_id: str) -> None:
        """This process's field of a game's hash: rewritten, or deleted when no page is open here."""
        mine = self.local(game_id)
        if not mine.pages:
            await self.redis.hdel(KEY + game_id, self.worker)
            return
        entry = json.dumps({"seats": sorted(mine.seats), "pages": mine.pages, "at": time.time()})
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(KEY + game_id, self.worker, entry)
            pipe.pexpire(KEY + game_id, int(self.stale * 4000))
            await pipe.execute()

    async def here(self, game_id: str) -> Here:
        mine = self.local(game_id)
        try:
            fields = await self.redis.hgetall(KEY + game_id)
        except Exception as exc:
            log.warning("presence: could not read game %s (%s); showing this process's pages", game_id, type(exc).__name__)
            return mine
        seats, pages, fresh = set(mine.seats), mine.pages, time.time() - self.stale
        for worker, value in fields.items():
            if _text(worker) == self.worker:
                continue
            try:
                entry = json.loads(value)
                if float(entry["at"]) >= fresh:
                    seats.update(int(seat) for seat in entry["seats"])
                    pages += int(entry["pages"])
            except (ValueError, KeyError, TypeError):
                continue
        # Read again at every refresh while others have pages open: if they die, they drop out.
        (self._elsewhere.add if pages > mine.pages else self._elsewhere.discard)(game_id)
        return Here(frozenset(seats), pages)

    async def _listen(self) -> None:  # while Redis is away, the refresh shows who is here
        await listen(self.redis, KEY + "*", self._heard, "presence")

    def _heard(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage" or self._changed is None:
            return
        channel, sender = (_text(part) for part in (message["channel"], message["data"]))
        if sender != self.worker:  # in a task of its own: the hub may draw views meanwhile
            self._side.spawn(self._changed(channel.removeprefix(KEY)))

    async def _refresh(self) -> None:
        """Keep this process's entries fresh, and let entries of processes that died drop out."""
        while True:
            await asyncio.sleep(self.refresh)
            games, self._elsewhere = set(self._pages) | self._elsewhere, set()  # here() adds back the held ones
            for game_id in games:
                try:
                    if game_id in self._pages:
                        await self._write(game_id)
                    if self._changed is not None:
                        await self._changed(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.warning("presence: could not refresh game %s (%s)", game_id, type(exc).__name__)

    async def close(self) -> None:
        await self._side.close()
        for game_id in list(self._pages):  # leave politely: the others need not wait for staleness
            with contextlib.suppress(Exception):
                await self.redis.hdel(KEY + game_id, self.worker)
                await self.redis.publish(KEY + game_id, self.worker)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


__all__ = ["Here", "Presence", "RedisPresence"]
