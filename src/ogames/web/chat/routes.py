"""The chat's routes, reports and the operators' pages:

    GET  /api/games/{id}/chat          the rooms the visitor may read (the players' if recorded in a seat)
    POST /api/games/{id}/chat          say something {room, text, tokens}: the tokens show a seat held
    POST /api/games/{id}/report        report the game {reason}
    WS   /ws/chat/{id}                 the chat live: the page says {type: join, tokens}, then hears
                                       its history and every new message of the rooms it may read
    GET  /operator                     the open reports, the sanctions (operators only)
    GET  /operator/games/{id}          a game's whole chat, muted names' messages included
    POST /operator/sanction            mute or ban a name {name, kind} (a ban of a guest bans its
                                       addresses for guests a while);  POST /operator/lift {name}
    POST /operator/hide                hide a game's chat or show it again {game, hidden}
    POST /operator/reports/{n}/close   close a report

Every POST from a browser carries its CSRF token (checked before these routes: web/accounts/identity.py);
every operator route checks the visitor's role here, on the server. A refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import Field, ValidationError
from starlette.requests import HTTPConnection

from ogames.web.accounts.visitor import Visitor
from ogames.web.chat import records
from ogames.web.chat.bans import address_of, ban_period, refusal_of
from ogames.web.chat.live import REFRESH, Chat, Listener
from ogames.web.chat.rooms import MAX_TOKENS, handle, holds_a_seat, readable, writable
from ogames.web.chat.text import MAX_MESSAGE, MAX_REASON, cleaned, text_problem
from ogames.web.core.common import Refusal, api_language, refused, worded
from ogames.web.core.deps import SettingsDep, StoreDep, VisitorDep, json_body, page, visitor_of
from ogames.web.core.hub import NO_SUCH_GAME, valid_id
from ogames.web.core.protocol import Message, Token, explain
from ogames.web.core.store import Store
from ogames.web.limits import ClientLimits, ConnectionLimit
from ogames.wording import say

log = logging.getLogger("ogames.web")
router = APIRouter()

JOIN_SECONDS = 30.0  # a chat socket says which seats it holds within this, or is closed
RAW_LIMIT = 4 * MAX_MESSAGE  # characters read before cleaning (more is refused as it stands)

Room = Annotated[str, Field(pattern=r"^(players|spectators)$")]
Tokens = Annotated[list[Token], Field(max_length=MAX_TOKENS)]


class SayRequest(Message):
    """Something said in a game's chat: the room, the text, and the seat tokens the page holds."""

    room: Room
    text: Annotated[str, Field(max_length=RAW_LIMIT)]
    tokens: Tokens = Field(default_factory=list)


class ReportRequest(Message):
    """A game reported to the operators, and why."""

    reason: Annotated[str, Field(max_length=4 * MAX_REASON)]


class JoinMessage(Message):
    """A chat page's first message: the seat tokens it holds (none: a spectator)."""

    type: Annotated[str, Field(pattern=r"^join$")]
    tokens: Tokens = Field(default_factory=list)


# ----- what the routes share --------------------------------------------------------------------


def chat_of(connection: HTTPConnection) -> Chat:
    chat: Chat = connection.app.state.chat
    return chat


ChatDep = Annotated[Chat, Depends(chat_of)]


def secret_of(connection: HTTPConnection) -> str:
    secret: str = connection.app.state.secret_key
    return secret


def shown(message: records.Message, secret: str) -> dict[str, Any]:
    """A message as pages see it: never its author's player id, only a handle to mute them by."""
    return {"id": message.id, "room": message.room, "author": message.author_name, "who": handle(secret, message.author_id),
            "text": message.text, "at": round(message.said_at, 3)}


async def existing(store: Store, game_id: str) -> None:
    """Refusal (404) unless a game is stored under this id."""
    if not valid_id(game_id) or not await asyncio.to_thread(records.game_exists, store, game_id):
        raise Refusal(NO_SUCH_GAME, "not-found", 404)


async def history(store: Store, secret: str, game_id: str, visitor: Visitor, player: bool) -> dict[str, Any]:
    """What a visitor's chat shows now: the rooms they may read, hidden or not, and the messages."""
    hidden = await asyncio.to_thread(records.chat_hidden, store, game_id)
    rooms = readable(player)
    said = [] if hidden else await asyncio.to_thread(records.messages_of, store, game_id, rooms)
    return {"type": "history", "player": player, "rooms": list(rooms), "hidden": hidden, "you": handle(secret, visitor.id),
            "limit": MAX_MESSAGE, "messages": [shown(message, secret) for message in said]}


async def within(limits: ClientLimits, visitor: Visitor) -> None:
    """Refusal (429) when the visitor has said too much lately (counted per visitor, across processes)."""
    if not await limits.allow(visitor.id):
        raise Refusal(say("chat-too-fast", "you are writing too fast: wait a moment"), "rate-limited", 429,
                      retry_after=await limits.wait(visitor.id))


