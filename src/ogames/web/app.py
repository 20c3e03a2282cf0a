"""The web server: pages, a small JSON API and a WebSocket per game, made by `create_app(settings)`.

Pages are rendered on the server (Jinja2) with a little plain JavaScript; the rules engine decides
every move. Routes:

    GET  /                      the games, open, running and finished games (web/boards/pages.py, with
                                the rules pages, the replay page and the analysis)
    GET  /new/{game}            a new-game form made from the game's options;  POST creates the game
    GET  /g/{id}                a game: board, turn, moves, result (anyone with the link may watch)
    GET  /g/{id}/record.json    the game's record, to download
    WS   /ws/g/{id}             the live game: views out, moves and resignations in
    POST /api/games             create a game (JSON) → id, link and the seats' tokens
    GET  /api/games/{id}        the game's view (JSON)
    GET  /api/games/{id}/position/{k}  the position after k moves (read-only: board, turn, result)
    POST /api/games/{id}/moves  a move {move, token, version};  POST /api/games/{id}/resign {token, version}
    POST /api/games/{id}/undo   take back {token, version};  POST /api/games/{id}/join {seat} → a new token
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
import functools
import gc
import json
import logging
import os
from collections.abc import MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

import ogames
from ogames.errors import shown as quoted
from ogames.web import i18n
from ogames.web.boards.analysis import AnalysisDesk
from ogames.web.boards.board import board_frame, board_setup, position_view
from ogames.web.boards.hub import BROWSER_GAMES, INVITED, Hub, LiveGame, Refusal, draw_position, drawn, large, view
from ogames.web.boards.pages import register as register_pages
from ogames.web.core.bus import RedisBus, make_bus
from ogames.web.core.common import (
    answers_errors,
    api_language,
    error_response,
    find_game,
    form_fields,
    form_options,
    heavy,
    open_live,
    options_text,
    read_message,
    refused,
    render_page,
    request_language,
    script_json,
    serve_socket,
)
from ogames.web.core.guard import Guard
from ogames.web.core.presence import Presence, RedisPresence
from ogames.web.core.protocol import (
    DEFAULT_LEVEL,
    LEVEL_RANGE,
    HereMessage,
    JoinRequest,
    MoveRequest,
    NewGame,
    PingMessage,
    ResignMessage,
    ResignRequest,
    UndoMessage,
    UndoRequest,
    explain,
    level_of,
    parse_client,
)
from ogames.web.core.settings import SUPERVISED_ENV, Settings
from ogames.web.core.store import Store
from ogames.web.core.store_faults import StorageError
from ogames.web.core.warm import warm_rules
from ogames.web.core.workers import move_pool, watch_parent
from ogames.web.limits import ClientLimits, ConnectionLimit, storage_for
from ogames.web.omiga.live import OmigaHub
from ogames.web.omiga.relay import OmigaRelay
from ogames.web.omiga.routes import router as omiga_router
from ogames.wording import Said, say

log = logging.getLogger("ogames.web")
HERE = Path(__file__).parent
def create_app(settings: Settings | None = None) -> FastAPI:
    """The web application; its database is migrated to the newest schema when it starts."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if os.environ.get(SUPERVISED_ENV):
            watch_parent(os.getppid())  # one of several server processes: it ends with their supervisor
        store = await asyncio.to_thread(
            Store, settings.database_url, settings.database_busy_seconds, shared=settings.sqlite_shared
        )
        if settings.warm_rules:
            await asyncio.to_thread(warm_rules)
        # What was loaded so far (the libraries, the rules' kernels) lives as long as the server: the
        # garbage collector need not look at it again. Its full collections, which stop every thread
        # and so the event loop, then take a fraction of the time.
        gc.freeze()
        bus = make_bus(settings.redis_url, settings.bus_lease_seconds)  # other server processes, if any
        # Several processes: who is at a game is shared (web/core/presence.py), and Omiga's tables are
        # refereed by one process each and relayed by the others (web/omiga/relay.py).
        presence = RedisPresence(bus.redis, bus.worker, bus.lease_seconds) if isinstance(bus, RedisBus) else Presence()
        hub = Hub(store, settings, bus, presence)
        app.state.analyses = AnalysisDesk.for_settings(settings)  # analyses' own workers, quotas
        await bus.start(hub.heard, hub.resync)
        app.state.store = store
        app.state.hub = hub
        relay = OmigaRelay(bus) if isinstance(bus, RedisBus) else None
        bots = move_pool(settings, "bot")  # never behind a board game's search (web/core/workers.py)
        omiga = OmigaHub(store, bots, settings.omiga_countdown, settings.max_live_games, relay, presence)
        app.state.omiga = omiga

        async def presence_changed(game_id: str) -> None:  # a game of either hub (ids are unique)
            await hub.presence_changed(game_id)
            await omiga.presence_changed(game_id)

        await presence.start(presence_changed)
        if relay is not None:
            await relay.start(omiga)
        try:
            yield
        finally:
            await omiga.close()
            bots.shutdown(wait=False, cancel_futures=True)
            if relay is not None:
                await relay.close()
            await presence.close()
            await bus.close()
            await hub.close()
            await app.state.analyses.close()
            store.close()

    app = FastAPI(title="ogames", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = settings
    app.include_router(omiga_router)  # first, so that /new/omiga is Omiga's own form
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    # (counted in Redis when several processes share one, so that a client's limit holds across them)
    api_limits = ClientLimits(settings.api_rate, settings.api_burst, storage_for(settings.redis_url), "api")
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    # Body limits while reading, the API's rate limit, security headers (web/core/guard.py).
    app.add_middleware(Guard, settings=settings, api_limits=api_limits)

    def hub_of(request: Request | WebSocket) -> Hub:
        return request.app.state.hub

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return render_page(templates, request, name, status, **context)

    async def drawn_view(live: LiveGame, language: str = i18n.DEFAULT) -> dict[str, Any]:
        """A game's view with its board drawn (a large board's facts made off the event loop first)."""
        await draw_position(live.state, language)
        shown = view(live, language)
        if not large(live.state):
            return drawn(live, shown, language)
        return await heavy(drawn, live, shown, language)

    async def view_answer(live: LiveGame, extra: dict[str, Any] | None = None, status: int = 200) -> Response:
        """A JSON answer holding a game's view (in `extra`'s "view" if given, else alone); a large
        board's (megabytes of SVG) is written off the event loop."""
        shown = await drawn_view(live)
        content = shown if extra is None else {**extra, "view": shown}
        if not large(live.state):
            return JSONResponse(content, status_code=status)
        text = await heavy(functools.partial(json.dumps, ensure_ascii=False, allow_nan=False, separators=(",", ":")), content)
        return Response(text, status_code=status, media_type="application/json")

    async def body_of(request: Request) -> bytes:
        body = await request.body()
        if len(body) > settings.max_body_bytes:
            raise Refusal(too_large(settings.max_body_bytes), "too-large", 413)
        return body

    # ----- pages ----------------------------------------------------------------------------

    @app.exception_handler(StarletteHTTPException)
    async def not_found(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            return error_response(str(exc.detail), "not-found" if exc.status_code == 404 else "http", exc.status_code,
                                  api_language(request))
        return page(request, "error.html", exc.status_code, message=None)

    @app.exception_handler(StorageError)
    async def storage_fault(request: Request, exc: StorageError) -> Response:
        # A read the database could not serve (the hubs answer their own writes): 503, one line logged.
        log.warning("%s %s: %s", request.method, request.url.path, exc)
        message = say("cannot-show", "this cannot be shown just now: {reason}", reason=exc.args[0] if exc.args else "")
        if request.url.path.startswith("/api/"):
            return error_response(message, "storage", 503, api_language(request))
        return page(request, "error.html", 503, message=message)

    register_pages(app, page)  # home, rules, replay and analysis (web/boards/pages.py)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        """The site's icon where browsers look for it without a page's link (it is an SVG)."""
        icon = HERE / "static" / "favicon.svg"
        return FileResponse(icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @app.get("/new/{name}", response_class=HTMLResponse)
    async def new_game_form(request: Request, name: str) -> HTMLResponse:
        game = find_game(name)
        if game is None:
            raise StarletteHTTPException(404)
        return page(request, "new.html", **form_context(game))

    @app.post("/new/{name}", response_model=None)
    async def new_game(request: Request, name: str) -> Response:
        game = find_game(name)
        if game is None:
            raise StarletteHTTPException(404)
        form: dict[str, str] = {}
        try:
            form = dict(parse_qsl((await body_of(request)).decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=60))
            live, tokens = await hub_of(request).create(new_game_from_form(game, form))
        except Refusal as refusal:
            return page(request, "new.html", refusal.status, **form_context(game, form), message=refusal.message)
        except ValidationError as exc:
            return page(request, "new.html", 400, **form_context(game, form), message=explain(exc))
        except ValueError as exc:  # a malformed form (too many fields, a seat that is not a number)
            message = exc.args[0] if exc.args and isinstance(exc.args[0], Said) else str(exc)[:200]
            return page(request, "new.html", 400, **form_context(game, form), message=message)
        return RedirectResponse(f"/g/{live.id}#{seat_fragment(live, tokens)}", status_code=303)

    @app.get("/g/{game_id}", response_model=None)
    async def game_page(request: Request, game_id: str) -> Response:
        if await request.app.state.omiga.owns(game_id):
            return RedirectResponse(f"/o/{game_id}", status_code=307)  # a card table has its own page
        try:
            live = await hub_of(request).get(game_id)
        except Refusal as refusal:
            return page(request, "error.html", refusal.status, message=refusal.message)
        language = request_language(request)
        # The board drawn once, with no stones (the same for every game on that board), and the
        # view without a drawing: the page puts the stones on the board, and then what changed.
        hub = hub_of(request)
        await draw_position(live.state, language)
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
            options_text=options_text(shown["options"], language),
            view_json=script_json(shown),
            setup_json=script_json(setup),
            max_seconds=settings.max_analysis_seconds,
        )

    @app.get("/g/{game_id}/record.json", response_model=None)
    async def record(request: Request, game_id: str) -> Response:
        try:
            live = await hub_of(request).get(game_id)
        except Refusal as refusal:
            return error_response(refusal.message, refusal.code, refusal.status, api_language(request))
        text = ogames.records.dumps(live.state.record())
        filename = f"ogames-{live.state.game.name}-{live.id}.json"
        disposition = {"Content-Disposition": f'attachment; filename="{filename}"'}
        return Response(text, media_type="application/json", headers=disposition)

    # ----- JSON API ---------------------------------------------------------------------------

    @app.post("/api/games", response_model=None)
    @answers_errors
    async def api_create(request: Request) -> Response:
        request_model = NewGame.model_validate_json(await body_of(request))
        live, tokens = await hub_of(request).create(request_model)
        given = {str(seat): token for seat, token in tokens.items() if live.seat_kinds[seat] != INVITED}
        invitations = {
            str(seat): {"token": token, "link": f"/g/{live.id}#seats={seat}.{token}"}
            for seat, token in tokens.items()
            if live.seat_kinds[seat] == INVITED
        }
        return await view_answer(live, {"id": live.id, "url": f"/g/{live.id}", "tokens": given, "invitations": invitations}, 201)

    @app.get("/api/open-games", response_model=None)
    async def api_open_games(request: Request) -> Response:
        return JSONResponse({"games": await asyncio.to_thread(hub_of(request).store.open_games)})

    @app.post("/api/games/{game_id}/undo", response_model=None)
    @answers_errors
    async def api_undo(request: Request, game_id: str) -> Response:
        message = UndoRequest.model_validate_json(await body_of(request))
        live = await hub_of(request).undo(game_id, message.token, message.version, decline=message.decline)
        return await view_answer(live)

    @app.post("/api/games/{game_id}/join", response_model=None)
    @answers_errors
    async def api_join(request: Request, game_id: str) -> Response:
        message = JoinRequest.model_validate_json(await body_of(request))
        live, token = await hub_of(request).join(game_id, message.seat)
        return await view_answer(live, {"seat": message.seat, "token": token}, 201)

    @app.get("/api/games/{game_id}", response_model=None)
    @answers_errors
    async def api_view(request: Request, game_id: str) -> Response:
        return await view_answer(await hub_of(request).get(game_id))

    @app.get("/api/games/{game_id}/position/{k}", response_model=None)
    @answers_errors
    async def api_position(request: Request, game_id: str, k: str) -> Response:
        live = await hub_of(request).get(game_id)
        state = live.state  # replaced, never changed, by each move: safe to read in a thread
        if not (k.isdigit() and len(k) <= 7 and int(k) <= state.ply):
            why = say("no-position",
                      "there is no position {k}: positions are 0 to {last} (moves made)", k=quoted(k), last=state.ply)
            return error_response(why, "not-found", 404, api_language(request))
        return JSONResponse(await asyncio.to_thread(position_view, state, int(k), api_language(request)))

    @app.post("/api/games/{game_id}/moves", response_model=None)
    @answers_errors
    async def api_move(request: Request, game_id: str) -> Response:
        message = MoveRequest.model_validate_json(await body_of(request))
        live = await hub_of(request).move(game_id, message.token, message.version, message.move)
        return await view_answer(live)

    @app.post("/api/games/{game_id}/resign", response_model=None)
    @answers_errors
    async def api_resign(request: Request, game_id: str) -> Response:
        message = ResignRequest.model_validate_json(await body_of(request))
        live = await hub_of(request).resign(game_id, message.token, message.version)
        return await view_answer(live)

    # ----- live play -------------------------------------------------------------------------

    @app.websocket("/ws/g/{game_id}")
    async def live_game(websocket: WebSocket, game_id: str) -> None:
        hub = hub_of(websocket)
        live = await open_live(websocket, hub.opened, game_id)
        if live is None:
            return
        limit = ConnectionLimit(settings.ws_rate, settings.ws_burst, settings.ws_strikes)

        async def handle(page: int, incoming: MutableMapping[str, Any]) -> dict[str, Any] | None:
            return await _handle(hub, live, page, incoming, settings.max_message_bytes)

        await serve_socket(websocket, hub, live, lambda language: drawn(live, view(live, language), language), limit, handle,
                           "rate-limited")

    return app


async def _handle(hub: Hub, live: LiveGame, page: int, incoming: MutableMapping[str, Any], limit: int) -> dict[str, Any] | None:
    """One message from a page: None when it was carried out (the new view goes to everyone),
    else the answer for that page alone (an error saying why nothing changed, or a pong)."""
    message, problem = read_message(incoming, limit, parse_client, explain)
    if problem is not None:
        return problem
    if isinstance(message, PingMessage):
        return {"type": "pong"}
    if isinstance(message, HereMessage):
        await hub.here(live, page, list(message.tokens))
        return None
    try:
        if isinstance(message, ResignMessage):
            await hub.resign(live.id, message.token, message.version)
        elif isinstance(message, UndoMessage):
            await hub.undo(live.id, message.token, message.version, decline=message.decline)
        else:
            await hub.move(live.id, message.token, message.version, message.move)
    except Refusal as refusal:
        return refused(refusal.message, refusal.code)
    return None


def too_large(limit: int) -> str:
    """A request body over the limit."""
    return say("too-large", "the request is too large (at most {limit} bytes)", limit=limit)


def seat_fragment(live: LiveGame, tokens: dict[int, str]) -> str:
    """The fragment of the link a new game's creator is sent to: `seats=` the tokens of the seats
    played in this browser, `invites=` those of the invited seats (shown as links to pass on)."""
    here = ",".join(f"{seat}.{token}" for seat, token in tokens.items() if live.seat_kinds[seat] != INVITED)
    invited = ",".join(f"{seat}.{token}" for seat, token in tokens.items() if live.seat_kinds[seat] == INVITED)
    return "&".join(part for part in (f"seats={here}" if here else "", f"invites={invited}" if invited else "") if part)


# ----- games and their forms ------------------------------------------------------------------


def form_context(game: dict[str, Any], form: dict[str, str] | None = None) -> dict[str, Any]:
    """What the new-game template needs: the game, its fields, the values to show, the computer's
    levels 1–10 (the one chosen: the form's, an old name read as its level, else the default)."""
    return {
        "game": game,
        "fields": form_fields(game),
        "values": form or {},
        "playable": game["name"] in BROWSER_GAMES,
        "levels": list(LEVEL_RANGE),
        "chosen_level": chosen_level((form or {}).get("level")),
        "seat_count": _seat_count(game["name"]),
        "max_seats": _max_seats(game),
        "people_choices": ("here", "invite", "open"),
    }


def chosen_level(value: str | None) -> int:
    """The level a form chose (an old name read as its level), else the default one."""
    try:
        return level_of(value)
    except ValueError:
        return DEFAULT_LEVEL


def _max_seats(game: dict[str, Any]) -> int:
    """The most seats the game can have (Omega's `players` option goes to 4)."""
    players = next((option for option in game["options"] if option["name"] == "players"), None)
    return int(players["maximum"]) if players and players.get("maximum") else _seat_count(game["name"])


def _seat_count(name: str) -> int:
    try:
        return ogames.load(name).seat_count
    except Exception:
        return 2


def new_game_from_form(game: dict[str, Any], form: dict[str, str]) -> NewGame:
    """The NewGame a submitted form asks for: options left empty (or not for the chosen variant)
    keep their defaults; ValidationError or ValueError if the form is malformed."""
    options: dict[str, Any] = dict(form_options(game, form))
    mode = form.get("mode", "hotseat")
    seat = form.get("seat", "1")
    if not seat.isdigit() or len(seat) > 2:
        raise ValueError(say("seat-by-number", "choose your seat by its number"))
    request: dict[str, Any] = {"game": game["name"], "options": options, "level": form.get("level", str(DEFAULT_LEVEL))}
    if mode == "seats":  # who sits in each seat, one choice per seat (`who_1`, `who_2`, …)
        request["seats"] = seat_choices_from_form(game["name"], options, form)
    else:
        request.update(mode=mode, seat=int(seat) - 1)
    minutes = form.get("clock_minutes", "").strip()
    if minutes not in ("", "0"):
        request["clock"] = {"minutes": minutes, "increment": form.get("clock_increment", "").strip() or "0"}
    return NewGame.model_validate(request)


def seat_choices_from_form(name: str, options: dict[str, Any], form: dict[str, str]) -> list[str]:
    """The `who_N` choices of a form, as many as the game with these options has seats (a page
    without its script sends every seat's choice; the ones past the game's seats are left out)."""
    choices = [form[f"who_{n}"] for n in range(1, 7) if f"who_{n}" in form]
    try:
        seats = ogames.load(name, **options).seat_count
    except Exception:  # bad options: the hub says why when it loads the game
        return choices
    return choices[:seats]
