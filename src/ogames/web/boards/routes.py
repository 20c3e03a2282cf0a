"""The board games' routes (Omny, Odd-Y, Omega, Onyx), one `APIRouter` whose hub, settings and
bodies come as dependencies:

    GET  /new/{game}            a new-game form made from the game's options;  POST creates the game
    GET  /g/{id}                a game: board, turn, moves, result (anyone with the link may watch)
    GET  /g/{id}/record.json    the game's record, to download
    GET  /g/{id}/record.sgf     the same as SGF, for the hex-board games (Omny, Odd-Y on the triangle)
    WS   /ws/g/{id}             the live game: views out, moves and resignations in
    POST /api/games             create a game (JSON) → id, link and the seats' tokens
    GET  /api/games/{id}        the game's view (JSON)
    GET  /api/games/{id}/position/{k}  the position after k moves (read-only: board, turn, result)
    POST /api/games/{id}/moves  a move {move, token, version};  POST /api/games/{id}/resign {token, version}
    POST /api/games/{id}/undo   take back {token, version};  POST /api/games/{id}/join {seat} → a new token
    POST /api/games/{id}/abort  abort before everyone has moved {token, version}
    POST /api/games/{id}/claim  claim the win over a person who left {token, version, seat}
    GET  /api/open-games        the listed games with a seat to take

These routes serve the board games only: each finds its game through `Hub.get`, which answers an
Omiga table's id with 404, saying where the table is (only the page /g/{id} sends a person on to it).

A new game's tokens reach the creating browser in the fragment of the link it is sent to
(`/g/{id}#seats=0.TOKEN,1.TOKEN`), which browsers never send to a server, so no token is in any
request line or log; the page keeps them in the browser's storage and sends the mover's token
with each move.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

import ogames
from ogames import sgf
from ogames.errors import shown as quoted
from ogames.web import i18n
from ogames.web.accounts.seats import sit
from ogames.web.boards.board import board_frame, board_setup, position_view
from ogames.web.boards.forms import form_context, new_game_from_form
from ogames.web.boards.game_view import draw_position, drawn, large, view
from ogames.web.boards.hub import Hub
from ogames.web.boards.live import INVITED, LiveGame
from ogames.web.boards.protocol import (
    AbortMessage,
    AbortRequest,
    ClaimMessage,
    ClaimRequest,
    JoinRequest,
    MoveMessage,
    MoveRequest,
    NewGame,
    ResignMessage,
    ResignRequest,
    UndoMessage,
    UndoRequest,
    explain_client,
    parse_client,
)
from ogames.web.boards.views import CreatedGame, GameView, Invitation, JoinedSeat, PositionView
from ogames.web.chat.bans import NotBanned
from ogames.web.core.common import (
    Refusal,
    api_language,
    attachment,
    error_response,
    find_game,
    heavy,
    open_live,
    options_text,
    refusal_response,
    refused,
    request_language,
    script_json,
    serve_socket,
)
from ogames.web.core.delta import jsonable, written
from ogames.web.core.deps import SettingsDep, VisitorDep, form_problem, json_body, page, read_form, visitor_of
from ogames.web.limits import ConnectionLimit
from ogames.web.ratings import records as rating_records
from ogames.wording import say


def board_hub(connection: HTTPConnection) -> Hub:
    """The board games' live hub of this server process."""
    hub: Hub = connection.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(board_hub)]
router = APIRouter()


async def drawn_view(live: LiveGame, language: str = i18n.DEFAULT) -> GameView:
    """A game's view with its board drawn (a large board's facts made off the event loop first)."""
    await draw_position(live, language)
    shown = view(live, language)
    if not large(live.state):
        return drawn(live, shown, language)
    return await heavy(drawn, live, shown, language)


async def answer(live: LiveGame, content: BaseModel, status: int = 200) -> Response:
    """A typed JSON answer about a game, written once (the route declares its model for the API's
    schema, and FastAPI does not check it again); a large board's (megabytes of SVG) off the event loop."""
    text = await heavy(written, content) if large(live.state) else written(content)
    return Response(text, status_code=status, media_type="application/json")


async def view_answer(live: LiveGame) -> Response:
    """A JSON answer holding a game's view with its board drawn."""
    return await answer(live, await drawn_view(live))


# ----- pages --------------------------------------------------------------------------------------


@router.get("/new/{name}", response_class=HTMLResponse)
async def new_game_form(request: Request, name: str) -> HTMLResponse:
    game = find_game(name)
    if game is None:
        raise StarletteHTTPException(404)
    return page(request, "new.html", **form_context(game))


@router.post("/new/{name}", response_model=None)
async def new_game(request: Request, name: str, hub: HubDep, settings: SettingsDep, visitor: VisitorDep,
                   _: NotBanned) -> Response:
    game = find_game(name)
    if game is None:
        raise StarletteHTTPException(404)
    form: dict[str, str] = {}
    try:
        form = await read_form(request, settings.max_body_bytes)
        live, tokens = await hub.create(new_game_from_form(game, form), visitor)
    except (Refusal, ValueError) as exc:
        status, message = form_problem(exc)
        return page(request, "new.html", status, **form_context(game, form), message=message)
    await sit(hub.store, visitor, live.id, held_here(live, tokens))
    return RedirectResponse(f"/g/{live.id}#{seat_fragment(live, tokens)}", status_code=303)


