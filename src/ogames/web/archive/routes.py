"""The pages of a player's own games and of the archive.

    GET  /games/mine      the visitor's games (a guest's or an account's): waiting for my move
                          first, with the time left, then the others going on, then those over
    GET  /archive         every finished game, searched by player, game, variant, outcome and
                          dates, a page at a time; each with its replay, analysis, JSON and SGF

Both are only read: nothing here changes anything, so neither has a form to guard. "My games" is
the visitor's own and no one else's: it takes no id, only the visitor's cookie.
"""

from __future__ import annotations

import asyncio
import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

import ogames
from ogames.web.archive.mine import GOING_ON, OVER, WAITING, my_games
from ogames.web.archive.search import Search, search
from ogames.web.boards.routes import HubDep
from ogames.web.core.deps import StoreDep, VisitorDep, page
from ogames.web.core.store import OUTCOMES

router = APIRouter()


def split_time(seconds: float) -> dict[str, int]:
    """Seconds left as whole days, hours and minutes (what the page shows)."""
    minutes = int(seconds // 60)
    return {"days": minutes // 1440, "hours": minutes // 60 % 24, "minutes": minutes % 60}


def day_of(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).strftime("%Y-%m-%d")


@router.get("/games/mine", response_class=HTMLResponse)
async def mine(request: Request, store: StoreDep, hub: HubDep, visitor: VisitorDep) -> HTMLResponse:
    found = await my_games(store, hub, visitor.id)
    titles = {game["name"]: game["title"] for game in ogames.games()}
    groups = [(state, [game for game in found if game.state == state]) for state in (WAITING, GOING_ON, OVER)]
    return page(request, "mine.html", groups=groups, titles=titles, split_time=split_time, day_of=day_of)


@router.get("/archive", response_class=HTMLResponse)
async def archive(request: Request, store: StoreDep) -> HTMLResponse:
    known = ogames.games()
    asked = Search.read(dict(request.query_params), {game["name"] for game in known})
    found = await asyncio.to_thread(search, store, asked)
    variants = sorted({variant for game in known for variant in game.get("variants", [])})
    return page(request, "archive.html", asked=asked, found=found, games=known,
                titles={game["name"]: game["title"] for game in known}, variants=variants, outcomes=OUTCOMES, day_of=day_of)


__all__ = ["router"]