# ----- the chat ---------------------------------------------------------------------------------


@router.get("/api/games/{game_id}/chat", response_model=None)
async def read_chat(request: Request, game_id: str, store: StoreDep, visitor: VisitorDep) -> Response:
    await existing(store, game_id)
    player = await holds_a_seat(store, game_id, visitor)
    return JSONResponse(await history(store, secret_of(request), game_id, visitor, player))


def storable(text: str, limit: int) -> str:
    """A message's or a report's text as it is stored (`cleaned`); Refusal (422) saying why when
    it cannot be (nothing left, or longer than `limit`)."""
    text = cleaned(text)
    problem = text_problem(text, limit)
    if problem is not None:
        raise Refusal(problem, "invalid", 422)
    return text


@router.post("/api/games/{game_id}/chat", response_model=None)
async def say_something(request: Request, game_id: str, store: StoreDep, settings: SettingsDep, visitor: VisitorDep,
                        chat: ChatDep, asked: Annotated[SayRequest, Depends(json_body(SayRequest))]) -> Response:
    await existing(store, game_id)
    text = storable(asked.text, MAX_MESSAGE)
    player = await holds_a_seat(store, game_id, visitor, asked.tokens)
    if not writable(asked.room, player):
        raise Refusal(say("players-only", "only the players write in the players' chat"), "not-a-player", 403)
    address = address_of(request)
    refusal = await refusal_of(store, visitor, address, settings.guest_ban_hours)
    if refusal is not None:
        raise refusal
    if await asyncio.to_thread(records.chat_hidden, store, game_id):
        raise Refusal(say("chat-hidden", "an operator hid this game's chat"), "hidden", 403)
    await within(request.app.state.chat_limits, visitor)
    # A guest's address is kept: a ban of the guest bans it too (chatting is all a guest is banned for).
    message = await asyncio.to_thread(records.add_message, store, game_id, asked.room, visitor.id, visitor.name, text,
                                      address if visitor.is_guest else None, ban_period(settings.guest_ban_hours))
    said = shown(message, secret_of(request))
    await chat.said(game_id, said, asked.room)
    return JSONResponse(said, status_code=201)


@router.post("/api/games/{game_id}/report", response_model=None)
async def report(request: Request, game_id: str, store: StoreDep, visitor: VisitorDep,
                 asked: Annotated[ReportRequest, Depends(json_body(ReportRequest))]) -> Response:
    await existing(store, game_id)
    reason = storable(asked.reason, MAX_REASON)
    await within(request.app.state.report_limits, visitor)
    number = await asyncio.to_thread(records.add_report, store, game_id, visitor.id, visitor.name, reason)
    log.info("game %s reported (report %d)", game_id, number)
    return JSONResponse({"report": number}, status_code=201)


@router.websocket("/ws/chat/{game_id}")
async def chat_socket(websocket: WebSocket, game_id: str, store: StoreDep, chat: ChatDep) -> None:
    try:
        await websocket.accept()
    except (WebSocketDisconnect, OSError):
        return
    language = api_language(websocket)
    visitor = visitor_of(websocket)
    try:
        await existing(store, game_id)
        joined = JoinMessage.model_validate_json(await asyncio.wait_for(websocket.receive_text(), JOIN_SECONDS))
    except Refusal as refusal:
        await _close(websocket, worded(refused(refusal.message, refusal.code), language), 4404 if refusal.status == 404 else 4400)
        return
    except ValidationError as exc:
        await _close(websocket, worded(refused(explain(exc), "invalid"), language), 4400)
        return
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        await _close(websocket, None, 4408)
        return
    secret = secret_of(websocket)
    listener = Listener(game_id, await holds_a_seat(store, game_id, visitor, joined.tokens))
    chat.add(listener)
    sending = asyncio.ensure_future(_send(websocket, listener, store, secret, visitor))
    try:
        listener.put(REFRESH)  # its history first
        await _hear(websocket, sending)
    finally:
        chat.remove(listener)
        sending.cancel()
        with contextlib.suppress(BaseException):
            await sending


async def _send(websocket: WebSocket, listener: Listener, store: Store, secret: str, visitor: Visitor) -> None:
    """Send what the listener is given: its history again for a refresh, else each new message."""
    while True:
        item = await listener.queue.get()
        if listener.overflowed:
            await websocket.close(code=4429)  # far behind: the page reconnects and reads its history
            return
        if item is REFRESH:
            item = await history(store, secret, listener.game_id, visitor, listener.player)
        await websocket.send_text(json.dumps(item, ensure_ascii=False))


