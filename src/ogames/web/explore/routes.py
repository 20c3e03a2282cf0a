"""The opening explorer's pages: the moves played from a position, how often and with what results.

    GET  /explore                              the boards to explore (the book's and the site's)
    GET  /explore?game=omny&variant=y&size=5&moves=c2,b2
                                               a position: the board, the next moves' table, the line
    GET  /api/explore?…                        the same as JSON

`game` is a turn-based board game, every other parameter but `moves`, `source` and `lang` is one of
its options (as the new-game form and the command line name them), `moves` the line of moves from
the start, comma-separated (one stone of an Omega turn each), `source` `all` (the default), `site` or
`book` (the site's games alone list only the moves played on the site, with their verdicts; with the
book, every proven move is listed, also one nobody played). A parameter that cannot be meant is
refused (400) with a sentence saying why; nothing is ever changed here, so there is no form to guard.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.datastructures import QueryParams

import ogames
from ogames.draw import board_svg
from ogames.errors import IllegalMove, OgamesError, UnknownLabel, shown
from ogames.rules import REAL_TIME, Game, State
from ogames.rules.protocol import is_board_state
from ogames.teach.explorer import MAX_PATH, Counts, next_moves, position, shipped_book
from ogames.web.core.common import Refusal, api_language, options_text, request_language
from ogames.web.core.deps import page
from ogames.web.core.names import move_words
from ogames.web.explore.site import counted_at
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.messages import speaker, word
from ogames.wording import say

router = APIRouter()

SOURCES = ("all", "site", "book")
NOT_OPTIONS = {"game", "moves", "source", "lang"}
MAX_QUERY = 4000  # characters of a query string
MAX_MOVE = 24  # characters of one move ("swap", "c3", an Odd-Y "a12-3")


@functools.cache
def board_games() -> dict[str, str]:
    """The turn-based board games, by name, with their titles (the same while the server runs)."""
    return {game["name"]: game["title"] for game in ogames.games()
            if ogames.load(game["name"]).dynamics != REAL_TIME}


@dataclass(frozen=True)
class Asked:
    """A position the explorer was asked for: the board, its line of moves, the source of games."""

    game: Game
    options: dict[str, str]  # as asked (the links keep them so)
    moves: list[str]
    source: str

    @classmethod
    def read(cls, query: QueryParams) -> Asked:
        """What a query string asks for; Refusal (400) saying what cannot be meant."""
        if len(str(query)) > MAX_QUERY:
            too_long = say("explorer-query-long", "the query is too long (at most {n} characters)", n=MAX_QUERY)
            raise Refusal(too_long, "invalid", 400)
        games = board_games()
        name = query.get("game", "")
        if name not in games:
            raise Refusal(say("explorer-game", "game must be one of {names}, not {given}", names=", ".join(games),
                              given=shown(name)), "bad-game", 400)
        source = query.get("source") or "all"
        if source not in SOURCES:
            raise Refusal(say("explorer-source", "source must be all, site or book, not {given}", given=shown(source)),
                          "invalid", 400)
        options = {key: value for key, value in query.items() if key not in NOT_OPTIONS}
        try:
            game = ogames.load(name, **options)
        except OgamesError as exc:
            raise Refusal(say("explorer-options", "these options are not valid: {reason}", reason=exc.said), "bad-options",
                          400) from None
        text = query.get("moves", "").strip()
        moves = [move.strip() for move in text.split(",")] if text else []
        if len(moves) > MAX_PATH or any(not move or len(move) > MAX_MOVE for move in moves):
            raise Refusal(say("explorer-moves", "moves is a line of at most {n} moves separated by commas", n=MAX_PATH),
                          "bad-moves", 400)
        return cls(game, options, moves, source)

    def link(self, moves: list[str], path: str = "/explore") -> str:
        """This board's page at another line of moves."""
        query = {"game": self.game.name, **self.options, **({"source": self.source} if self.source != "all" else {}),
                 **({"moves": ",".join(moves)} if moves else {})}  # the moves last: the address ends with the line
        return f"{path}?{urlencode(query)}"


OPENING = 6  # decisions of a game its replay page's "Explore this opening" link steps into


