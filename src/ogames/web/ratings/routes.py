"""The rating pages (lichess's): a player's profile and the leaderboards.

    GET /@/{name}              a player: ratings per pool (provisional marked "?"), a rating graph
                               per pool, recent finished games with results, the record against
                               each computer level, and the puzzle rating with the puzzles tried
                               and solved per game (once any was tried)
    GET /leaderboard           every pool's best settled players
    GET /leaderboard/{pool}    one pool's, longer

Only accounts have profiles (a guest's name is not kept); a name is found whatever its case.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup, escape
from starlette.exceptions import HTTPException as StarletteHTTPException

from ogames.ratings import POOLS
from ogames.web.accounts import records as accounts
from ogames.web.accounts.names import MAX_LENGTH, name_key
from ogames.web.catalogue import N_, translations
from ogames.web.core.common import find_game, request_language
from ogames.web.core.deps import page
from ogames.web.core.store import Store
from ogames.web.puzzles import puzzle_record
from ogames.web.ratings import records
from ogames.web.ratings.graph import rating_graph
from ogames.web.ratings.profile import against_levels, opponents, outcome

router = APIRouter()
RECENT = 20  # games listed on a profile
PROFILE_GAMES = 500  # games read for the record against each computer level
BOARD = 50  # players on a pool's leaderboard
SHORT_BOARD = 10  # players of each pool on /leaderboard


# The pools' titles are the games' names, the same in every language, but for Omega's tables and Omiga's 2v2.
TITLES = {"omega-table": N_("pool-omega-table", "Omega, 3–4 players"), "omiga-2v2": N_("pool-omiga-2v2", "Omiga, 2v2")}
HISTORY_LABEL = N_("rating-history", "Rating history: {pool}")


def pool_title(pool: str, language: str) -> str:
    return str(translations(language).pgettext(*TITLES[pool])) if pool in TITLES else POOLS[pool].title


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


@router.get("/@/{name}", response_class=HTMLResponse)
async def profile(request: Request, name: str) -> HTMLResponse:
    store = _store(request)
    account = None if len(name) > MAX_LENGTH else await asyncio.to_thread(accounts.account_by_key, store, name_key(name))
    if account is None:
        raise StarletteHTTPException(404)
    language = request_language(request)
    held = await asyncio.to_thread(records.ratings_of, store, account.id)
    pools = []
    for pool in POOLS.values():  # in the pools' own order
        if pool.name not in held:
            continue
        points = await asyncio.to_thread(records.history, store, account.id, pool.name)
        title = pool_title(pool.name, language)
        label = escape(str(translations(language).pgettext(*HISTORY_LABEL)).format(pool=title))
        pools.append({"name": pool.name, "title": title, "rating": held[pool.name],
                      "graph": Markup(rating_graph(points, str(label)))})
    finished = await asyncio.to_thread(accounts.games_of, store, account.id, PROFILE_GAMES, True)
    recent = finished[:RECENT]
    names = await asyncio.to_thread(records.seat_names_for, store, [game["id"] for game in recent])
    games: list[dict[str, Any]] = [
        {**game, "title": (find_game(game["game"]) or {}).get("title", game["game"]),
         "day": time.strftime("%Y-%m-%d", time.gmtime(game["updated_at"])),
         "outcome": outcome(game["head"], game["seats"]), "opponents": opponents(game, names.get(game["id"], {}))}
        for game in recent
    ]
    puzzles = await puzzle_record(request, store, account.id)
    return page(request, "profile.html", player=account.name, pools=pools, games=games, levels=against_levels(finished),
                puzzles=puzzles if puzzles["tried"] else None)


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboards(request: Request) -> HTMLResponse:
    return page(request, "leaderboard.html", boards=await _boards(request, list(POOLS), SHORT_BOARD), one=False)


@router.get("/leaderboard/{pool}", response_class=HTMLResponse)
async def leaderboard(request: Request, pool: str) -> HTMLResponse:
    if pool not in POOLS:
        raise StarletteHTTPException(404)
    return page(request, "leaderboard.html", boards=await _boards(request, [pool], BOARD), one=True)


async def _boards(request: Request, pools: list[str], limit: int) -> list[dict[str, Any]]:
    store, language = _store(request), request_language(request)
    boards = []
    for pool in pools:
        standings = await asyncio.to_thread(records.leaderboard, store, pool, limit)
        names = await asyncio.to_thread(records.names_of, store, [standing.player_id for standing in standings])
        boards.append({"name": pool, "title": pool_title(pool, language),
                       "rows": [{"name": names[s.player_id], "rating": s.rating} for s in standings if s.player_id in names]})
    return boards


__all__ = ["router"]
