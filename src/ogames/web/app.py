"""The web server, made by `create_app(settings)`: the lifespan that opens the store and starts
the hubs, the guard in front of every route, the answers to refusals and faults, and the routers of
the site and of both faces:

    site.py              /, /rules/…, /favicon.ico
    boards/routes.py     the board games: /new/{game}, /g/{id}, /api/games…, /ws/g/{id}
    boards/review.py     replays and analysis: /replay…, /g/{id}/replay, /api/…/analysis
    omiga/routes.py      Omiga's card tables: /new/omiga, /o/{id}, /api/omiga…, /ws/o/{id}
    accounts/routes.py   guests and accounts: /signup, /login, /logout, /account…
    archive/routes.py    a player's own games (/games/mine) and the archive of finished games (/archive)
    explore/routes.py    the opening explorer (/explore, /api/explore)
    chat/routes.py       each game's chat, reports, the operators' pages: /api/games/{id}/chat, /ws/chat/{id}, /operator…
    lobby/routes.py      the lobby: /lobby, /ws/lobby

Pages are rendered on the server (Jinja2) with a little plain JavaScript; the rules engine decides
every move. This module stands above both faces (it is the one place that knows them both); what
they share is in `web/core/`.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from ogames.web import site
from ogames.web.accounts import records as account_records
from ogames.web.accounts import routes as accounts
from ogames.web.accounts.guessing import Guessing
from ogames.web.accounts.identity import Identity
from ogames.web.accounts.passwords import decoy_hash
from ogames.web.archive import routes as archive
from ogames.web.boards import game_review_route, learner_hints_route, review
from ogames.web.boards import routes as boards
from ogames.web.boards.analysis import AnalysisDesk
from ogames.web.boards.hub import Hub
from ogames.web.boards.sweeper import Sweeper
from ogames.web.chat import routes as chat_routes
from ogames.web.chat.live import Chat
from ogames.web.core.bus import RedisBus, make_bus
from ogames.web.core.collector import Collector
from ogames.web.core.common import Refusal, api_language, error_response, refusal_response
from ogames.web.core.deps import WEB, page
from ogames.web.core.guard import Guard
from ogames.web.core.presence import Presence, RedisPresence
from ogames.web.core.protocol import explain
from ogames.web.core.settings import SUPERVISED_ENV, Settings
from ogames.web.core.socket_cap import SocketCap
from ogames.web.core.store import Store
from ogames.web.core.store_faults import StorageError
from ogames.web.core.warm import warm_rules
from ogames.web.core.workers import move_pool, watch_parent
from ogames.web.explore import routes as explore
from ogames.web.limits import ClientLimits, storage_for
from ogames.web.lobby import rematch
from ogames.web.lobby import routes as lobby_routes
from ogames.web.lobby.lobby import Lobby
from ogames.web.notify import routes as notify
from ogames.web.notify.links import Links
from ogames.web.notify.mailer import Mailer
from ogames.web.notify.notifier import Notifier
from ogames.web.notify.push import Pusher, vapid_private_key
from ogames.web.omiga import routes as omiga
from ogames.web.omiga.live import OmigaHub
from ogames.web.omiga.relay import OmigaRelay
from ogames.web.puzzles import routes as puzzles
from ogames.web.ratings import routes as ratings_routes
from ogames.wording import say

log = logging.getLogger("ogames.web")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web application; its database is migrated to the newest schema when it starts."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if os.environ.get(SUPERVISED_ENV):
            watch_parent(os.getppid())  # one of several server processes: it ends with their supervisor
        store = await asyncio.to_thread(
            Store, settings.database_url, settings.database_busy_seconds, shared=settings.sqlite_shared
        )
        # The key signing sessions and CSRF tokens: the setting's, else the one the database keeps
        # (the same for every process on it); the log-in's decoy hash made before the first log-in.
        app.state.secret_key = settings.secret_key or await asyncio.to_thread(account_records.site_secret, store, "session")
        await asyncio.to_thread(decoy_hash)
        if settings.warm_rules:
            await asyncio.to_thread(warm_rules)
        # What was loaded so far (the libraries, the rules' kernels) lives as long as the server: the
        # garbage collector need not look at it again. Its full collections, which stop every thread
        # and so the event loop, then take a fraction of the time.
        gc.freeze()
        collector = Collector(settings.gc_unfreeze_seconds)  # and what survives a full collection later
        if settings.gc_unfreeze_seconds:
            collector.start()
        bus = make_bus(settings.redis_url, settings.bus_lease_seconds)  # other server processes, if any
        # Several processes: who is at a game is shared (web/core/presence.py), and Omiga's tables are
        # refereed by one process each and relayed by the others (web/omiga/relay.py).
        presence = RedisPresence(bus.redis, bus.worker, bus.lease_seconds) if isinstance(bus, RedisBus) else Presence()
        hub = Hub(store, settings, bus, presence)
        rematch.attach(hub)  # a finished game loaded here is shown with its rematch's offers (web/lobby/rematch.py)
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
        # Mails (web/notify/): sent on the side by this process, each notice claimed once in the database.
        mailer = Mailer(settings)
        app.state.mailer, app.state.links = mailer, Links(app.state.secret_key)
        app.state.pusher = Pusher(store, await asyncio.to_thread(vapid_private_key, store), f"mailto:{settings.smtp_from}")
        notifier = Notifier(store, settings, mailer, app.state.links, app.state.pusher)
        hub.recorder.committed.append(notifier.committed)
        mailer.start()
        # Each game's chat, heard by the other processes through the same Redis (web/chat/live.py).
        chat = Chat(bus.redis, bus.worker) if isinstance(bus, RedisBus) else Chat()
        await chat.start()
        app.state.chat = chat
        # Seeks, on this process's lobby pages and the others' (web/lobby/); what a visitor may post
        # is counted across the processes, as chat messages are.
        lobby = Lobby(hub, bus, ClientLimits(settings.seek_rate, settings.seek_burst, storage_for(settings.redis_url), "seek"))
        await lobby.start()
        app.state.lobby = lobby
        sweeper = Sweeper(hub)  # correspondence games whose player ran out of days, now and every sweep_seconds
        sweeper.start()
        try:
            yield
        finally:
            await collector.close()
            await sweeper.close()
            await notifier.close()
            app.state.pusher.close()
            await mailer.close()
            await chat.close()
            await lobby.close()
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
    app.include_router(omiga.router)  # first, so that /new/omiga is Omiga's own form
    app.include_router(site.router)
    app.include_router(boards.router)
    app.include_router(review.router)
    app.include_router(learner_hints_route.router)
    app.include_router(game_review_route.router)
    app.include_router(accounts.router)
    app.include_router(ratings_routes.router)
    app.include_router(archive.router)
    app.include_router(explore.router)
    app.include_router(puzzles.router)
    app.include_router(notify.router)
    app.include_router(chat_routes.router)
    app.include_router(lobby_routes.router)
    app.include_router(rematch.router)
    app.mount("/static", StaticFiles(directory=str(WEB / "static")), name="static")
    # Body limits while reading, the API's rate limit, security headers (web/core/guard.py).
    # (counted in Redis when several processes share one, so that a client's limit holds across them)
    limits_storage = storage_for(settings.redis_url)
    api_limits = ClientLimits(settings.api_rate, settings.api_burst, limits_storage, "api")
    page_limits = ClientLimits(settings.page_rate, settings.page_burst, limits_storage, "pages")
    # What one visitor may say: chat messages and reports (counted per visitor, across processes).
    app.state.chat_limits = ClientLimits(settings.chat_rate, settings.chat_burst, limits_storage, "chat")
    app.state.report_limits = ClientLimits(1 / 60, 3, limits_storage, "report")
    # Verification mails, per account and per address mailed (web/notify/routes.py).
    app.state.verify_limits = ClientLimits(notify.VERIFY_MAILS / notify.VERIFY_WINDOW, notify.VERIFY_MAILS, limits_storage,
                                           "verify-mail")
    app.state.guessing = Guessing(settings, limits_storage)  # the log-in's guard (web/accounts/guessing.py)
    # Who asks, CSRF, WebSocket origins (web/accounts/identity.py), inside the Guard: a body is
    # read for a form's token only within its limit.
    app.add_middleware(Identity, settings=settings)
    app.add_middleware(Guard, settings=settings, api_limits=api_limits, page_limits=page_limits)
    # The open sockets one address may hold (web/core/socket_cap.py): outermost, so that a refused
    # handshake costs nothing else.
    app.add_middleware(SocketCap, per_client=settings.sockets_per_client)
    answer_errors(app)
    return app


def answer_errors(app: FastAPI) -> None:
    """How every route's refusals and faults are answered, declared once: the JSON API (paths under
    /api/) with `{error, code}` in the language the page asked for, a page with the error page."""

    @app.exception_handler(Refusal)
    async def refusal(request: Request, exc: Refusal) -> Response:
        if request.url.path.startswith("/api/"):
            return refusal_response(exc, api_language(request))
        return page(request, "error.html", exc.status, message=exc.message)

    @app.exception_handler(ValidationError)
    async def invalid(request: Request, exc: ValidationError) -> Response:
        # A body that is not the protocol's (pydantic's sentence, as `explain` words it).
        return error_response(explain(exc), "invalid", 422, api_language(request))

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


__all__ = ["create_app"]