def opening_link(record: dict[str, Any]) -> str | None:
    """The explorer's page of a record's opening (its first OPENING moves, on its board), for the
    replay page; None for a real-time game or a board whose options a link cannot name (a list)."""
    name, options = record.get("game"), record.get("options")
    if name not in board_games() or not isinstance(options, dict):
        return None
    if any(isinstance(value, (list, dict)) for value in options.values()):
        return None
    named = {key: str(value).lower() if isinstance(value, bool) else str(value)
             for key, value in options.items() if value is not None}
    line: list[str] = []
    for entry in record.get("moves") or []:
        move = entry.get("move") if isinstance(entry, dict) else None
        if not isinstance(move, str) or move == "resign":
            break
        line += [move] if name != "omega" or move.startswith("swap") else move.split()
    try:
        game = ogames.load(str(name), **named)
    except OgamesError:
        return None
    return Asked(game, named, line[:OPENING], "all").link(line[:OPENING])


def reached(asked: Asked) -> State:
    """The position a line of moves reaches; Refusal (400) naming the move the rules refuse."""
    try:
        return position(asked.game, asked.moves)
    except (IllegalMove, UnknownLabel) as exc:
        raise Refusal(say("explorer-illegal", "the line cannot be played: {reason}", reason=exc.said), "bad-moves", 400) from None


def view(asked: Asked, state: State, trees: list[Counts], language: str) -> dict[str, Any]:
    """What the page and the JSON show of a position (blocking: drawing the board)."""
    book = shipped_book()
    rows = next_moves(state, asked.moves, trees, book.verdicts, unplayed=asked.source != "site")
    speak = speaker(language)
    cells = [row.move for row in rows if state.board.has(row.move)] if is_board_state(state) else []
    try:
        svg = board_svg(state, highlight=cells, speak=speak)
    except OgamesError:
        svg = board_svg(state, speak=speak)
    result = state.result
    return {
        "game": asked.game.name,
        "title": asked.game.title,
        "options": asked.game.jsonable_options(),
        "source": asked.source,
        "moves": [{"move": move, "text": move_words(move, language), "link": asked.link(asked.moves[: n + 1])}
                  for n, move in enumerate(asked.moves)],
        "back": asked.link(asked.moves[:-1]) if asked.moves else None,
        "start": asked.link([]),
        "to_move": None if state.is_over else state.to_move,
        "result": None if result is None else {"winner": result.winner, "text": word(result.describe(), language)},
        "games": sum(row.games for row in rows),
        "next": [{**row.jsonable(), "text": move_words(row.move, language), "link": asked.link([*asked.moves, row.move])}
                 for row in rows],
        "svg": svg,
    }


async def explored(request: Request) -> tuple[Asked, dict[str, Any]]:
    asked = Asked.read(request.query_params)
    state = await asyncio.to_thread(reached, asked)
    trees: list[Counts] = []
    if asked.source in ("all", "book"):
        trees.append((await asyncio.to_thread(shipped_book)).tree(asked.game))
    if asked.source in ("all", "site"):
        trees.append(await asyncio.to_thread(counted_at, request.app.state.store, state, asked.moves))
    language = api_language(request) if request.url.path.startswith("/api/") else request_language(request)
    return asked, await asyncio.to_thread(view, asked, state, trees, language)


def book_boards(language: str) -> list[dict[str, Any]]:
    """The boards the shipped book holds, each with its options in words and its explorer link."""
    found = []
    for tree in shipped_book().trees.values():
        options = {key: str(value).lower() if isinstance(value, bool) else str(value)
                   for key, value in tree.game.jsonable_options().items() if value is not None}
        found.append({"title": tree.game.title, "options_text": options_text(tree.game.jsonable_options(), language),
                      "games": tree.lines,
                      "link": Asked(tree.game, options, [], "all").link([])})
    return found


@router.get("/api/explore")
async def explore_api(request: Request) -> JSONResponse:
    _, shown_view = await explored(request)
    return JSONResponse(shown_view)


@router.get("/explore", response_class=HTMLResponse)
async def explore_page(request: Request) -> HTMLResponse:
    if not request.query_params.get("game") and not request.query_params.get("moves"):
        boards = await asyncio.to_thread(book_boards, request_language(request))
        return page(request, "explore_index.html", boards=boards, games=board_games())
    _, shown_view = await explored(request)
    language = request_language(request)
    return page(request, "explore.html", shown=shown_view, options_text=options_text(shown_view["options"], language),
                english=language == ENGLISH)


__all__ = ["Asked", "opening_link", "router"]
