"""A server killed mid-game (SIGKILL, no shutdown) loses nothing: a new server process on the same
SQLite file has every game and every move, and the seats' tokens still hold their seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from .serving import call, start_server, stop_server

pytestmark = pytest.mark.slow


def test_a_killed_server_loses_no_move(tmp_path: Path) -> None:
    database, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    process, base = start_server(database, log)
    try:
        status, created = call(base, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 5, "pie": True}})
        assert status == 201
        game_id, tokens = created["id"], created["tokens"]
        _, omega = call(base, "/api/games", {"game": "omega", "options": {"players": 2, "size": 4}})
        for version, (seat, move) in enumerate([("0", "c3"), ("1", "swap"), ("0", "a1")]):
            status, view = call(base, f"/api/games/{game_id}/moves", {"move": move, "token": tokens[seat], "version": version})
            assert status == 200, view
        call(base, f"/api/games/{omega['id']}/moves", {"move": "d1", "token": omega["tokens"]["0"], "version": 0})
        before = call(base, f"/api/games/{game_id}")[1]
    finally:
        stop_server(process, kill=True)
    assert process.returncode == -9
    process, base = start_server(database, log)
    try:
        status, after = call(base, f"/api/games/{game_id}")
        assert status == 200 and after == before
        assert [m["move"] for m in after["moves"]] == ["c3", "swap", "a1"]
        status, view = call(base, f"/api/games/{game_id}/moves", {"move": "e1", "token": tokens["0"], "version": 3})
        assert status == 409 and view["code"] == "not-your-turn"  # seat 1 holds White after the swap
        status, view = call(base, f"/api/games/{game_id}/moves", {"move": "e1", "token": tokens["1"], "version": 3})
        assert status == 200 and view["ply"] == 4
        status, view = call(base, f"/api/games/{omega['id']}")
        assert view["moves"] == [{"n": 1, "by": "white", "move": "d1"}] and view["to_move"] == "black"
    finally:
        stop_server(process)


def test_a_killed_server_keeps_undos_and_clocks(tmp_path: Path) -> None:
    import time

    database, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    process, base = start_server(database, log)
    try:
        _, timed = call(base, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 5}, "clock": {"minutes": 1}})
        game_id, tokens = timed["id"], timed["tokens"]
        for version, (seat, move) in enumerate([("0", "c3"), ("1", "a1"), ("0", "b2")]):
            status, view = call(base, f"/api/games/{game_id}/moves", {"move": move, "token": tokens[seat], "version": version})
            assert status == 200, view
        time.sleep(0.2)  # White thinks, then Black takes back b2: White's time is charged all the same
        status, view = call(base, f"/api/games/{game_id}/undo", {"token": tokens["0"], "version": 3})
        assert status == 200 and view["ply"] == 2 and view["version"] == 4
        clock = view["clock"]
        assert clock["running"] == 0 and clock["remaining"][1] < 59.9
    finally:
        stop_server(process, kill=True)
    down = time.time()
    process, base = start_server(database, log)
    try:
        status, view = call(base, f"/api/games/{game_id}")
        assert status == 200 and [m["move"] for m in view["moves"]] == ["c3", "a1"] and view["version"] == 4
        after = view["clock"]
        assert after["running"] == 0 and after["remaining"][1] == clock["remaining"][1]
        assert after["remaining"][0] <= clock["remaining"][0] - (time.time() - down) + 0.5  # it ran while the server was down
        status, view = call(base, f"/api/games/{game_id}/moves", {"move": "b2", "token": tokens["0"], "version": 4})
        assert status == 200 and view["clock"]["running"] == 1
    finally:
        stop_server(process)
