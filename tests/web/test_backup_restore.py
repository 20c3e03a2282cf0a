"""The backup and restore of docs/deploy.md, done exactly as written there, on a running site.

A game is played on a server; the site is backed up while it runs (PostgreSQL: `pg_dump`;
SQLite: the `sqlite3` shell's online `.backup` of a file served with `--share-sqlite`); a move made
after the backup is what a restore loses; the database is restored into a new one and a new
server on it shows the game as it was at the backup, and its seat token and invitation link still
work — a restored site is the same site for the people who hold links to it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .scaling import local_services, needs_services
from .serving import call, start_server, stop_server

pytestmark = pytest.mark.slow


def _start_a_game(base: str) -> dict[str, Any]:
    """A new game of Y 5 with one seat here and one invited (its link carries the seat's token)."""
    status, game = call(base, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 5}, "seats": ["here", "invite"]})
    assert status == 201, game
    return game


def _move(base: str, game_id: str, token: str, move: str) -> tuple[int, dict[str, Any]]:
    status, view = call(base, f"/api/games/{game_id}", None)
    assert status == 200, view
    return call(base, f"/api/games/{game_id}/moves", {"move": move, "token": token, "version": view["version"]})


def _play_two(base: str, game: dict[str, Any]) -> list[str]:
    """A move by the creator's seat and one by the invited seat."""
    for token, move in ((game["tokens"]["0"], "a1"), (game["invitations"]["1"]["token"], "c3")):
        status, view = _move(base, game["id"], token, move)
        assert status == 200, view
    return ["a1", "c3"]


def _check_restored(base: str, game: dict[str, Any], played: list[str]) -> None:
    """The restored site holds the game as it was at the backup, and both links still work."""
    status, view = call(base, f"/api/games/{game['id']}", None)
    assert status == 200, view
    assert [entry["move"] for entry in view["moves"]] == played
    mine, invited = game["tokens"]["0"], game["invitations"]["1"]["token"]
    status, refused = _move(base, game["id"], invited, "e1")  # not the invited seat's turn
    assert status == 409 and refused["code"] == "not-your-turn", refused
    assert _move(base, game["id"], mine, "e1")[0] == 200
    status, view = _move(base, game["id"], invited, "b2")
    assert status == 200 and [entry["move"] for entry in view["moves"]] == [*played, "e1", "b2"], view


@needs_services
def test_postgresql_backup_with_pg_dump_and_restore_with_pg_restore(tmp_path: Path) -> None:
    with local_services.postgres() as pg:
        url = pg.new_database("site")
        server, base = start_server(url, tmp_path / "server.log")
        try:
            game = _start_a_game(base)
            played = _play_two(base, game)
            dump = tmp_path / "ogames.dump"
            # docs/deploy.md: pg_dump --format=custom while the site runs.
            connection = ["--host", "127.0.0.1", "--port", str(pg.port), "--username", "postgres"]
            subprocess.run(
                [str(_pg_program("pg_dump")), *connection, "--format=custom", "--file", str(dump), "site"],
                check=True,
                capture_output=True,
            )
            assert _move(base, game["id"], game["tokens"]["0"], "b2")[0] == 200  # after the backup: lost by the restore
        finally:
            stop_server(server)
        restored = pg.new_database("restored")
        subprocess.run(
            [str(_pg_program("pg_restore")), *connection, "--no-owner", "--dbname", "restored", str(dump)],
            check=True,
            capture_output=True,
        )
        assert restored.endswith("/restored")
        server, base = start_server(restored, tmp_path / "restored.log")
        try:
            _check_restored(base, game, played)
        finally:
            stop_server(server)


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="the sqlite3 shell is not installed (apt-get install sqlite3)")
def test_sqlite_online_backup_of_a_shared_file_and_restore_by_copy(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    server, base = start_server(database, tmp_path / "server.log", extra=("--share-sqlite",))
    try:
        game = _start_a_game(base)
        played = _play_two(base, game)
        backup = tmp_path / "backup.sqlite"
        # docs/deploy.md: the sqlite3 shell's online backup, while the site runs with --share-sqlite.
        subprocess.run(["sqlite3", str(database), f".backup '{backup}'"], check=True, capture_output=True)
        assert _move(base, game["id"], game["tokens"]["0"], "b2")[0] == 200  # after the backup: lost by the restore
    finally:
        stop_server(server)
    restored = tmp_path / "restored.sqlite"
    shutil.copyfile(backup, restored)
    server, base = start_server(restored, tmp_path / "restored.log")
    try:
        _check_restored(base, game, played)
    finally:
        stop_server(server)


def _pg_program(name: str) -> Path:
    folder = local_services.postgres_bin()
    assert folder is not None
    return folder / name
