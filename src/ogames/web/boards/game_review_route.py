"""The computer's review of a finished board game on the site (the work: web/boards/game_review.py):

    GET  /api/games/{id}/review   {"status": "none" | "pending" | "ready" | "failed", …}: while pending,
                                  how far it has come once begun ("done" positions of "total"); when ready,
                                  the graph (SVG) and each move's mark, better move and line
                                  (web/boards/review_graph.py); a game against the computer has its
                                  review asked for by this too, if it was not yet
    POST /api/games/{id}/review   ask for the review (202 pending; once asked, the review as it is)
    GET  /g/{id}/review           the replay page, where the review is shown beside the board

Both refuse a game that is not over with a result (409 `not-over`): nothing is asked for then.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ogames.web.boards import review_records as records
from ogames.web.boards.game_review import automatic, reviewable
from ogames.web.boards.live import LiveGame
from ogames.web.boards.review import stored_replay
from ogames.web.boards.review_graph import review_view
from ogames.web.boards.routes import HubDep
from ogames.web.core.common import Refusal, api_language
from ogames.web.core.deps import SettingsDep
from ogames.wording import say

router = APIRouter()


def check_reviewable(live: LiveGame) -> None:
    """Refusal unless the game may be reviewed (over, with a result)."""
    if not reviewable(live):
        raise Refusal(say("review-not-over", "the computer reviews a game once it is over with a result"), "not-over", 409)


async def shown(live: LiveGame, row: records.StoredReview | None, language: str) -> dict[str, Any]:
    """A game's review as the page is sent it."""
    if row is None:
        return {"status": "none", "automatic": automatic(live)}
    if row.status == records.READY and row.review is not None:
        return {"status": "ready", **await asyncio.to_thread(review_view, row.review, language)}
    if row.status == records.FAILED:
        return {"status": "failed", "problem": row.problem or ""}
    if row.done is not None and row.total:
        return {"status": "pending", "done": row.done, "total": row.total}
    return {"status": "pending"}


@router.get("/api/games/{game_id}/review", response_model=None)
async def api_review(request: Request, game_id: str, hub: HubDep) -> Response:
    live = await hub.get(game_id)
    check_reviewable(live)
    row = await hub.reviews.status(live.id)
    if row is None and automatic(live):  # ended before reviews were made, or while no process held it
        row = await hub.reviews.ask(live.id)
    return JSONResponse(await shown(live, row, api_language(request)))


@router.post("/api/games/{game_id}/review", response_model=None)
async def api_ask_review(request: Request, game_id: str, hub: HubDep) -> Response:
    live = await hub.get(game_id)
    check_reviewable(live)
    row = await hub.reviews.ask(live.id)
    answer = await shown(live, row, api_language(request))
    return JSONResponse(answer, status_code=202 if answer["status"] == "pending" else 200)


@router.get("/g/{game_id}/review", response_class=HTMLResponse)
async def review_page(request: Request, game_id: str, hub: HubDep, settings: SettingsDep) -> HTMLResponse:
    return await stored_replay(request, game_id, hub, settings)


__all__ = ["router"]
