"""Storage faults, with `ogames serve` as a process driven over HTTP and WebSockets: database files
made unwritable, moved away or locked while it serves, and databases it cannot use at start (a
read-only URL or file, a missing folder, a file another program holds) — and a busy port.

While serving, every write the database refuses is answered 503 (`storage`) with the reason,
reads go on, the server stays up, nothing is changed, and it carries on once the fault is gone.
At start, what can be known is refused in one line with a non-zero exit. No traceback reaches the
log in any of these. (The unit tests of the store's faults are at the end.)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ogames
from ogames.web.core.store import Store
from ogames.web.core.store_faults import OneAtATime, StorageError

from .scaling import needs_services
from .serving import call, free_port, start_server, stop_server

pytestmark = pytest.mark.slow

OMNY = {"game": "omny", "options": {"variant": "y", "size": 5}}
# The bound on a refusal of a locked database: the server waits at most its busy timeout (2 s,
# Settings.database_busy_seconds) before answering; generous for a loaded machine. The measured
# figures are in benchmarks/results/storage_faults.jsonl (benchmarks/bench_storage_faults.py).
BUSY_BOUND = 15.0


class Immutable:
    """Files made immutable (`chattr +i`): nobody, root included, may write them, even through a
    descriptor opened before. Every file is made writable again at the end of the test."""

    def __init__(self) -> None:
        self.held: list[Path] = []

    def hold(self, path: Path) -> None:
        subprocess.run(["chattr", "+i", str(path)], check=True)
        self.held.append(path)

    def release(self, path: Path) -> None:
        subprocess.run(["chattr", "-i", str(path)], check=True)
        self.held.remove(path)


@pytest.fixture
def immutable(tmp_path: Path) -> Iterator[Immutable]:
    trial = tmp_path / "trial"
    trial.write_text("can this file be made immutable?")
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed: files cannot be made unwritable for root")
    if subprocess.run(["chattr", "+i", str(trial)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not permitted here (it needs root and a file system with immutable flags, such as ext4)")
    subprocess.run(["chattr", "-i", str(trial)], check=True)
    files = Immutable()
    try:
        yield files
    finally:
        for path in list(files.held):
            files.release(path)


@contextlib.contextmanager
def serving(database: Path, log: Path) -> Iterator[tuple[subprocess.Popen, str]]:
    process, base = start_server(database, log)
    try:
        yield process, base
    finally:
        stop_server(process)


def new_game(base: str) -> tuple[str, dict[str, str]]:
    status, created = call(base, "/api/games", OMNY)
    assert status == 201, created
    return created["id"], created["tokens"]


def move(base: str, game_id: str, token: str, version: int, cell: str) -> tuple[int, dict[str, Any]]:
    return call(base, f"/api/games/{game_id}/moves", {"move": cell, "token": token, "version": version})


def socket_move(base: str, game_id: str, token: str, version: int, cell: str) -> dict[str, Any]:
    """A move sent on the game's WebSocket: the first answer after the game's view (an error for
    this page, or the new view)."""
    from websockets.sync.client import connect

    with connect(base.replace("http://", "ws://") + f"/ws/g/{game_id}", open_timeout=30) as ws:
        first = json.loads(ws.recv(timeout=30))
        assert first["type"] == "state" and first["version"] == version
        ws.send(json.dumps({"type": "move", "move": cell, "token": token, "version": version}))
        while True:
            answer = json.loads(ws.recv(timeout=30))
            if answer["type"] == "error" or answer.get("version", version) > version:
                return answer


def stored(database: Path) -> tuple[int, dict[str, int]]:
    """(games stored, record entries per game), read once the server has stopped."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        games = db.execute("select count(*) from games").fetchone()[0]
        moves = dict(db.execute("select game_id, count(*) from moves group by game_id").fetchall())
    return games, moves


def assert_clean(log: Path) -> None:
    text = log.read_text()
    assert "Traceback" not in text and "Exception in ASGI" not in text, text[-3000:]


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----- while serving -------------------------------------------------------------------------


