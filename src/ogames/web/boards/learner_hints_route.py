"""The route of a learner's hint (the rules: web/boards/learner_hints.py):

    POST /api/games/{id}/hint   {token, version} → the best move, its cells and the board with it
                                marked (`replaying.analysis_view`), and the game's hints {used, left, limit}

Its search runs on the analysis desk (its workers, the asker's quota), never in the move workers.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from ogames.web.boards import ai, replaying
from ogames.web.boards.analysis import unless_gone
from ogames.web.boards.hub import Hub
from ogames.web.boards.learner_hints import HintRequest, check_hint, hints_of
from ogames.web.boards.live import LiveGame
from ogames.web.boards.review import DeskDep
from ogames.web.boards.routes import HubDep
from ogames.web.core.common import Refusal, api_language
from ogames.web.core.deps import SettingsDep, json_body
from ogames.web.core.store_faults import StorageError
from ogames.wording import say

router = APIRouter()
log = logging.getLogger("ogames.web")


@router.post("/api/games/{game_id}/hint", response_model=None)
async def api_hint(request: Request, game_id: str, hub: HubDep, settings: SettingsDep,
                   desk: DeskDep,
                   asked: Annotated[HintRequest, Depends(json_body(HintRequest))]) -> Response:
    live = await hub.get(game_id)
    await hub.timekeeper.fall_if_due(live)
    check_hint(live, asked.token, asked.version)
    state = live.state  # replaced, never changed, by each action: this position stays as it is
    record = state.record()
    ply = replaying.plies(record)
    seconds = min(settings.hint_seconds, settings.max_analysis_seconds)
    client = request.client.host if request.client else "?"
    waited, found = await unless_gone(request.receive, desk.analyse(client, seconds, ai.analyse, record, ply, seconds))
    if not waited:
        return Response(status_code=499)  # the page is gone: nothing counted
    await take_hint(hub, live, asked.version)
    shown = await asyncio.to_thread(replaying.analysis_view, state, found, api_language(request))
    keep = ("move", "move_text", "cells", "svg", "to_move")
    return JSONResponse({"ply": ply, "version": asked.version, **{key: shown[key] for key in keep if key in shown},
                         "hints": hints_of(live)})


async def take_hint(hub: Hub, live: LiveGame, version: int) -> int:
    """Count a hint for the game at `version` (the store's one statement decides); the new count.
    Refusal (nothing counted) if the game moved on meanwhile or its hints are used up."""
    async with live.lock:
        if live.version != version or live.ended:
            raise Refusal(say("hint-moved-on", "the game moved on while the computer looked for a hint: ask again"),
                          "stale", 409)
        try:
            used = await asyncio.to_thread(hub.store.use_hint, live.id, version, live.hint_limit)
        except StorageError as exc:
            log.warning("game %s: a hint could not be counted: %s", live.id, exc)
            raise Refusal(say("hint-not-stored", "the hint could not be counted, so it is not given: try again"),
                          "storage", 503) from None
        if used is None:  # another server process counted the last one, or stored a move, first
            live.hints_used = await asyncio.to_thread(hub.store.hints_used, live.id)
            raise Refusal(say("hints-used-up", "you have used all the hints of this game ({limit})", limit=live.hint_limit),
                          "no-hints-left", 409)
        live.hints_used = used
    await hub.bus.publish(live.id, live.version, {"hints": used})
    await hub.announce(live)
    return used


__all__ = ["router", "take_hint"]
