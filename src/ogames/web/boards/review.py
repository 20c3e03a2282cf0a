"""Looking back at a board game: the replay page (a record uploaded or a stored game, step by step)
and the computer's analysis, one `APIRouter`.

    GET  /replay                    the upload form;  POST: upload a record (multipart, field `record`)
    GET  /replay/open               a game of this server by its link or id, on the replay page
    GET  /g/{id}/replay             a stored game on the replay page
    POST /api/replay/position       {record, ply} → that position drawn, the move that led there
    POST /api/games/{id}/analysis   {ply, seconds} → the computer's best move, win chance and line
    POST /api/analysis              {record, ply, seconds}: the same for a finished uploaded record

The search runs in an analysis worker, within each client's quota (web/boards/analysis.py); a
refusal or an invalid body is answered by the app's handlers.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import UploadFile
from starlette.requests import HTTPConnection

import ogames
from ogames.web.boards import ai, hints, replaying
from ogames.web.boards.analysis import AnalysisDesk, unless_gone
from ogames.web.boards.game_review import REVIEWED
from ogames.web.boards.live import may_analyse
from ogames.web.boards.routes import HubDep
from ogames.web.core.common import Refusal, api_language, options_text, request_language, script_json
from ogames.web.core.deps import SettingsDep, page, read_body
from ogames.web.core.names import move_words
from ogames.web.core.settings import Settings
from ogames.web.explore.routes import opening_link
from ogames.wording import say

DEFAULT_SECONDS = 2.0


class AnalysisRequest(BaseModel):
    """Analyse the position after `ply` entries of a stored game, searching `seconds`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    ply: int = Field(ge=0, le=100_000)
    seconds: float = Field(default=DEFAULT_SECONDS, gt=0, le=3600)


class RecordAnalysisRequest(AnalysisRequest):
    """The same for a record the page holds (an upload)."""

    record: dict[str, Any]


class PositionRequest(BaseModel):
    """Draw the position after `ply` entries of a record."""

    model_config = ConfigDict(extra="forbid", strict=True)
    record: dict[str, Any]
    ply: int = Field(ge=0, le=100_000)


def analysis_desk(connection: HTTPConnection) -> AnalysisDesk:
    """The analyses' workers and each client's quota."""
    desk: AnalysisDesk = connection.app.state.analyses
    return desk


DeskDep = Annotated[AnalysisDesk, Depends(analysis_desk)]
router = APIRouter()


# ----- replay -------------------------------------------------------------------------------------


def replay_page(request: Request, settings: Settings, record: dict[str, Any], *, analysable: bool,
                game_id: str | None = None, status: int = 200) -> HTMLResponse:
    count = replaying.plies(record)
    asked = request.query_params.get("ply", "")
    ply = int(asked) if asked.isdigit() and int(asked) <= count else count
    language = request_language(request)
    shown = replaying.position(record, ply, language)
    return page(
        request,
        "replay.html",
        status,
        record_json=script_json(record),
        game_id=game_id,
        title=ogames.load(record["game"], **record.get("options", {})).title,
        options_text=options_text(record.get("options") or {}, language),
        moves=[{"n": n, "by": entry.get("by"), "move": entry.get("move"), "text": move_words(entry.get("move"), language)}
               for n, entry in enumerate(record["moves"], 1)],
        shown=shown,
        ply=ply,
        analysis=analysable,
        finished=bool(record.get("result")),
        explore_link=opening_link(record),
        # A stored game over with a result: its computer review beside the board (web/boards/game_review_route.py).
        game_review=game_id is not None and bool(record.get("result")) and record.get("game") in REVIEWED,
        max_seconds=settings.max_analysis_seconds,
        message=None,
    )