@pytest.mark.parametrize("part", ["database file", "write-ahead log"])
def test_an_unwritable_file_refuses_writes_and_the_server_carries_on(part: str, immutable: Immutable, tmp_path: Path) -> None:
    database, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    target = database if part == "database file" else database.with_name(database.name + "-wal")
    with serving(database, log) as (process, base):
        game_id, tokens = new_game(base)
        assert move(base, game_id, tokens["0"], 0, "c3")[0] == 200
        assert target.exists() and not database.with_name(database.name + "-shm").exists()  # no shared memory mapped
        immutable.hold(target)

        status, answer = call(base, "/api/games", OMNY)
        assert status == 503 and answer["code"] == "storage", answer
        assert answer["error"].startswith("the game could not be stored, so it was not made: the database's files")
        status, answer = move(base, game_id, tokens["1"], 1, "a1")
        assert status == 503 and answer["code"] == "storage"
        assert answer["error"].startswith("the move could not be stored, so it was not made")
        refused = socket_move(base, game_id, tokens["1"], 1, "a1")
        assert refused["type"] == "error" and refused["code"] == "storage"
        status, answer = call(base, "/api/omiga", {"options": {"width": 7, "height": 5}, "seats": [{"kind": "here"}]})
        assert status == 503 and answer["code"] == "storage"
        # Reading goes on: the game as it was, the lists read from the database, the pages.
        status, view = call(base, f"/api/games/{game_id}")
        assert status == 200 and view["version"] == 1 and [m["move"] for m in view["moves"]] == ["c3"]
        assert call(base, "/api/open-games")[0] == 200
        with urllib_get(base + "/") as page:
            assert page.status == 200

        immutable.release(target)  # the fault is gone: the same requests go through
        status, view = move(base, game_id, tokens["1"], 1, "a1")
        assert status == 200 and view["version"] == 2
        assert socket_move(base, game_id, tokens["0"], 2, "b2")["version"] == 3
        assert call(base, "/api/games", OMNY)[0] == 201
        assert process.poll() is None
    assert stored(database) == (2, {game_id: 3})  # the refused game and moves left no trace
    assert_clean(log)
    assert "could not be stored, so it was not made: the database's files cannot be written" in log.read_text()


