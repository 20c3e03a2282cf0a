"""The routes of Omiga's card tables (an APIRouter that `create_app` includes before its own routes):

    GET  /new/omiga               the form: the mode's options and who plays each seat;  POST creates
    GET  /o/{id}                  the table: cards, hands, counts, scores, the clock (anyone may watch)
    GET  /o/{id}/record.json      the record, with each action's time `t` (the seed only once the game is over)
    WS   /ws/o/{id}               views out; `ready`, `act`, `resign`, `ping` in; a `verdict` answers each act
    POST /api/omiga               create (JSON `NewTable`) → id, link, tokens of the seats here, invitations
    GET  /api/omiga/{id}          the view
    POST /api/omiga/{id}/act      `{action, token, seq}` → the verdict;  POST /api/omiga/{id}/resign `{token, seq}`

A refusal or an invalid body of the JSON API is answered by the app's handlers (`app.py`). These
routes serve Omiga tables only: each finds its table through `OmigaHub.get`, which answers a
board game's id with 404, saying where the game is.

Tokens reach the creating browser in the link's fragment (`/o/ID#seats=0.TOKEN&invite=1.TOKEN`):
its own seats, and the invitation links it shows to pass on (each opens the table holding one seat).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection

import ogames
from ogames.rules.omiga.zen.forms import FORMS
from ogames.web.accounts.seats import sit
from ogames.web.chat.bans import NotBanned
from ogames.web.core.common import (
    Refusal,
    api_language,
    attachment,
    error_response,
    find_game,
    form_fields,
    form_options,
    open_live,
    refusal_response,
    request_language,
    script_json,
    serve_socket,
)
from ogames.web.core.deps import Body, SettingsDep, VisitorDep, form_problem, json_body, page, read_form, visitor_of
from ogames.web.core.protocol import DEFAULT_LEVEL, LEVEL_RANGE, level_of
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.i18n import choice, words
from ogames.web.limits import ConnectionLimit
from ogames.web.messages import colour_words
from ogames.web.omiga.live import LiveTable, OmigaHub
from ogames.web.omiga.protocol import (
    MAX_SEATS,
    ActMessage,
    ActRequest,
    NewTable,
    ResignMessage,
    explain_table,
    parse_table_message,
)
from ogames.wording import say

RATE = 20.0  # messages per second a connection may send on average
BURST = 40.0  # ... and at once
CUT_OFF = 200  # messages refused for speed in a row before the connection is closed
SEAT_NAMES = {
    "base": ["white", "black"],
    "kids": ["white", "black"],
    "2v2": ["white1", "black1", "white2", "black2"],
    "toddler": ["white", "black", "red", "blue", "green", "yellow"],
    "zen": ["player"],
}

def omiga_hub(connection: HTTPConnection) -> OmigaHub:
    """Omiga's live hub of this server process."""
    hub: OmigaHub = connection.app.state.omiga
    return hub


OmigaDep = Annotated[OmigaHub, Depends(omiga_hub)]
router = APIRouter()


# ----- the new-game form ---------------------------------------------------------------------


def seat_names(language: str) -> dict[str, list[str]]:
    """Each mode's seats as the form names them in a language (`white1` → "Белые 1")."""
    if language == ENGLISH:
        return SEAT_NAMES
    t = words(language)
    named = {}
    for mode, names in SEAT_NAMES.items():
        shown = [t["zen_player"] if name == "player" else colour_words(name, "", language) or name for name in names]
        named[mode] = [name[:1].upper() + name[1:] for name in shown]
    return named


def form_context(values: dict[str, str] | None = None, language: str = ENGLISH) -> dict[str, Any]:
    """What the Omiga form needs: the option fields (as the other games' forms), seats, bots, forms."""
    game = find_game("omiga")
    assert game is not None
    return {
        "game": game,
        "fields": form_fields(game),
        "values": values or {},
        "seat_range": range(MAX_SEATS),
        "seat_names": seat_names(language),
        "levels": list(LEVEL_RANGE),
        "default_level": DEFAULT_LEVEL,
        "forms": FORMS,
    }


def table_from_form(form: dict[str, str]) -> NewTable:
    """The NewTable a submitted form asks for (options left empty keep their defaults)."""
    game = find_game("omiga")
    assert game is not None
    options: dict[str, Any] = dict(form_options(game, form))
    seats = []
    for seat in range(MAX_SEATS):
        kind = form.get(f"seat{seat}_kind")
        if kind is None:
            break
        choice: dict[str, Any] = {"kind": kind}
        level = form.get(f"seat{seat}_level")
        if kind == "bot" and level is not None:  # the form's level; a form from before levels names
            choice["level"] = level_of(level)  # the strategy and speed instead
        elif kind == "bot":
            choice.update(strategy=form.get(f"seat{seat}_strategy", "racer"), speed=form.get(f"seat{seat}_speed", "casual"))
        seats.append(choice)
    return NewTable.model_validate({"options": options, "seats": seats or [{"kind": "here"}], "rated": form.get("rated") == "on"})


@router.get("/new/omiga", response_class=HTMLResponse)
async def new_table_form(request: Request) -> HTMLResponse:
    return page(request, "omiga_new.html", **form_context(language=request_language(request)))