@router.get("/replay", response_class=HTMLResponse)
async def replay_form(request: Request, settings: SettingsDep) -> HTMLResponse:
    return page(request, "upload.html", message=None, limit_kb=settings.max_record_bytes // 1024)


@router.post("/replay", response_model=None)
async def replay_upload(request: Request, settings: SettingsDep) -> Response:
    try:
        data = await uploaded(request, settings.max_record_bytes)
        record = await asyncio.to_thread(replaying.read_upload, data, settings.max_record_bytes)
        # an uploaded record is analysed once its game is over, as /api/analysis allows
        return await asyncio.to_thread(lambda: replay_page(request, settings, record, analysable=bool(record.get("result"))))
    except Refusal as refusal:
        return page(request, "upload.html", refusal.status, message=refusal.message, limit_kb=settings.max_record_bytes // 1024)


@router.get("/g/{game_id}/replay", response_class=HTMLResponse)
async def stored_replay(request: Request, game_id: str, hub: HubDep, settings: SettingsDep) -> HTMLResponse:
    try:
        live = await hub.get(game_id)
    except Refusal as refusal:
        return page(request, "error.html", refusal.status, message=refusal.message)
    record = live.state.record()
    return await asyncio.to_thread(lambda: replay_page(request, settings, record, analysable=may_analyse(live), game_id=live.id))


@router.get("/replay/open", response_model=None)
async def open_by_link(request: Request, settings: SettingsDep) -> Response:
    """The upload page's second form: a game of this server by its link or id."""
    text = request.query_params.get("game", "").strip().rstrip("/")
    game_id = text.split("/g/", 1)[-1].split("/", 1)[0].split("#", 1)[0].split("?", 1)[0]
    if not game_id or len(game_id) > 32 or not all(c.isalnum() or c in "-_" for c in game_id):
        return page(request, "upload.html", 400, message=say("game-link", "give a game's link (…/g/ID) or its id"),
                    limit_kb=settings.max_record_bytes // 1024)
    return RedirectResponse(f"/g/{game_id}/replay", status_code=303)


@router.post("/api/replay/position", response_model=None)
async def api_position(request: Request, settings: SettingsDep) -> Response:
    asked = PositionRequest.model_validate_json(await read_body(request, settings.max_record_bytes))
    return JSONResponse(await asyncio.to_thread(replaying.position, asked.record, asked.ply, api_language(request)))


# ----- analysis -----------------------------------------------------------------------------------


async def analyse(request: Request, hub: HubDep, desk: AnalysisDesk, settings: Settings, record: dict[str, Any], ply: int,
                  seconds: float) -> Response:
    limit = settings.max_analysis_seconds
    if seconds > limit:
        raise Refusal(say("analysis-too-long",
                          "an analysis may search at most {limit} seconds, not {seconds}", limit=f"{limit:g}",
                          seconds=f"{seconds:g}"), "too-long", 422)
    state = await asyncio.to_thread(replaying.state_at, record, ply)
    replaying.analysable(state)
    # Whatever the route (a finished game, one on one screen, an upload), never a position a
    # live game against someone has been through: its best move would be a hint to one side.
    if await asyncio.to_thread(hints.is_hint, state, hub.games_against_someone()):
        raise Refusal(say("position-in-play", "this position is on the board of a game being played against someone on "
                          "this server: the computer analyses it once that game is over"), "not-allowed", 403)
    client = request.client.host if request.client else "?"
    # The page may be closed while it waits: then the analysis is cancelled (its worker freed).
    waited, found = await unless_gone(request.receive, desk.analyse(client, seconds, ai.analyse, record, ply, seconds))
    if not waited:
        return Response(status_code=499)  # nobody is there to read it
    shown = await asyncio.to_thread(replaying.analysis_view, state, found, api_language(request))
    return JSONResponse({"ply": ply, **shown})


@router.post("/api/games/{game_id}/analysis", response_model=None)
async def api_game_analysis(request: Request, game_id: str, hub: HubDep, desk: DeskDep, settings: SettingsDep) -> Response:
    asked = AnalysisRequest.model_validate_json(await read_body(request, settings.max_body_bytes))
    live = await hub.get(game_id)
    if not may_analyse(live):
        raise Refusal(say("analysis-not-allowed",
                          "the computer analyses a game once it is over (or a game played on one screen)"), "not-allowed", 403)
    return await analyse(request, hub, desk, settings, live.state.record(), asked.ply, asked.seconds)


@router.post("/api/analysis", response_model=None)
async def api_record_analysis(request: Request, hub: HubDep, desk: DeskDep, settings: SettingsDep) -> Response:
    asked = RecordAnalysisRequest.model_validate_json(await read_body(request, settings.max_record_bytes))
    if not asked.record.get("result"):
        raise Refusal(say("record-analysis-not-allowed", "the computer analyses a record once its game is over"),
                      "not-allowed", 403)
    return await analyse(request, hub, desk, settings, asked.record, asked.ply, asked.seconds)


async def uploaded(request: Request, limit: int) -> bytes:
    """The file of the upload form (field `record`), at most `limit` bytes; Refusal if the form
    is not one, has no file, or is too large."""
    length = request.headers.get("content-length", "")
    if not length.isdigit():
        raise Refusal(say("upload-form", "send the record with the upload form"), "invalid", 411)
    if int(length) > limit + 8192:  # the file and the form's own few hundred bytes
        raise Refusal(record_too_large(limit), "too-large", 413)
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise Refusal(say("upload-multipart", "send the record with the upload form (multipart/form-data)"), "invalid", 415)
    try:
        form = await request.form(max_files=1, max_fields=4)
    except Refusal:  # the body grew past its limit while it was read (web/core/guard.py)
        raise
    except Exception:  # the multipart parser's own errors: a malformed form
        raise Refusal(say("upload-unreadable", "the upload form could not be read"), "invalid", 400) from None
    upload = form.get("record")
    if not isinstance(upload, UploadFile):
        raise Refusal(say("upload-choose", "choose a record file to upload"), "invalid", 400)
    data = await upload.read(limit + 1)
    if len(data) > limit:
        raise Refusal(record_too_large(limit), "too-large", 413)
    return data


def record_too_large(limit: int) -> str:
    """An uploaded record over the limit."""
    return say("record-too-large-kb", "the record is too large (at most {kb} KB)", kb=limit // 1024)


__all__ = ["router"]
