"""The site's own pages, above both faces: the home page's lists and pictures, the rules pages and
the icon.

    GET  /                          the games (picture, rules in short), the puzzle of the day, open
                                    games, games being played, finished games
    GET  /rules/{game}              a game's full rules (docs/rules, shipped with the package)
    GET  /rules/images/{name}       a picture the rules show
    GET  /favicon.ico               the site's icon
    GET  /api/health                whether this process can reach its database (and Redis), for
                                    a proxy's or a monitor's checks (docs/deploy.md)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

import ogames
from ogames.draw import board_svg
from ogames.teach.puzzles import position_of
from ogames.teach.puzzles.judge import side_colour
from ogames.web import rulebook
from ogames.web.boards.live import BROWSER_GAMES
from ogames.web.boards.pictures import sample_svg
from ogames.web.core.bus import RedisBus
from ogames.web.core.common import request_language
from ogames.web.core.deps import WEB, StoreDep, page
from ogames.web.messages import speaker
from ogames.web.puzzles import daily_puzzle

# Games played in the browser: the board games, and Omiga on its own table pages (omiga/routes.py).
PLAYABLE = (*BROWSER_GAMES, "omiga")

router = APIRouter()


def daily_view(request: Request) -> dict[str, Any] | None:
    """The puzzle of the day as the home page links to it (None without puzzles; blocking)."""
    puzzle = daily_puzzle(request)
    if puzzle is None:
        return None
    state = position_of(puzzle)
    svg = board_svg(state, coordinates=False, last_move=False, speak=speaker(request_language(request)))
    return {"id": puzzle.id, "title": state.game.title, "to_play": side_colour(state), "svg": svg}


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, store: StoreDep) -> HTMLResponse:
    open_games, playing, finished = await asyncio.to_thread(
        lambda: (store.open_games(), store.recent_games(8, ("playing",)), store.finished_games())
    )
    games = ogames.games()
    language = request_language(request)
    pictures = await asyncio.to_thread(lambda: {game["name"]: sample_svg(game["name"], language) for game in games})
    return page(
        request,
        "home.html",
        games=games,
        pictures=pictures,
        open_games=open_games,
        playing=playing,
        finished=finished,
        titles={game["name"]: game["title"] for game in games},
        browser_games=PLAYABLE,
        daily=await asyncio.to_thread(daily_view, request),
    )


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules(request: Request, game: str) -> HTMLResponse:
    if game not in rulebook.GAMES:
        raise StarletteHTTPException(404)
    # the page in the reader's language if it is translated, else in English (with a note)
    language = request_language(request)
    text_language = language if rulebook.translated(game, language) else rulebook.ENGLISH
    body = await asyncio.to_thread(rulebook.html, game, text_language)
    picture = await asyncio.to_thread(sample_svg, game, language)
    titles = {name: ogames.load(name).title for name in rulebook.GAMES}
    return page(request, "rules.html", game=game, title=rulebook.title(game, text_language), body=body,
                picture=picture, text_language=text_language, playable=game in PLAYABLE, games=rulebook.GAMES, titles=titles)


@router.get("/rules/images/{name}", response_model=None)
async def rules_picture(name: str) -> Response:
    found = rulebook.picture(name)
    if found is None:
        raise StarletteHTTPException(404)
    data, media = found
    return Response(data, media_type=media, headers={"Cache-Control": "public, max-age=86400"})


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """The site's icon where browsers look for it without a page's link (it is an SVG)."""
    icon = WEB / "static" / "favicon.svg"
    return FileResponse(icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


__all__ = ["PLAYABLE", "router"]


HEALTH_TIMEOUT = 2.0  # seconds a health check waits for the database or Redis before it says "down"


@router.get("/api/health")
async def health(request: Request, store: StoreDep) -> JSONResponse:
    """200 when this process can read its database and reach its Redis (if it has one), else 503;
    either way which of them failed, and how many games it holds live. No game's data is shown."""

    async def answers(check: Awaitable[object]) -> str:
        try:
            await asyncio.wait_for(check, HEALTH_TIMEOUT)
        except Exception:  # any fault of the service is the answer "down", never a trace
            return "down"
        return "ok"

    database = await answers(asyncio.to_thread(store.version_of, "-"))
    bus = request.app.state.hub.bus
    redis = await answers(bus.redis.ping()) if isinstance(bus, RedisBus) else "off"
    healthy = database == "ok" and redis != "down"
    held = {"games": len(request.app.state.hub.live), "tables": len(request.app.state.omiga.tables)}
    return JSONResponse({"status": "ok" if healthy else "down", "database": database, "redis": redis, "live": held},
                        status_code=200 if healthy else 503)