@router.get("/g/{game_id}", response_model=None)
async def game_page(request: Request, game_id: str, hub: HubDep, settings: SettingsDep) -> Response:
    if await request.app.state.omiga.owns(game_id):
        return RedirectResponse(f"/o/{game_id}", status_code=307)  # a card table has its own page
    try:
        live = await hub.get(game_id)
    except Refusal as refusal:
        return page(request, "error.html", refusal.status, message=refusal.message)
    language = request_language(request)
    names = await asyncio.to_thread(rating_records.seat_names_for, hub.store, [live.id])
    # The board drawn once, with no stones (the same for every game on that board), and the
    # view without a drawing: the page puts the stones on the board, and then what changed.
    await draw_position(live, language)
    shown = hub.view_of(live, language)
    if large(live.state):
        setup, frame = await heavy(board_setup, live.state, language), await heavy(board_frame, live.state, language)
    else:
        setup, frame = board_setup(live.state, language), board_frame(live.state, language)
    return page(
        request,
        "game.html",
        game=shown,
        board=frame,
        options_text=options_text(shown.options, language),
        view_json=script_json(jsonable(shown)),
        setup_json=script_json(setup),
        max_seconds=settings.max_analysis_seconds,
        sgf=sgf.writes(live.state.game),
        player_names=sorted(names.get(live.id, {}).items()),  # accounts' names, linked to their profiles
    )


@router.get("/g/{game_id}/record.json", response_model=None)
async def record(request: Request, game_id: str, hub: HubDep) -> Response:
    try:
        live = await hub.get(game_id)
    except Refusal as refusal:
        return refusal_response(refusal, api_language(request))
    filename = f"ogames-{live.state.game.name}-{live.id}.json"
    return attachment(ogames.records.dumps(live.state.record()), filename, "application/json")


NO_SGF = say("no-sgf", "SGF is written for the hex-board games only: Omny, and Odd-Y on the triangle")


@router.get("/g/{game_id}/record.sgf", response_model=None)
async def record_sgf(request: Request, game_id: str, hub: HubDep) -> Response:
    """The record as SGF (`ogames.sgf`, what the terminal's `ogames sgf` writes), where SGF has a
    word for the game's board; elsewhere 404 `no-sgf`, saying which games it is for."""
    try:
        live = await hub.get(game_id)
    except Refusal as refusal:
        return refusal_response(refusal, api_language(request))
    if not sgf.writes(live.state.game):
        return error_response(NO_SGF, "no-sgf", 404, api_language(request))
    return attachment(sgf.to_sgf(live.state), f"ogames-{live.state.game.name}-{live.id}.sgf", "application/x-go-sgf")


# ----- JSON API (a refusal or an invalid body is answered by the app's handlers) --------------------


@router.post("/api/games", response_model=CreatedGame, status_code=201)
async def api_create(hub: HubDep, visitor: VisitorDep, _: NotBanned,
                     asked: Annotated[NewGame, Depends(json_body(NewGame))]) -> Response:
    live, tokens = await hub.create(asked, visitor)
    await sit(hub.store, visitor, live.id, held_here(live, tokens))
    given = {str(seat): token for seat, token in tokens.items() if live.seat_kinds[seat] != INVITED}
    invitations = {
        str(seat): Invitation(token=token, link=f"/g/{live.id}#seats={seat}.{token}")
        for seat, token in tokens.items()
        if live.seat_kinds[seat] == INVITED
    }
    made = CreatedGame(id=live.id, url=f"/g/{live.id}", tokens=given, invitations=invitations, view=await drawn_view(live))
    return await answer(live, made, 201)


@router.get("/api/open-games", response_model=None)
async def api_open_games(hub: HubDep) -> Response:
    return JSONResponse({"games": await asyncio.to_thread(hub.store.open_games)})


@router.post("/api/games/{game_id}/undo", response_model=GameView)
async def api_undo(game_id: str, hub: HubDep, asked: Annotated[UndoRequest, Depends(json_body(UndoRequest))]) -> Response:
    return await view_answer(await hub.undo(game_id, asked.token, asked.version, decline=asked.decline))


@router.post("/api/games/{game_id}/abort", response_model=GameView)
async def api_abort(game_id: str, hub: HubDep, asked: Annotated[AbortRequest, Depends(json_body(AbortRequest))]) -> Response:
    return await view_answer(await hub.abort(game_id, asked.token, asked.version))


@router.post("/api/games/{game_id}/claim", response_model=GameView)
async def api_claim(game_id: str, hub: HubDep, asked: Annotated[ClaimRequest, Depends(json_body(ClaimRequest))]) -> Response:
    return await view_answer(await hub.claim(game_id, asked.token, asked.version, asked.seat))


