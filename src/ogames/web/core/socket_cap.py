"""How many WebSockets one client address may hold open at once in a server process (`SocketCap`,
an ASGI middleware in front of every socket route).

Every open socket costs the server memory (its outbox, its presence, a few hundred objects) and a
share of each broadcast of its game or lobby, whether or not anyone reads it. Without a cap one
visitor could open thousands and slow every other player's moves. A handshake past the cap is
refused before the socket opens (HTTP 403; the page's reconnection tries again later, as after any
lost connection), and nothing else changes. A person's pages open one to three sockets each (the
board, the chat, the header's challenges), so the default (`Settings.sockets_per_client`, 64)
leaves room for many tabs and for a few people behind one address.

The count is per process: with several server processes an address may hold the cap on each (still
bounded), and no process waits on Redis to open a socket.
"""

from __future__ import annotations

import logging
from collections import Counter

from starlette.types import ASGIApp, Receive, Scope, Send

from ogames.web.limits import client_address

log = logging.getLogger("ogames.web")

REFUSED = 1008  # the WebSocket close code of a policy refusal (sent before the socket is accepted: HTTP 403)


class SocketCap:
    """The middleware: at most `per_client` open WebSockets per client address (see the module)."""

    def __init__(self, app: ASGIApp, per_client: int):
        self.app = app
        self.per_client = per_client
        self.open: Counter[str] = Counter()
        self.warned: set[str] = set()  # addresses at the cap already said in the log (once until they drop below)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        if self.open[address] >= self.per_client:
            if address not in self.warned:
                self.warned.add(address)
                log.warning("%s holds %d open sockets: further ones refused", address, self.per_client)
            await receive()  # the handshake ("websocket.connect"), answered with the refusal
            await send({"type": "websocket.close", "code": REFUSED, "reason": "too many open connections from this address"})
            return
        self.open[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if self.open[address] < self.per_client:
                self.warned.discard(address)
            if not self.open[address]:
                del self.open[address]


__all__ = ["REFUSED", "SocketCap"]
