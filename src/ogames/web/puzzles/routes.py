"""The puzzles' pages: a position from a real game where one move wins, proven (ogames.teach.puzzles).

    GET  /puzzles?game=omny&theme=block      the puzzles of a game, with a theme (both optional), 100
                                             a page (&page=2)
    GET  /puzzles/next?game=&theme=&after=ID  303 to the next puzzle to train on (an untried one rated
                                             near the visitor, not ID; the filters kept for the one after)
    GET  /puzzles/ID?game=&theme=            a puzzle: the position drawn, "Black to play and win"
    GET  /api/puzzles/ID                     the same as JSON (never the solution)
    POST /api/puzzles/ID/attempt {moves}     the line from the puzzle's position, the new move last:
                                             right (with the defence's reply), solved, wrong
                                             (with the refutation), or also (a later move off the
                                             line that wins too: not failed, try the line's); 400 for a line that does not
                                             follow the puzzle or a move the rules refuse
    POST /api/puzzles/ID/solution {}         the solution (a request to see it: a failed first try)

A visitor's first try at a puzzle is rated once (ogames/ratings/puzzles.py): a wrong move or the
solution asked for before solving it fails it, solving it with no wrong move succeeds; both the
visitor's puzzle rating and the puzzle's change. The POSTs are guarded by the CSRF token as every
form of the site is (the page script sends it).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

import ogames
from ogames.draw import board_svg
from ogames.errors import shown
from ogames.ratings import Rating
from ogames.ratings.puzzles import PuzzleChange
from ogames.rules.protocol import State
from ogames.teach.puzzles import BadPuzzle, Puzzle, PuzzleSet, position_of
from ogames.teach.puzzles.format import MAX_MOVES
from ogames.web.core.common import Refusal, api_language, options_text, request_language
from ogames.web.core.deps import StoreDep, VisitorDep, json_body, page
from ogames.web.core.names import move_words
from ogames.web.core.store import Store
from ogames.web.messages import speaker
from ogames.web.puzzles import play
from ogames.web.puzzles.catalogue import MAX_LISTED, next_puzzle
from ogames.web.puzzles.records import choosing, listed, rate_try, record_of, standing
from ogames.wording import say

router = APIRouter()
log = logging.getLogger(__name__)

Move = Annotated[str, StringConstraints(min_length=1, max_length=24)]


class Attempt(BaseModel):
    """The line played from the puzzle's position, the new move last."""

    model_config = ConfigDict(extra="forbid", strict=True)
    moves: list[Move] = Field(min_length=1, max_length=MAX_MOVES)


class ShowRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def puzzle_set(request: Request) -> PuzzleSet:
    """This server's puzzles (read at the first request)."""
    state = request.app.state
    if getattr(state, "puzzles", None) is None:
        try:
            state.puzzles = PuzzleSet.load(state.settings.puzzles_path or None)
        except (BadPuzzle, OSError, UnicodeDecodeError) as exc:  # (a file set up wrong: the site goes on without puzzles)
            log.error("no puzzles: %s", exc)
            state.puzzles = PuzzleSet()
    puzzles: PuzzleSet = state.puzzles
    return puzzles


PuzzlesDep = Annotated[PuzzleSet, Depends(puzzle_set)]


def today() -> datetime.date:
    """The day (UTC) whose puzzle the pages show. The one read of the date: a test replaces this
    function to pin the day (the page differs from day to day with the puzzle it links)."""
    return datetime.datetime.now(datetime.UTC).date()


def daily_puzzle(request: Request, date: datetime.date | None = None) -> Puzzle | None:
    """The puzzle of the day (UTC), the same for everyone that day (the home page links to it)."""
    return puzzle_set(request).daily(date or today())


async def puzzle_record(request: Request, store: Store, player_id: str) -> dict[str, Any]:
    """A player's puzzle rating (one over every game's puzzles: the ratings keep no pool per game)
    and, per game, how many puzzles they tried and solved at the first try (what the tries show)."""
    rating, tries = await asyncio.to_thread(record_of, store, player_id)
    puzzles = puzzle_set(request)
    return {"rating": rating, "tried": len(tries), "solved": sum(tries.values()),
            "games": [{"game": row.game, "title": ogames.load(row.game).title, "tried": row.tried, "solved": row.solved}
                      for row in puzzles.by_game(tries)]}