@router.post("/api/games/{game_id}/join", response_model=JoinedSeat, status_code=201)
async def api_join(game_id: str, hub: HubDep, visitor: VisitorDep,
                   asked: Annotated[JoinRequest, Depends(json_body(JoinRequest))]) -> Response:
    live, token = await hub.join(game_id, asked.seat)
    await sit(hub.store, visitor, live.id, [asked.seat])
    return await answer(live, JoinedSeat(seat=asked.seat, token=token, view=await drawn_view(live)), 201)


@router.get("/api/games/{game_id}", response_model=GameView)
async def api_view(game_id: str, hub: HubDep) -> Response:
    return await view_answer(await hub.get(game_id))


@router.get("/api/games/{game_id}/names", response_model=None)
async def api_names(game_id: str, hub: HubDep) -> JSONResponse:
    """The accounts' names in the game's seats ({"names": {"1": "Bob"}}), as the game's page shows
    them: a page made before someone took a seat through an invitation asks again when that seat
    comes to be held (static/game.js), so that it says "Bob", not "player 2"."""
    live = await hub.get(game_id)
    names = await asyncio.to_thread(rating_records.seat_names_for, hub.store, [live.id])
    return JSONResponse({"names": {str(seat): name for seat, name in names.get(live.id, {}).items()}})


@router.get("/api/games/{game_id}/position/{k}", response_model=PositionView)
async def api_position(request: Request, game_id: str, k: str, hub: HubDep) -> Response:
    live = await hub.get(game_id)
    state = live.state  # replaced, never changed, by each move: safe to read in a thread
    if not (k.isdigit() and len(k) <= 7 and int(k) <= state.ply):
        why = say("no-position", "there is no position {k}: positions are 0 to {last} (moves made)", k=quoted(k), last=state.ply)
        return error_response(why, "not-found", 404, api_language(request))
    return await answer(live, await asyncio.to_thread(position_view, state, int(k), api_language(request)))


@router.post("/api/games/{game_id}/moves", response_model=GameView)
async def api_move(game_id: str, hub: HubDep, asked: Annotated[MoveRequest, Depends(json_body(MoveRequest))]) -> Response:
    return await view_answer(await hub.move(game_id, asked.token, asked.version, asked.move))


@router.post("/api/games/{game_id}/resign", response_model=GameView)
async def api_resign(game_id: str, hub: HubDep, asked: Annotated[ResignRequest, Depends(json_body(ResignRequest))]) -> Response:
    return await view_answer(await hub.resign(game_id, asked.token, asked.version))


# ----- live play ------------------------------------------------------------------------------------


@router.websocket("/ws/g/{game_id}")
async def live_game(websocket: WebSocket, game_id: str, hub: HubDep, settings: SettingsDep) -> None:
    live = await open_live(websocket, hub.opened, game_id)
    if live is None:
        return
    limit = ConnectionLimit(settings.ws_rate, settings.ws_burst, settings.ws_strikes)
    handle = hub.handler(live, visitor_of(websocket), settings.max_message_bytes, parse_client, explain_client,
                         lambda message: _act(hub, live, message))
    await serve_socket(websocket, hub, live, lambda language: drawn(live, view(live, language), language), limit, handle,
                       "rate-limited")


async def _act(
    hub: Hub, live: LiveGame, message: MoveMessage | ResignMessage | UndoMessage | AbortMessage | ClaimMessage
) -> dict[str, Any] | None:
    """A page's move, resignation, undo, abort or claim: None when it was carried out (the new
    view goes to everyone), else the error for that page alone, saying why nothing changed."""
    try:
        if isinstance(message, ResignMessage):
            await hub.resign(live.id, message.token, message.version)
        elif isinstance(message, UndoMessage):
            await hub.undo(live.id, message.token, message.version, decline=message.decline)
        elif isinstance(message, AbortMessage):
            await hub.abort(live.id, message.token, message.version)
        elif isinstance(message, ClaimMessage):
            await hub.claim(live.id, message.token, message.version, message.seat)
        else:
            await hub.move(live.id, message.token, message.version, message.move)
    except Refusal as refusal:
        return refused(refusal.message, refusal.code)
    return None


def held_here(live: LiveGame, tokens: dict[int, str]) -> list[int]:
    """The seats a new game's creator holds (their tokens go to the creator's browser; invited
    seats' go to whoever the invitation is passed to)."""
    return [seat for seat in tokens if live.seat_kinds[seat] != INVITED]


def seat_fragment(live: LiveGame, tokens: dict[int, str]) -> str:
    """The fragment of the link a new game's creator is sent to: `seats=` the tokens of the seats
    played in this browser, `invites=` those of the invited seats (shown as links to pass on)."""
    here = ",".join(f"{seat}.{token}" for seat, token in tokens.items() if live.seat_kinds[seat] != INVITED)
    invited = ",".join(f"{seat}.{token}" for seat, token in tokens.items() if live.seat_kinds[seat] == INVITED)
    return "&".join(part for part in (f"seats={here}" if here else "", f"invites={invited}" if invited else "") if part)


__all__ = ["HubDep", "board_hub", "router"]
