"""Helpers of the hostile tests of the web server: `ogames serve` as a process (web/serving.py),
plain HTTP and WebSocket calls to it, and exact snapshots of what its database holds for a game
(to show that a refused request changed nothing)."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import ogames
from web.serving import call, start_server, stop_server

__all__ = ["call"]  # re-exported: every hostile web test speaks JSON through it

DEADLINE = 60.0  # seconds any awaited condition may take on a loaded machine


@dataclass
class Server:
    """A server process on a SQLite file (restartable on the same file), shared (`--share-sqlite`)
    so that the tests can read exactly what it stored while it runs."""

    database: Path
    log: Path
    process: Any = None
    base: str = ""

    def start(self) -> None:
        self.process, self.base = start_server(self.database, self.log, extra=("--share-sqlite",))

    def stop(self, kill: bool = False) -> None:
        if self.process is not None:
            stop_server(self.process, kill=kill)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def ws(self) -> str:
        return "ws" + self.base.removeprefix("http")

    def call(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        return call(self.base, path, body)

    def page(self, path: str) -> tuple[int, str, dict[str, str]]:
        """(status, text, headers) of a GET that is not followed if it redirects."""
        request = urllib.request.Request(self.base + path)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=10) as response:
                return response.status, response.read().decode(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), dict(error.headers)

    def stored(self, game_id: str) -> dict[str, Any]:
        """Everything the database holds for a game: its row, its record entries, its seat tokens."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            db.row_factory = sqlite3.Row
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            entries = db.execute("SELECT ply, entry, stored_at FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)).fetchall()
            tokens = db.execute("SELECT seat, digest FROM seat_tokens WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall()
        return {"game": dict(row) if row else None, "moves": [tuple(e) for e in entries], "tokens": [tuple(t) for t in tokens]}

    def record(self, game_id: str) -> dict[str, Any]:
        """A game's whole record as the database holds it (a card table's with its seed, which no
        route shows while the game is on), put together as `store.GameRow.record` does."""
        stored = self.stored(game_id)
        head = json.loads(stored["game"]["head"])
        record = {key: head.pop(key) for key in ("format", "version", "game", "options", "players", "seats")}
        record["moves"] = [json.loads(entry) for _, entry, _ in stored["moves"]]
        record.update(head)
        return record

    def clock(self, game_id: str) -> dict[str, Any] | None:
        """The clock the database holds for a game."""
        stored = self.stored(game_id)["game"]["clock"]
        return None if stored is None else json.loads(stored)

    @contextmanager
    def socket(self, path: str) -> Iterator[ClientConnection]:
        with connect(self.ws + path, open_timeout=DEADLINE, max_size=2**22) as ws:
            yield ws


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@contextmanager
def running(folder: Path) -> Iterator[Server]:
    """A server on a fresh SQLite file in `folder`, stopped afterwards."""
    server = Server(folder / "games.sqlite3", folder / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log, log[-3000:]  # refusals are answers, never a crash in the log


def receive(ws: ClientConnection, until: Callable[[dict[str, Any]], bool], timeout: float = DEADLINE) -> dict[str, Any]:
    """The first message a socket receives that `until` accepts (within the deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no such message arrived in time")
        message = json.loads(ws.recv(timeout=left))
        if until(message):
            return message


def refused_socket(server: Server, path: str) -> tuple[dict[str, Any], int | None]:
    """What a socket to a game the route does not serve says (its first message), and the code the
    server closes it with; a resignation sent meanwhile is never read."""
    with server.socket(path) as ws:
        first = json.loads(ws.recv(timeout=DEADLINE))
        try:
            ws.send(json.dumps({"type": "resign", "token": "x" * 43, "version": 0}))
            ws.recv(timeout=DEADLINE)
        except ConnectionClosed as closed:
            return first, closed.rcvd.code if closed.rcvd else None
    raise AssertionError(f"the socket {path} stayed open")


def wait_view(server: Server, path: str, until: Callable[[dict[str, Any]], bool], timeout: float = DEADLINE) -> dict[str, Any]:
    """The view at `path` once `until` accepts it (asked again until the deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        status, view = server.call(path)
        if status == 200 and until(view):
            return view
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} did not come to the awaited state: {json.dumps(view)[:500]}")
        time.sleep(0.1)


def rows(server: Server, query: str, *values: Any) -> list[tuple[Any, ...]]:
    """What a query reads from the server's database, opened read-only (and closed again)."""
    with contextlib.closing(sqlite3.connect(f"file:{server.database}?mode=ro", uri=True)) as db:
        return db.execute(query, values).fetchall()


class SiteBrowser:
    """A client of the server process that keeps its cookies, as a browser does, from a loopback
    address of its own (the site counts its limits by address); it reads a page's CSRF token and
    the name the page header gives its visitor."""

    def __init__(self, server: Server, address: str):
        self.server = server
        transport = httpx2.HTTPTransport(local_address=address)
        self.http = httpx2.Client(base_url=server.base, transport=transport, timeout=60, follow_redirects=False)

    def token(self, path: str = "/account") -> str:
        found = re.search(r'name="csrf-token" content="([^"]+)"', self.http.get(path).text)
        assert found
        return found.group(1)

    def name(self) -> str:
        found = re.search(r'class="visitor-name"[^>]*>([^<]+)<', self.http.get("/account").text)
        assert found
        return found.group(1)


def new_game(server: Server, game: str = "omny", options: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """A new board game through the API (its id, tokens, invitations and view)."""
    options = {"variant": "y", "size": 5} if options is None else options
    status, made = server.call("/api/games", {"game": game, "options": options, **fields})
    assert status == 201, made
    return made


def play(server: Server, game_id: str, token: str, move: str) -> dict[str, Any]:
    """A move at the game's current version; the view after it."""
    version = server.call(f"/api/games/{game_id}")[1]["version"]
    status, view = server.call(f"/api/games/{game_id}/moves", {"move": move, "token": token, "version": version})
    assert status == 200, view
    return view


def settled(server: Server, game_id: str) -> dict[str, Any]:
    """A board game's view once the computer is not thinking (a person is to move, or it is over)."""
    return wait_view(server, f"/api/games/{game_id}", lambda view: not view["thinking"] and (
        view["over"] or not view["seats"][view["mover"]]["computer"]))


def with_resignation(record: dict[str, Any], colour: str | None = None) -> dict[str, Any]:
    """A record as a forger would make it: the game's moves, then a resignation (the colour to
    move's, unless given), so that the record is of a finished game the rules accept."""
    state = ogames.replay(record)
    state.resign(colour or state.to_move)
    return state.record()