def found(puzzles: PuzzleSet, ident: str) -> Puzzle:
    puzzle = puzzles.get(ident)
    if puzzle is None:
        raise Refusal(say("puzzle-unknown", "there is no puzzle {given}", given=shown(ident)), "not-found", 404)
    return puzzle


def drawn(state: State, language: str) -> str:
    return board_svg(state, speak=speaker(language))


def rating_json(rating: Rating) -> dict[str, Any]:
    return {"rating": round(rating.rating), "deviation": round(rating.deviation), "shown": rating.shown}


def change_json(change: PuzzleChange | None) -> dict[str, Any] | None:
    if change is None:
        return None
    return {"solved": change.solved, "player": rating_json(change.player_after),
            "change": round(change.player_after.rating - change.player_before.rating),
            "puzzle": rating_json(change.puzzle_after)}


def view(puzzle: Puzzle, language: str) -> dict[str, Any]:
    """What the page and the JSON show of a puzzle (blocking: drawing the board); no solution."""
    state = position_of(puzzle)
    game = state.game
    return {"id": puzzle.id, "game": puzzle.game, "title": game.title, "options": game.jsonable_options(),
            "to_play": play.side_colour(state), "themes": list(puzzle.themes), "difficulty": puzzle.difficulty,
            "moves": len(puzzle.moves), "svg": drawn(state, language)}


async def rated_view(store: Store, puzzle: Puzzle, player_id: str, language: str) -> dict[str, Any]:
    shown_view = await asyncio.to_thread(view, puzzle, language)
    puzzle_rating, player_rating, first = await asyncio.to_thread(standing, store, puzzle, player_id)
    return {**shown_view, "rating": rating_json(puzzle_rating), "player": rating_json(player_rating), "first_try": first}


def asked_list(puzzles: PuzzleSet, game: str | None, theme: str | None) -> tuple[str | None, str | None]:
    if game is not None and game not in puzzles.games():
        raise Refusal(say("puzzle-game", "game must be one of {names}, not {given}", names=", ".join(puzzles.games()),
                          given=shown(game)), "bad-game", 400)
    if theme is not None and theme not in puzzles.themes(game):
        raise Refusal(say("puzzle-theme", "no puzzle has the theme {given}", given=shown(theme)), "bad-theme", 400)
    return game, theme


def asked_filters(request: Request, puzzles: PuzzleSet) -> tuple[str | None, str | None]:
    """The game and theme a page's query asks for (either may be absent), checked."""
    return asked_list(puzzles, request.query_params.get("game") or None, request.query_params.get("theme") or None)


def filter_query(game: str | None, theme: str | None, **more: str) -> str:
    return urlencode({**({"game": game} if game else {}), **({"theme": theme} if theme else {}), **more})