def test_a_folder_made_unwritable_changes_nothing_for_open_files(immutable: Immutable, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    database, log = folder / "games.sqlite3", tmp_path / "server.log"
    with serving(database, log) as (process, base):
        game_id, tokens = new_game(base)
        immutable.hold(folder)  # no file can be made or removed there; the server's own files are open
        assert move(base, game_id, tokens["0"], 0, "c3")[0] == 200
        assert call(base, "/api/games", OMNY)[0] == 201
        immutable.release(folder)
        assert process.poll() is None
    assert stored(database) == (2, {game_id: 1})
    assert_clean(log)


def test_a_database_file_moved_away_stops_writes_until_it_is_back(tmp_path: Path) -> None:
    database, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    aside = tmp_path / "aside.sqlite3"
    with serving(database, log) as (process, base):
        game_id, tokens = new_game(base)
        database.rename(aside)  # what the server would write now would be lost with the old file
        status, answer = move(base, game_id, tokens["0"], 0, "c3")
        assert status == 503 and "was removed or moved while the server ran" in answer["error"]
        database.write_bytes(b"")  # another file in its place is not the server's file either
        status, answer = call(base, "/api/games", OMNY)
        assert status == 503 and "was replaced by another file" in answer["error"]
        assert call(base, f"/api/games/{game_id}")[1]["version"] == 0
        aside.replace(database)  # back where it was
        assert move(base, game_id, tokens["0"], 0, "c3")[0] == 200
        assert process.poll() is None
    assert stored(database) == (1, {game_id: 1})
    assert_clean(log)


def test_another_program_cannot_lock_the_file_while_the_server_holds_it(tmp_path: Path) -> None:
    """The server holds its SQLite file alone (EXCLUSIVE locking), so a program that wants it is
    refused at once and the server is never kept waiting by it."""
    database, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    with serving(database, log) as (process, base):
        game_id, tokens = new_game(base)
        with contextlib.closing(sqlite3.connect(database, timeout=0, isolation_level=None)) as other:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN EXCLUSIVE")
            started = time.monotonic()
            assert move(base, game_id, tokens["0"], 0, "c3")[0] == 200
            assert time.monotonic() - started < BUSY_BOUND
        assert process.poll() is None
    assert stored(database) == (1, {game_id: 1})
    assert_clean(log)


# ----- at start --------------------------------------------------------------------------------


def serve(*arguments: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """`ogames serve` on a free port, expected to stop by itself."""
    command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(free_port()), *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def assert_refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 1, output
    assert len(output.splitlines()) == 1 and output.startswith("error:"), output
    assert "Traceback" not in output and "open http" not in output
    for word in words:
        assert word in output, output


@pytest.fixture
def existing(tmp_path: Path) -> Path:
    """A database with one game, made by a store that has let it go."""
    path = tmp_path / "games.sqlite3"
    store = Store(f"sqlite:///{path}")
    record = ogames.load("omny", variant="y", size=3).new_state().record()
    store.create_game("g", "omny", "hotseat", ["human", "human"], record, {})
    store.close()
    return path


def test_a_read_only_url_is_refused_at_start(existing: Path) -> None:
    before = fingerprint(existing)
    result = serve("--database", f"sqlite:///file:{existing}?mode=ro&uri=true")
    assert_refused(result, "the database is read-only", "the URL opens it read-only")
    assert fingerprint(existing) == before


def test_a_file_that_cannot_be_written_is_refused_at_start(existing: Path, immutable: Immutable) -> None:
    before = fingerprint(existing)
    immutable.hold(existing)
    result = serve("--database", f"sqlite:///{existing}")
    assert_refused(result, "the database's files cannot be written", "attributes (chattr +i) forbid writing")
    immutable.release(existing)
    assert fingerprint(existing) == before


def test_a_missing_folder_is_refused_at_start_and_not_made(tmp_path: Path) -> None:
    result = serve("--database", f"sqlite:///{tmp_path / 'no' / 'such' / 'games.sqlite3'}")
    assert_refused(result, f"the folder {tmp_path / 'no' / 'such'} does not exist")
    assert not (tmp_path / "no").exists()
    (tmp_path / "plain").write_text("a file, not a folder")
    assert_refused(serve("--database", f"sqlite:///{tmp_path / 'plain' / 'games.sqlite3'}"), "plain is not a folder")


def test_a_file_another_program_holds_is_refused_at_start(existing: Path) -> None:
    with contextlib.closing(sqlite3.connect(existing, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")
        started = time.monotonic()
        result = serve("--database", f"sqlite:///{existing}")
        waited = time.monotonic() - started
        other.execute("ROLLBACK")
    assert_refused(result, "another program is using it", "database is locked")
    assert waited < BUSY_BOUND + 30  # the busy timeout, plus starting Python on a loaded machine


def test_a_busy_port_is_told_before_the_address(existing: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(port), "--database", f"sqlite:///{existing}"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert_refused(result, f"port {port} on 127.0.0.1 is in use", "--port")


def test_several_workers_on_one_sqlite_file_are_refused(existing: Path) -> None:
    result = serve("--database", f"sqlite:///{existing}", "--workers", "2", "--redis", "redis://127.0.0.1:1/0")
    assert_refused(result, "several workers need a database server")


# ----- PostgreSQL: a lock held by another client -------------------------------------------------


@needs_services
def test_a_row_locked_by_another_client_answers_busy_at_once(services: tuple[Any, Any], tmp_path: Path) -> None:
    import psycopg

    pg, _ = services
    url = pg.new_database("storage_faults_lock")
    log = tmp_path / "server.log"
    process, base = start_server(url, log)
    try:
        game_id, tokens = new_game(base)
        with psycopg.connect(url.replace("+psycopg", "")) as other:  # a transaction kept open, the game's row locked
            other.execute("SELECT version FROM games WHERE id = %s FOR UPDATE", (game_id,))
            started = time.monotonic()
            status, answer = move(base, game_id, tokens["0"], 0, "c3")
            waited = time.monotonic() - started
            assert status == 503 and answer["code"] == "storage" and "the database is busy" in answer["error"], answer
            assert waited < BUSY_BOUND
            assert call(base, f"/api/games/{game_id}")[1]["version"] == 0  # reading is not held up
            other.rollback()
        status, view = move(base, game_id, tokens["0"], 0, "c3")
        assert status == 200 and view["version"] == 1
        assert process.poll() is None
    finally:
        stop_server(process)
    assert_clean(log)


# ----- the store's own faults (no server) --------------------------------------------------------


def occupy(turns: OneAtATime) -> tuple[threading.Thread, threading.Event]:
    """A call that holds the turn until the returned event is set (once it has started)."""
    started, release = threading.Event(), threading.Event()

    def slow() -> None:
        started.set()
        release.wait(30)

    holder = threading.Thread(target=turns.run, args=(slow,))
    holder.start()
    assert started.wait(30)
    return holder, release


def test_a_call_that_waits_too_long_for_its_turn_is_refused_without_running() -> None:
    turns = OneAtATime(patience=0.2)
    ran: list[str] = []
    holder, release = occupy(turns)
    try:
        with pytest.raises(StorageError) as refused:
            turns.run(ran.append, "late")
        assert refused.value.kind == "busy" and "try again" in str(refused.value)
    finally:
        release.set()
        holder.join()
    assert turns.run(lambda: "in turn") == "in turn" and ran == []  # the refused call never ran
    turns.close()


def test_a_store_kept_busy_refuses_a_move_and_stores_nothing(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}", busy_seconds=0.2)
    state = ogames.load("omny", variant="y", size=3).new_state()
    store.create_game("g", "omny", "hotseat", ["human", "human"], state.record(), {})
    state.play("b2")
    assert store.turns is not None
    holder, release = occupy(store.turns)
    try:
        with pytest.raises(StorageError) as refused:
            store.add_action("g", 0, state.record(), 0)
        assert refused.value.kind == "busy"
    finally:
        release.set()
        holder.join()
    assert store.move_count("g") == 0
    store.add_action("g", 0, state.record(), 0)
    assert store.move_count("g") == 1
    store.close()


def test_reads_a_busy_database_cannot_serve_are_answered_503(tmp_path: Path) -> None:
    """In process: the store's one connection taken by a slow call, every page and answer that
    must read the database says so (503) instead of waiting or failing with 500."""
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from ogames.web import create_app

    from .conftest import quick_settings

    with TestClient(create_app(quick_settings(tmp_path / "games.sqlite3", database_busy_seconds=0.2))) as client:
        store = client.app.state.store
        record = ogames.load("omny", variant="y", size=3).new_state().record()
        store.create_game("stored", "omny", "hotseat", ["human", "human"], record, {})  # not in the server's memory
        holder, release = occupy(store.turns)
        try:
            for path in ("/api/open-games", "/api/games/stored", "/api/omiga/stored"):
                answer = client.get(path)
                assert answer.status_code == 503 and answer.json()["code"] == "storage", answer.text
                assert "the database is busy" in answer.json()["error"]
            health = client.get("/api/health")  # what a monitor sees meanwhile
            assert health.status_code == 503 and health.json()["database"] == "down", health.text
            for path in ("/", "/g/stored", "/o/stored"):
                page = client.get(path)
                assert page.status_code == 503 and "the database is busy" in page.text
            with client.websocket_connect("/ws/g/stored") as ws:
                message = ws.receive_json()
                assert message["type"] == "error" and message["code"] == "storage"
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()
        finally:
            release.set()
            holder.join()
        assert client.get("/api/games/stored").status_code == 200  # and once it is free again
        health = client.get("/api/health")
        assert health.status_code == 200, health.text
        assert health.json() == {"status": "ok", "database": "ok", "redis": "off", "live": {"games": 1, "tables": 0}}


def urllib_get(address: str) -> Any:
    import urllib.request

    return urllib.request.urlopen(address, timeout=30)
