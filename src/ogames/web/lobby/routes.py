"""The lobby's routes:

    GET /lobby      the lobby page: the open seeks, live, and a form to post one
    WS  /ws/lobby   the seeks pushed to the page as they come and go; seek, accept, cancel from it
                    (?challenges=1: another page's header, shown the challenges to its visitor only)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import MutableMapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import HTMLResponse
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

import ogames
from ogames.web.boards.correspondence import DAYS_CHOICES
from ogames.web.boards.live import BROWSER_GAMES
from ogames.web.chat.bans import address_of
from ogames.web.core.common import Refusal, api_language, read_message, refused, serve_messages
from ogames.web.core.deps import SettingsDep, page, visitor_of
from ogames.web.core.store_faults import StorageError
from ogames.web.limits import ConnectionLimit
from ogames.web.lobby.lobby import Lobby, LobbyPage
from ogames.web.lobby.protocol import (
    AcceptMessage,
    CancelMessage,
    DeclineMessage,
    PingMessage,
    SeekMessage,
    explain_lobby,
    parse_lobby,
)
from ogames.wording import say

log = logging.getLogger("ogames.web")
router = APIRouter()


def lobby_of(connection: HTTPConnection) -> Lobby:
    """This process's lobby."""
    lobby: Lobby = connection.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(lobby_of)]


@router.get("/lobby", response_class=HTMLResponse)
async def lobby_page(request: Request) -> HTMLResponse:
    games = [game for game in ogames.games() if game["name"] in BROWSER_GAMES]
    return page(request, "lobby.html", lobby_games=games, days_choices=DAYS_CHOICES)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket, lobby: LobbyDep, settings: SettingsDep) -> None:
    try:
        await websocket.accept()
    except (WebSocketDisconnect, OSError):
        return
    language = api_language(websocket)
    try:
        only = websocket.query_params.get("challenges") == "1"  # a page's header: the challenges to its visitor
        number, lobby_page_ = await lobby.join(visitor_of(websocket), language, only, address_of(websocket))
    except StorageError:
        with contextlib.suppress(Exception):
            await websocket.close(code=4500)
        return
    limit = ConnectionLimit(settings.ws_rate, settings.ws_burst, settings.ws_strikes)

    async def handle_page(incoming: MutableMapping[str, Any]) -> dict[str, Any] | None:
        return await handle(lobby, lobby_page_, incoming, settings.max_message_bytes)

    try:
        await serve_messages(websocket, lobby_page_.outbox, limit, handle_page, "rate-limited", language, "lobby")
    finally:
        # Shielded: the poster's seeks are withdrawn even when the connection's task is cancelled.
        with contextlib.suppress(BaseException):
            await asyncio.shield(lobby.leave(number))


async def handle(lobby: Lobby, page_: LobbyPage, incoming: MutableMapping[str, Any], limit: int) -> dict[str, Any] | None:
    """One message from a lobby page: its answer for that page alone, or None (what it did reaches
    every page as the lobby's news)."""
    message, problem = read_message(incoming, limit, parse_lobby, explain_lobby)
    if problem is not None:
        return problem
    try:
        if isinstance(message, PingMessage):
            return {"type": "pong"}
        if isinstance(message, SeekMessage | CancelMessage) and page_.challenges_only:
            return refused(say("lobby-only", "seeks are posted and cancelled from the lobby page"), "invalid")
        if isinstance(message, SeekMessage):
            await lobby.post(page_, message)
            return None
        if isinstance(message, AcceptMessage):
            return await lobby.accept(page_, message.seek)
        if isinstance(message, CancelMessage):
            return await lobby.cancel(page_, message.seek)
        if isinstance(message, DeclineMessage):
            return await lobby.decline(page_, message.seek)
    except Refusal as refusal:
        answer = refused(refusal.message, refusal.code)
        if refusal.retry_after is not None:  # (whole seconds, as the API's Retry-After)
            answer["retry_after"] = max(1, math.ceil(refusal.retry_after))
        return answer
    except StorageError as exc:
        log.warning("lobby: %s", exc)
        return refused(say("lobby-storage", "the lobby cannot be changed just now: try again in a moment"), "storage")
    return refused(say("message-invalid", "the message is not valid"), "invalid")


__all__ = ["LobbyDep", "lobby_of", "router"]