async def _hear(websocket: WebSocket, sending: asyncio.Future[Any]) -> None:
    """Read what the page sends (it needs to send nothing more: pings are answered, anything else
    ignored, a flood closes it) until it goes away or the sender stops."""
    limit = ConnectionLimit(2.0, 10.0, 20)
    while not sending.done():
        receiving: asyncio.Future[Any] = asyncio.ensure_future(websocket.receive())
        done, _ = await asyncio.wait({receiving, sending}, return_when=asyncio.FIRST_COMPLETED)
        if receiving not in done:
            receiving.cancel()
            return
        incoming = receiving.result()
        if incoming["type"] == "websocket.disconnect":
            return
        if not await limit.allow() and limit.exhausted:
            await _close(websocket, None, 4429)
            return
        if incoming.get("text") == '{"type":"ping"}':
            await websocket.send_text('{"type":"pong"}')


async def _close(websocket: WebSocket, message: dict[str, Any] | None, code: int) -> None:
    with contextlib.suppress(WebSocketDisconnect, OSError, RuntimeError):
        if message is not None:
            await websocket.send_json(message)
        await websocket.close(code=code)


# ----- operators --------------------------------------------------------------------------------


def operator(visitor: VisitorDep) -> Visitor:
    """The visitor, if an operator; Refusal (403) for anyone else, whatever they send."""
    if visitor.is_guest or visitor.role != records.OPERATOR:
        raise Refusal(say("operators-only", "only an operator may do this"), "forbidden", 403)
    return visitor


OperatorDep = Annotated[Visitor, Depends(operator)]


async def form_fields(request: Request, *names: str) -> dict[str, str]:
    form = await request.form()
    return {name: str(form.get(name) or "").strip()[:200] for name in names}


@router.get("/operator", response_class=HTMLResponse)
async def operator_page(request: Request, store: StoreDep, visitor: OperatorDep) -> HTMLResponse:
    reports = await asyncio.to_thread(records.open_reports, store)
    given = await asyncio.to_thread(records.all_sanctions, store)
    problem = request.query_params.get("problem")
    return page(request, "operator.html", reports=reports, sanctions=given, problem=problem)


@router.get("/operator/games/{game_id}", response_class=HTMLResponse)
async def operator_game(request: Request, game_id: str, store: StoreDep, visitor: OperatorDep) -> HTMLResponse:
    await existing(store, game_id)
    said = await asyncio.to_thread(records.messages_of, store, game_id, records.ROOMS, sanctioned=True)
    hidden = await asyncio.to_thread(records.chat_hidden, store, game_id)
    return page(request, "operator_game.html", game_id=game_id, said=said, hidden=hidden)


@router.post("/operator/sanction", response_model=None)
async def give_sanction(request: Request, store: StoreDep, settings: SettingsDep, visitor: OperatorDep,
                        chat: ChatDep) -> Response:
    form = await form_fields(request, "name", "kind")
    if form["kind"] not in records.SANCTIONS:
        raise Refusal(say("no-such-sanction", "a name is muted or banned"), "invalid", 400)
    ids = await asyncio.to_thread(records.players_named, store, form["name"])
    if not form["name"] or not ids:
        raise Refusal(say("nobody-named", "nobody named {name} has an account or has chatted", name=form["name"]),
                      "not-found", 404)
    await asyncio.to_thread(records.sanction, store, ids, form["name"], form["kind"], visitor.name,
                            ban_period(settings.guest_ban_hours))
    log.info("operator %s: %s %s", visitor.name, form["kind"], form["name"])
    await chat.refresh()  # their messages leave every open chat
    return RedirectResponse("/operator", status_code=303)


@router.post("/operator/lift", response_model=None)
async def lift_sanction(request: Request, store: StoreDep, settings: SettingsDep, visitor: OperatorDep,
                        chat: ChatDep) -> Response:
    form = await form_fields(request, "name")
    ids = await asyncio.to_thread(records.players_named, store, form["name"])
    await asyncio.to_thread(records.lift, store, form["name"], ids, ban_period(settings.guest_ban_hours))
    log.info("operator %s: lifted %s", visitor.name, form["name"])
    await chat.refresh()
    return RedirectResponse("/operator", status_code=303)


@router.post("/operator/hide", response_model=None)
async def hide(request: Request, store: StoreDep, visitor: OperatorDep, chat: ChatDep) -> Response:
    form = await form_fields(request, "game", "hidden")
    await existing(store, form["game"])
    await asyncio.to_thread(records.hide_chat, store, form["game"], visitor.name, form["hidden"] == "1")
    log.info("operator %s: chat of game %s %s", visitor.name, form["game"], "hidden" if form["hidden"] == "1" else "shown")
    await chat.refresh(form["game"])
    return RedirectResponse(f"/operator/games/{form['game']}", status_code=303)


REPORT_ID_MAX = 2**63 - 1  # the database's largest integer: a number past it is refused (422), not an overflow


@router.post("/operator/reports/{report_id}/close", response_model=None)
async def close(report_id: Annotated[int, Path(ge=1, le=REPORT_ID_MAX)], store: StoreDep, visitor: OperatorDep) -> Response:
    await asyncio.to_thread(records.close_report, store, report_id)
    return RedirectResponse("/operator", status_code=303)


__all__ = ["ChatDep", "router"]
