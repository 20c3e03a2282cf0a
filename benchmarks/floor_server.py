"""The web stack's floor: ogames's protocol, framework and storage with no rules and no drawing.

A FastAPI application on uvicorn (as `ogames serve` runs it), storing its games through the very
store layer of the web server (`ogames.web.core.store.Store`, SQLite in WAL mode through SQLAlchemy,
one transaction per action, off the event loop), speaking the same JSON API and WebSocket
protocol as far as `benchmarks/bench_web_load.py` uses them: `POST /api/games` (an id and the
seats' tokens), `GET /api/games/{id}` (its version), and `/ws/g/{id}`, where a `move` message with
the seat's token and the version the page saw is checked (token, version, turn), stored and
answered with a small state message to every page of the game.

What it leaves out is what ogames adds on top of its stack: the rules (a "legal" move is any cell
of the board's cell list not yet played: a set difference) and the drawing. Whatever ogames
serves more slowly than this, the rules, the views and the drawing cost; see docs/web.md and
`benchmarks/results/web-floor-*.md`.

    python benchmarks/floor_server.py --port 8765 --database sqlite:////tmp/floor.sqlite3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.websockets import WebSocketDisconnect

from ogames.web.core.store import StaleMove, Store, digest, seat_of_token

# The cells a game offers (Y 9's 45 cells, labelled as ogames labels them): the bench picks from them.
CELLS = [f"{chr(ord('a') + column)}{row + 1}" for row in range(9) for column in range(9 - row)]


@dataclass(eq=False)
class FloorGame:
    """A game in memory: its version, whose turn, the cells left, and the pages watching it."""

    id: str
    digests: dict[int, str]
    version: int = 0
    entries: list[dict[str, Any]] = field(default_factory=list)
    free: set[str] = field(default_factory=lambda: set(CELLS))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pages: set[WebSocket] = field(default_factory=set)

    def state(self) -> dict[str, Any]:
        return {"type": "state", "id": self.id, "version": self.version, "mover": self.version % 2, "over": not self.free,
                "legal": sorted(self.free)}


def create_app(database: str) -> FastAPI:
    store = Store(database)
    games: dict[str, FloorGame] = {}
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    @app.get("/")
    async def home() -> PlainTextResponse:
        return PlainTextResponse("floor")

    @app.post("/api/games")
    async def create(request: Request) -> JSONResponse:
        body = await request.json()
        game_id = secrets.token_urlsafe(9)
        tokens = {seat: secrets.token_urlsafe(32) for seat in range(2)}
        head = {"format": "ogames-record", "version": 1, "game": body.get("game", "omny"), "options": body.get("options", {}),
                "players": ["player 1", "player 2"], "seats": None, "moves": [], "result": None}
        await asyncio.to_thread(store.create_game, game_id, head["game"], "online", ["invited", "invited"], head, tokens)
        games[game_id] = FloorGame(game_id, {seat: digest(token) for seat, token in tokens.items()})
        return JSONResponse({"id": game_id, "tokens": {str(seat): token for seat, token in tokens.items()}}, status_code=201)

    @app.get("/api/games/{game_id}")
    async def read(game_id: str) -> JSONResponse:
        version = await asyncio.to_thread(store.version_of, game_id)
        return JSONResponse({"id": game_id, "version": version})

    @app.websocket("/ws/g/{game_id}")
    async def live(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        game = games.get(game_id)
        if game is None:
            await websocket.close(code=4404)
            return
        game.pages.add(websocket)
        try:
            await websocket.send_text(json.dumps(game.state()))
            while True:
                message = json.loads(await websocket.receive_text())
                problem = await move(game, message)
                if problem is not None:
                    await websocket.send_text(json.dumps({"type": "error", "message": problem, "code": "refused"}))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            game.pages.discard(websocket)

    async def move(game: FloorGame, message: dict[str, Any]) -> str | None:
        """Check, store and announce one move; the reason it was refused, or None."""
        async with game.lock:
            seat = seat_of_token(game.digests, str(message.get("token")))
            if seat is None or message.get("type") != "move":
                return "that token holds no seat in this game"
            if message.get("version") != game.version:
                return "the game has moved on since this was sent"
            if seat != game.version % 2 or message.get("move") not in game.free:
                return "not your turn, or not a free cell"
            entry = {"move": message["move"], "by": "black" if seat == 0 else "white"}
            record = {"format": "ogames-record", "version": 1, "game": "omny", "moves": [*game.entries, entry], "result": None}
            try:
                await asyncio.to_thread(store.add_action, game.id, game.version, record, len(game.entries))
            except StaleMove:
                return "the game has moved on"
            game.entries.append(entry)
            game.free.discard(entry["move"])
            game.version += 1
            text = json.dumps(game.state())
        for page in list(game.pages):
            try:
                await page.send_text(text)
            except Exception:
                game.pages.discard(page)
        return None

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--database", required=True, help="an SQLAlchemy URL, e.g. sqlite:////tmp/floor.sqlite3")
    args = parser.parse_args()
    uvicorn.run(create_app(args.database), host="127.0.0.1", port=args.port, log_level="info", server_header=False)


if __name__ == "__main__":
    main()