@router.post("/new/omiga", response_model=None)
async def new_table(request: Request, hub: OmigaDep, settings: SettingsDep, visitor: VisitorDep, _: NotBanned) -> Response:
    form: dict[str, str] = {}
    language = request_language(request)
    try:
        form = await read_form(request, settings.max_body_bytes)
        live, here, invites = await hub.create(table_from_form(form), visitor)
    except (Refusal, ValueError) as exc:
        status, message = form_problem(exc)
        return page(request, "omiga_new.html", status, **form_context(form, language), message=message)
    await sit(hub.store, visitor, live.id, here)  # who sat where (web/accounts/seats.py)
    return RedirectResponse(f"/o/{live.id}#{fragment(here, invites)}", status_code=303)


def fragment(here: dict[int, str], invites: dict[int, str]) -> str:
    """The link fragment that hands the creating browser its seats and the invitations."""
    parts = []
    if here:
        parts.append("seats=" + ",".join(f"{seat}.{token}" for seat, token in here.items()))
    if invites:
        parts.append("invite=" + ",".join(f"{seat}.{token}" for seat, token in invites.items()))
    return "&".join(parts)


# ----- the table page --------------------------------------------------------------------------


@router.get("/o/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: str, hub: OmigaDep) -> HTMLResponse:
    try:
        live = await hub.get(table_id)
    except Refusal as refusal:
        return page(request, "error.html", refusal.status, message=refusal.message)
    language = request_language(request)
    view = live.view(language)
    return page(request, "omiga.html", view=view, view_json=script_json(view), title=_title(view, language))


def _title(view: dict[str, Any], language: str) -> str:
    return f"Omiga · {choice(words(language), 'variant', view['variant'])}"


@router.get("/o/{table_id}/record.json", response_model=None)
async def table_record(request: Request, table_id: str, hub: OmigaDep) -> Response:
    try:
        record = await hub.record(table_id)
    except Refusal as refusal:
        return refusal_response(refusal, api_language(request))
    return attachment(ogames.records.dumps(record), f"ogames-omiga-{table_id}.json", "application/json")


# ----- the JSON API ----------------------------------------------------------------------------


@router.post("/api/omiga", response_model=None)
async def api_create(hub: OmigaDep, visitor: VisitorDep, _: NotBanned,
                     asked: Annotated[NewTable, Depends(json_body(NewTable))]) -> Response:
    live, here, invites = await hub.create(asked, visitor)
    await sit(hub.store, visitor, live.id, here)
    tokens = {str(seat): token for seat, token in here.items()}
    invitations = {str(seat): f"/o/{live.id}#seats={seat}.{token}" for seat, token in invites.items()}
    body = {"id": live.id, "url": f"/o/{live.id}", "tokens": tokens, "invitations": invitations, "view": live.view()}
    return JSONResponse(body, status_code=201)


@router.get("/api/omiga/{table_id}", response_model=None)
async def api_view(table_id: str, hub: OmigaDep) -> Response:
    return JSONResponse((await hub.get(table_id)).view())


@router.post("/api/omiga/{table_id}/act", response_model=None)
async def api_act(table_id: str, hub: OmigaDep, asked: Annotated[ActRequest, Depends(json_body(ActRequest))]) -> Response:
    verdict = await hub.act(table_id, asked.token, asked.seq, asked.action)
    return JSONResponse(verdict, status_code=200 if verdict["accepted"] else 422)


@router.post("/api/omiga/{table_id}/resign", response_model=None)
async def api_resign(request: Request, table_id: str, hub: OmigaDep, body: Body) -> Response:
    try:
        message = ResignMessage.model_validate({"type": "resign", **json.loads(body or b"{}")})
    except (json.JSONDecodeError, TypeError):
        return error_response(say("not-json-object", "the request is not a JSON object"), "invalid", 422, api_language(request))
    verdict = await hub.resign(table_id, message.token, message.seq)
    return JSONResponse(verdict, status_code=200 if verdict["accepted"] else 422)


# ----- live play ---------------------------------------------------------------------------------


@router.websocket("/ws/o/{table_id}")
async def live_table(websocket: WebSocket, table_id: str, hub: OmigaDep, settings: SettingsDep) -> None:
    limit = settings.max_message_bytes
    live = await open_live(websocket, hub.get, table_id)
    if live is None:
        return

    handle = hub.handler(live, visitor_of(websocket), limit, parse_table_message, explain_table,
                         lambda message: verdict(hub, live, message))
    await serve_socket(websocket, hub, live, live.view, ConnectionLimit(RATE, BURST, CUT_OFF), handle, "too-fast")


async def verdict(hub: OmigaHub, live: LiveTable, message: ActMessage | ResignMessage) -> dict[str, Any]:
    """A page's action or resignation, and the verdict on it for that page alone (accepted or not, and why)."""
    try:
        if isinstance(message, ActMessage):
            judged = await hub.act(live.id, message.token, message.seq, message.action)
        else:
            judged = await hub.resign(live.id, message.token, message.seq)
    except Refusal as refusal:
        action = getattr(message, "action", "resign")
        judged = {"accepted": False, "action": action, "reason": refusal.message, "code": refusal.code}
    return {"type": "verdict", "seq": message.seq, **judged}


__all__ = ["OmigaDep", "omiga_hub", "router"]