@router.get("/puzzles", response_class=HTMLResponse)
async def puzzles_page(request: Request, puzzles: PuzzlesDep, store: StoreDep, visitor: VisitorDep) -> HTMLResponse:
    game, theme = asked_filters(request, puzzles)
    chosen = puzzles.chosen(game, theme)
    pages = max(1, -(-len(chosen) // MAX_LISTED))
    number = request.query_params.get("page") or "1"
    if not number.isdigit() or not 1 <= int(number) <= pages:
        raise Refusal(say("puzzle-page", "page must be a number from 1 to {n}", n=pages), "invalid", 400)
    shown_page = chosen[(int(number) - 1) * MAX_LISTED: int(number) * MAX_LISTED]
    ratings, tries = await asyncio.to_thread(listed, store, shown_page, visitor.id)
    mine = await puzzle_record(request, store, visitor.id)
    titles = {name: ogames.load(name).title for name in puzzles.games()}
    links = {to: "/puzzles?" + filter_query(game, theme, page=str(to))
             for to in (int(number) - 1, int(number) + 1) if 1 <= to <= pages}
    return page(request, "puzzles.html", puzzles=shown_page, count=len(chosen), game=game, theme=theme, titles=titles,
                themes=puzzles.themes(game), daily=daily_puzzle(request), ratings=ratings, tries=tries, mine=mine,
                page_number=int(number), pages=pages, previous=links.get(int(number) - 1), next=links.get(int(number) + 1),
                filters=filter_query(game, theme))


@router.get("/puzzles/next", response_class=HTMLResponse)
async def next_page(request: Request, puzzles: PuzzlesDep, store: StoreDep, visitor: VisitorDep) -> Any:
    """Training: on to an untried puzzle near the visitor's rating (filters kept for the next one)."""
    game, theme = asked_filters(request, puzzles)
    after = request.query_params.get("after")
    skip = None if after is None else found(puzzles, after).id
    candidates = puzzles.chosen(game, theme)
    player, ratings, tries = await asyncio.to_thread(choosing, store, candidates, visitor.id)
    chosen = next_puzzle(candidates, ratings, set(tries), player, skip)
    if chosen is None:
        return page(request, "puzzles_done.html", filters=filter_query(game, theme), count=len(candidates))
    query = filter_query(game, theme)
    return RedirectResponse(f"/puzzles/{chosen.id}" + (f"?{query}" if query else ""), status_code=303)


@router.get("/puzzles/{ident}", response_class=HTMLResponse)
async def puzzle_page(request: Request, ident: str, puzzles: PuzzlesDep, store: StoreDep, visitor: VisitorDep) -> HTMLResponse:
    puzzle = found(puzzles, ident)
    game, theme = asked_filters(request, puzzles)
    language = request_language(request)
    shown_view = await rated_view(store, puzzle, visitor.id, language)
    return page(request, "puzzle.html", shown=shown_view, options_text=options_text(shown_view["options"], language),
                next_link="/puzzles/next?" + filter_query(game, theme, after=puzzle.id),
                more_link="/puzzles?" + (filter_query(game, theme) or filter_query(puzzle.game, None)))


@router.get("/api/puzzles/{ident}")
async def puzzle_api(request: Request, ident: str, puzzles: PuzzlesDep, store: StoreDep, visitor: VisitorDep) -> JSONResponse:
    puzzle = found(puzzles, ident)
    return JSONResponse(await rated_view(store, puzzle, visitor.id, api_language(request)))


@router.post("/api/puzzles/{ident}/attempt")
async def attempt(request: Request, ident: str, puzzles: PuzzlesDep, store: StoreDep, visitor: VisitorDep,
                  body: Annotated[Attempt, Depends(json_body(Attempt))]) -> JSONResponse:
    puzzle = found(puzzles, ident)
    language = api_language(request)
    judged = await asyncio.to_thread(play.judge, puzzle, body.moves[:-1], body.moves[-1])
    change = None
    if judged.result in (play.SOLVED, play.WRONG):
        change = await asyncio.to_thread(rate_try, store, puzzle, visitor.id, judged.result == play.SOLVED)
    svg = await asyncio.to_thread(drawn, judged.state, language)
    answer: dict[str, Any] = {"result": judged.result, "moves": judged.line, "svg": svg,
                              "to_play": play.side_colour(judged.state), "rated": change_json(change)}
    if judged.result == play.RIGHT and len(judged.line) > len(body.moves):
        reply = judged.line[-1]
        answer["reply"] = {"move": reply, "text": move_words(reply, language)}
    if judged.result == play.WRONG:
        answer["refutation"] = None if judged.refutation is None else {
            "move": judged.refutation, "text": move_words(judged.refutation, language)}
    return JSONResponse(answer)


@router.post("/api/puzzles/{ident}/solution")
async def solution(request: Request, ident: str, puzzles: PuzzlesDep, store: StoreDep, visitor: VisitorDep,
                   _: Annotated[ShowRequest, Depends(json_body(ShowRequest))]) -> JSONResponse:
    puzzle = found(puzzles, ident)
    language = api_language(request)
    change = await asyncio.to_thread(rate_try, store, puzzle, visitor.id, False)  # (a no-op once tried)
    state = await asyncio.to_thread(play.solution_state, puzzle)
    return JSONResponse({"solution": [{"move": move, "text": move_words(move, language)} for move in puzzle.solution],
                         "svg": await asyncio.to_thread(drawn, state, language), "rated": change_json(change)})


__all__ = ["daily_puzzle", "puzzle_record", "puzzle_set", "router", "today"]
