"""The pages listening to a game's chat, and the relay that carries the chat between server
processes.

Each open chat is a `Listener` on one process: a queue its WebSocket sends from. A message stored
by any process is published on the Redis channel `ogames:chat:GAME` (`{"worker", "said"}`) and
every other process hands it to its own listeners of that game (one process alone needs no Redis:
it hands it to its listeners directly). An operator's act that changes what is shown — a name muted
or banned, a chat hidden or shown again — is published as `{"worker", "refresh": true}` (on
`ogames:chat:` with no game for a name, which is site-wide) and every listener it concerns is sent
its history again, as the database now has it.

Redis is only a messenger, as for moves: every message is stored before it is published, so a lost
publication delays a message until the page reloads, and loses nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from ogames.web.chat.rooms import readable
from ogames.web.core.background import Background, from_others, listen

log = logging.getLogger("ogames.web")

CHANNEL = "ogames:chat:"  # + game id; nothing after it: every game
QUEUE = 64  # messages waiting for one page; a page that far behind is closed (it reloads its history)
REFRESH: dict[str, Any] = {"type": "refresh"}


@dataclass(eq=False)
class Listener:
    """One page's chat connection: whether its visitor is a player, and what waits to be sent."""

    game_id: str
    player: bool
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    overflowed: bool = False

    def put(self, item: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.overflowed = True  # its socket closes; the page reconnects and reads its history


class Chat:
    """The listeners of this process, and the relay (when several processes share a Redis)."""

    def __init__(self, redis: Any = None, worker: str = ""):
        self.redis = redis
        self.worker = worker
        self.listeners: dict[str, set[Listener]] = {}
        self._side = Background("chat: relay failed")

    async def start(self) -> None:
        if self.redis is not None:
            self._side.spawn(listen(self.redis, CHANNEL + "*", self._dispatch, "chat"), name="ogames-chat")

    async def close(self) -> None:
        await self._side.close()

    def add(self, listener: Listener) -> None:
        self.listeners.setdefault(listener.game_id, set()).add(listener)

    def remove(self, listener: Listener) -> None:
        held = self.listeners.get(listener.game_id)
        if held is not None:
            held.discard(listener)
            if not held:
                del self.listeners[listener.game_id]

    async def said(self, game_id: str, shown: dict[str, Any], room: str) -> None:
        """A message stored in a game's room: to this process's listeners and to the others'."""
        self.deliver(game_id, shown, room)
        await self._publish(game_id, {"said": shown, "room": room})

    async def refresh(self, game_id: str | None = None) -> None:
        """What a game's chat (None: every game's) shows has changed: every listener reads it again."""
        self.redeliver(game_id)
        await self._publish(game_id or "", {"refresh": True})

    def deliver(self, game_id: str, shown: dict[str, Any], room: str) -> None:
        for listener in self.listeners.get(game_id, ()):
            if room in readable(listener.player):
                listener.put({"type": "said", "message": shown})

    def redeliver(self, game_id: str | None) -> None:
        held = self.listeners.values() if game_id is None else [self.listeners.get(game_id, set())]
        for listeners in held:
            for listener in listeners:
                listener.put(REFRESH)

    async def _publish(self, game_id: str, event: dict[str, Any]) -> None:
        if self.redis is None:
            return
        try:
            await self.redis.publish(CHANNEL + game_id, json.dumps({"worker": self.worker, **event}))
        except Exception as exc:  # stored already: the other processes' pages see it when they reload
            log.warning("chat: could not publish to the other processes (%s)", type(exc).__name__)

    def _dispatch(self, message: dict[str, Any]) -> None:
        try:
            found = from_others(message, CHANNEL, self.worker)
            if found is None:
                return
            game_id, data = found
            if data.get("refresh"):
                self.redeliver(game_id or None)
            elif isinstance(data.get("said"), dict) and data.get("room") in ("players", "spectators"):
                self.deliver(game_id, data["said"], data["room"])
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("chat: a message that is not ours was ignored")


__all__ = ["CHANNEL", "Chat", "Listener"]
