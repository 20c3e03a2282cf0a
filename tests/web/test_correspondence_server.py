"""Correspondence games and the ways a game ends early, against `ogames serve` as a process whose
clocks run on simulated time (tests/web/serving.py's `simulated`): the days are kept across a
killed server, a deadline that passed while the server was down ends the game when it starts, two
processes on one database end a game once, and every hostile request (a claim too early or for the
wrong seat, an abort too late, a bad days value) is refused with nothing changed."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .serving import call, simulate, start_server, stop_server

pytestmark = pytest.mark.slow

DAY = 86_400.0
WAIT = 60.0  # seconds: the longest a condition below is waited for (the sweeper looks every 0.1 s)


def wait_for(what: Callable[[], Any], timeout: float = WAIT) -> Any:
    """`what()` once it is true, looked at every 0.05 s until a generous deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true in time")
        time.sleep(0.05)


def new_game(base: str, days: int, seats: tuple[str, ...] = ("here", "invite")) -> tuple[str, dict[str, str]]:
    body: dict[str, Any] = {"game": "omny", "options": {"variant": "y", "size": 4}, "seats": list(seats)}
    if days:
        body["days"] = days
    status, made = call(base, "/api/games", body)
    assert status == 201, made
    tokens = dict(made["tokens"])
    tokens.update({seat: invitation["token"] for seat, invitation in made["invitations"].items()})
    return made["id"], tokens


def move(base: str, game_id: str, token: str, version: int, cell: str) -> dict[str, Any]:
    status, view = call(base, f"/api/games/{game_id}/moves", {"move": cell, "token": token, "version": version})
    assert status == 200, view
    return view


def view_of(base: str, game_id: str) -> dict[str, Any]:
    status, view = call(base, f"/api/games/{game_id}")
    assert status == 200, view
    return view


def stored_row(database: Path, game_id: str) -> Any:
    """The game as the database holds it (the servers share the SQLite file: --share-sqlite)."""
    from ogames.web.core.store import Store

    store = Store(f"sqlite:///{database}", shared=True)
    try:
        return store.load_game(game_id)
    finally:
        store.close()


def test_the_days_are_kept_across_a_killed_server(tmp_path: Path) -> None:
    database, log, now = tmp_path / "g.sqlite3", tmp_path / "server.log", tmp_path / "now"
    process, base = start_server(database, log, simulated=now)
    try:
        kept, tokens = new_game(base, days=1)
        move(base, kept, tokens["0"], 0, "b2")
        move(base, kept, tokens["1"], 1, "c2")  # Black to move, a day for it
        missed, others = new_game(base, days=2)
        move(base, missed, others["0"], 0, "b2")
        move(base, missed, others["1"], 1, "c2")
        abandoned, _ = new_game(base, days=1)  # Black never makes its first move
    finally:
        stop_server(process, kill=True)
    simulate(now, DAY / 2)
    process, base = start_server(database, log, simulated=now)
    try:
        view = view_of(base, kept)
        assert not view["over"] and view["clock"]["days"] == 1
        assert DAY / 2 - 120 < view["clock"]["remaining"][0] <= DAY / 2  # half a day left, the rest spent while down
    finally:
        stop_server(process, kill=True)
    simulate(now, 2.5 * DAY)  # every deadline passed while the server was down
    process, base = start_server(database, log, simulated=now, extra=("--share-sqlite",))
    try:
        # The sweeper ends them as the server starts, before anyone asks for them: the database says so.
        for game_id, status in ((kept, "over"), (missed, "over"), (abandoned, "aborted")):
            wait_for(lambda game_id=game_id, status=status: stored_row(database, game_id).status == status)
        for game_id in (kept, missed):
            view = view_of(base, game_id)
            assert view["over"] and view["result"]["on_time"] and view["result"]["winner"] == "white", view["result"]
        view = view_of(base, abandoned)
        assert view["aborted"] and view["result"] is None
        assert "Traceback" not in log.read_text()
    finally:
        stop_server(process)


def test_two_processes_end_a_game_once(tmp_path: Path) -> None:
    database, now = tmp_path / "g.sqlite3", tmp_path / "now"
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    a, base_a = start_server(database, logs[0], simulated=now, extra=("--share-sqlite",))
    b, base_b = start_server(database, logs[1], simulated=now, extra=("--share-sqlite",))
    try:
        game_id, tokens = new_game(base_a, days=3)
        move(base_a, game_id, tokens["0"], 0, "b2")
        move(base_a, game_id, tokens["1"], 1, "c2")
        assert view_of(base_b, game_id)["version"] == 2  # both processes hold the game now
        simulate(now, 3 * DAY + 1)
        row = wait_for(lambda: (found := stored_row(database, game_id)).status == "over" and found)
        # Both processes are asked to move for Black, whose days are over: each refuses (the one whose copy
        # is behind finds its flag's fall already stored by the other, and reads the game again).
        for base in (base_b, base_a):
            status, answer = call(base, f"/api/games/{game_id}/moves", {"move": "d1", "token": tokens["0"], "version": 2})
            assert (status, answer["code"]) in ((409, "over"), (409, "stale"), (422, "illegal")), answer
            assert "over" in answer["error"] or "moved on" in answer["error"]
        after = stored_row(database, game_id)  # one loss on time, stored once
        assert after.version == row.version == 3 and len(after.moves) == 3 and after.moves[-1]["move"] == "resign"
        assert all("Traceback" not in log.read_text() for log in logs)
    finally:
        stop_server(a)
        stop_server(b)


class Page:
    """A browser tab on a game over the WebSocket, holding the seats of its tokens."""

    def __init__(self, base: str, game_id: str, tokens: list[str]):
        from websockets.sync.client import connect

        self._open = contextlib.ExitStack()
        address = base.replace("http://", "ws://") + f"/ws/g/{game_id}"
        self.socket = self._open.enter_context(connect(address, open_timeout=30, max_size=2**22))
        self.socket.send(json.dumps({"type": "here", "tokens": tokens}))

    def until(self, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == "state" and accept(message):
                return message

    def close(self) -> None:
        self._open.close()


def test_hostile_claims_aborts_and_days_are_refused_with_nothing_changed(tmp_path: Path) -> None:
    database, log, now = tmp_path / "g.sqlite3", tmp_path / "server.log", tmp_path / "now"
    process, base = start_server(database, log, simulated=now, extra=("--share-sqlite",))

    def refused(path: str, body: dict[str, Any], code: str, game_id: str) -> None:
        before = stored_row(database, game_id)
        status, answer = call(base, path, body)
        assert status in (403, 409, 422) and answer["code"] == code, (status, answer)
        assert "Traceback" not in json.dumps(answer)
        after = stored_row(database, game_id)
        unchanged = ("version", "status", "moves", "head", "clock")
        assert [getattr(after, name) for name in unchanged] == [getattr(before, name) for name in unchanged]

    try:
        # A live game between two browsers: White's page closes; Black may claim only after the grace period.
        game_id, tokens = new_game(base, days=0)
        black, white = Page(base, game_id, [tokens["0"]]), Page(base, game_id, [tokens["1"]])
        black.until(lambda view: view["present"] == [0, 1])
        move(base, game_id, tokens["0"], 0, "b2")
        white.close()
        seen = black.until(lambda view: [claim["seat"] for claim in view["claims"]] == [1])
        assert 55 <= seen["claims"][0]["in"] <= 60
        claim = f"/api/games/{game_id}/claim"
        refused(claim, {"token": tokens["0"], "version": 1, "seat": 1}, "too-early", game_id)
        refused(claim, {"token": tokens["0"], "version": 1, "seat": 0}, "no-claim", game_id)  # over its own seat
        refused(claim, {"token": tokens["1"], "version": 1, "seat": 0}, "no-claim", game_id)  # over a seat that is here
        refused(claim, {"token": "x" * 43, "version": 1, "seat": 1}, "bad-token", game_id)  # for a seat it does not hold
        refused(claim, {"token": tokens["0"], "version": 1, "seat": 7}, "invalid", game_id)
        refused(claim, {"token": tokens["0"], "version": 0, "seat": 1}, "stale", game_id)
        # Both have not moved yet, but the abort is for someone who holds a seat.
        refused(f"/api/games/{game_id}/abort", {"token": "y" * 43, "version": 1}, "bad-token", game_id)
        simulate(now, 61)
        status, view = call(base, claim, {"token": tokens["0"], "version": 1, "seat": 1})
        assert status == 200 and view["over"] and view["result"]["winner"] == "black", view
        black.close()

        # Aborting after both have moved is refused; before, it ends the game with no result.
        game_id, tokens = new_game(base, days=3)
        move(base, game_id, tokens["0"], 0, "b2")
        move(base, game_id, tokens["1"], 1, "c2")
        refused(f"/api/games/{game_id}/abort", {"token": tokens["1"], "version": 2}, "no-abort", game_id)
        refused(f"/api/games/{game_id}/claim", {"token": tokens["0"], "version": 2, "seat": 1}, "no-claim", game_id)
        game_id, tokens = new_game(base, days=3)
        move(base, game_id, tokens["0"], 0, "b2")
        status, view = call(base, f"/api/games/{game_id}/abort", {"token": tokens["1"], "version": 1})
        assert status == 200 and view["aborted"] and view["result"] is None
        assert stored_row(database, game_id).status == "aborted"
        refused(f"/api/games/{game_id}/moves", {"move": "c2", "token": tokens["1"], "version": 2}, "over", game_id)
        refused(f"/api/games/{game_id}/abort", {"token": tokens["0"], "version": 2}, "over", game_id)

        # A bad days value makes no game.
        for days in (4, 0, 15, "7", 3.5, None, True):
            status, answer = call(base, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 4}, "days": days})
            if days is None:
                assert status == 201  # no days: an untimed game
                continue
            assert status == 422 and answer["code"] == "invalid", (days, answer)
        assert "Traceback" not in log.read_text()
    finally:
        stop_server(process)
