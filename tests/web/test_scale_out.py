"""Several server processes behind one PostgreSQL and one Redis (docs/web.md, "Scale-out").

Debian's PostgreSQL and Redis are started by hand in a temporary folder (tools/local_services.py;
`.ci/run` installs them). Two `ogames serve` processes on loopback share them; each game's seats
sit on different processes, every move is seen at once on the other one, a process killed with
SIGKILL mid-game costs nothing, and the database holds every acknowledged move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ogames

from .scaling import needs_services
from .serving import call, start_server, stop_server

pytestmark = pytest.mark.slow

# Deadlines of the waits below: generous, as a busy machine is slow. The computer's first move on
# a server process starts its worker process (imports, compiled kernels): half a minute and more
# on a loaded two-core machine, where it takes a few seconds alone.
VIEW_WAIT = 60.0
COMPUTER_WAIT = 300.0


class Seat:
    """One person's browser tab: a WebSocket to one server process, holding one seat's token."""

    def __init__(self, base: str, game_id: str, seat: int, token: str | None):
        from websockets.sync.client import connect

        self.base, self.game_id, self.seat, self.token = base, game_id, seat, token
        self.sent_at = 0.0
        self._open = contextlib.ExitStack()
        address = base.replace("http://", "ws://") + f"/ws/g/{game_id}"
        self.socket = self._open.enter_context(connect(address, open_timeout=30, max_size=2**22))
        self.view: dict[str, Any] = {}
        self.view = self.until(0)

    def until(self, version: int, timeout: float = VIEW_WAIT) -> dict[str, Any]:
        """The view at `version` or later: the one held, or the next to come (errors fail the test)."""
        if self.view and self.view["version"] >= version:
            return self.view
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            assert message["type"] != "error", message
            if message["type"] == "state" and message["version"] >= version:
                self.view = message
                return message

    def until_seen(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = VIEW_WAIT) -> dict[str, Any]:
        """The view held, or the first one sent after it, that is `wanted` (errors fail the test)."""
        deadline = time.monotonic() + timeout
        while not wanted(self.view):
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            assert message["type"] != "error", message
            if message["type"] == "state":
                self.view = message
        return self.view

    def move(self, move: str) -> None:
        # A person moves a few times a second at most, and the server's per-connection rate limit
        # (10 messages a second) says so: keep each tab under it.
        time.sleep(max(0.0, self.sent_at + 0.12 - time.monotonic()))
        self.sent_at = time.monotonic()
        self.socket.send(json.dumps({"type": "move", "move": move, "token": self.token, "version": self.view["version"]}))

    def close(self) -> None:
        self._open.close()


def _pick(view: dict[str, Any], rng: random.Random) -> str:
    return rng.choice(view["legal"])


def stored_moves(url: str, game_id: str) -> list[str]:
    """The moves of a game as the database holds them."""
    from ogames.web.core.store import Store

    store = Store(url)
    try:
        row = store.load_game(game_id)
        assert row is not None
        return [entry["move"] for entry in row.moves]
    finally:
        store.close()


@needs_services
def test_two_workers_play_across_and_a_killed_one_loses_nothing(services: tuple[Any, Any], tmp_path: Path) -> None:
    pg, redis = services
    url = pg.new_database("two_workers")
    rng = random.Random(7)
    a, base_a = start_server(url, tmp_path / "a.log", redis=redis.url)
    b, base_b = start_server(url, tmp_path / "b.log", redis=redis.url)
    restarted = None
    seats: list[list[Seat]] = []
    played: dict[str, list[str]] = {}
    seen_across: list[float] = []
    try:
        games = [call(base_a, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 6}})[1] for _ in range(2)]
        games.append(call(base_b, "/api/games", {"game": "onyx", "options": {}})[1])
        for game in games:
            assert game["id"], game
            seats.append([Seat(base_a, game["id"], 0, game["tokens"]["0"]), Seat(base_b, game["id"], 1, game["tokens"]["1"])])
            played[game["id"]] = []

        def play_round(pair: list[Seat]) -> None:
            """The mover plays; both tabs, on their different processes, see it at once."""
            mover = pair[pair[0].view["mover"]]
            version, move = mover.view["version"], _pick(mover.view, rng)
            sent = time.perf_counter()
            mover.move(move)
            for seat in pair:
                view = seat.until(version + 1)
                if seat is not mover:
                    seen_across.append(time.perf_counter() - sent)
                assert view["version"] == version + 1 and view["moves"][-1]["move"] == move
            played[mover.game_id].append(move)

        for _ in range(4):
            for pair in seats:
                play_round(pair)

        # Kill worker A mid-game, right after a move was sent to it: that move may or may not be
        # stored, but it was never acknowledged; the people move to worker B and go on.
        first = seats[0]
        to_move = first[first[0].view["mover"]]
        if to_move.base == base_a:
            to_move.move(_pick(to_move.view, rng))
        stop_server(a, kill=True)
        assert a.returncode == -9
        for pair in seats:
            for index, seat in enumerate(pair):
                if seat.base == base_a:
                    seat.close()
                    pair[index] = Seat(base_b, seat.game_id, seat.seat, seat.token)
            # The reconnected tab's first view is what the database holds, even when A stored the
            # unacknowledged move and died before telling B (B reads the stored version when a
            # page opens; test_hub_bus.py shows that case alone).
            stored = stored_moves(url, pair[0].game_id)
            fresh = pair[0].view
            assert [m["move"] for m in fresh["moves"]] == stored
            assert stored[: len(played[pair[0].game_id])] == played[pair[0].game_id]
            assert len(stored) <= len(played[pair[0].game_id]) + 1
            played[pair[0].game_id] = stored  # with the unacknowledged move, if it was stored
            pair[1].until(fresh["version"])  # the tab on B sees it too
        for pair in seats:
            play_round(pair)

        # A new worker on another port; seat 1 of every game moves to it: the seats are split again.
        restarted, base_c = start_server(url, tmp_path / "c.log", redis=redis.url)
        for pair in seats:
            pair[1].close()
            pair[1] = Seat(base_c, pair[1].game_id, 1, pair[1].token)
            pair[0].until(pair[1].view["version"])
        for pair in seats:
            while not pair[0].view["over"]:
                play_round(pair)
            assert pair[1].view["over"] and pair[1].view["result"] == pair[0].view["result"]
    finally:
        for pair in seats:
            for seat in pair:
                seat.close()
        for process in (a, b, restarted):
            if process is not None:
                stop_server(process)

    # Every acknowledged move is in the database, in order, and every game replays to its end.
    from ogames.web.core.store import Store

    store = Store(url)
    try:
        for game_id, moves in played.items():
            row = store.load_game(game_id)
            assert row is not None
            assert [entry["move"] for entry in row.moves] == moves
            assert ogames.replay(row.record()).is_over and row.status == "over"
    finally:
        store.close()
    assert max(seen_across) < 5.0, seen_across  # "at once", with room for a busy machine
    for log in ("b.log", "c.log"):
        assert "Traceback" not in (tmp_path / log).read_text()


@needs_services
def test_a_page_opening_after_a_process_died_untold_sees_the_stored_move(services: tuple[Any, Any], tmp_path: Path) -> None:
    """A process that stored a move and was killed before publishing it: the other process's copy
    is a move behind. The page that reconnects there (the mover's, whose process died) is shown the
    stored move, and so is the page that was there all along — it is its turn now. (The dying
    process is played by this test: it stores the move with the store and tells nobody.)"""
    from ogames.web.core.store import Store

    pg, redis = services
    url = pg.new_database("stored_untold")
    b, base_b = start_server(url, tmp_path / "b.log", redis=redis.url)
    tabs: list[Seat] = []
    try:
        status, game = call(base_b, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 5}})
        assert status == 201, game
        waiting = Seat(base_b, game["id"], 1, game["tokens"]["1"])  # B holds the game live for this page
        tabs.append(waiting)
        store = Store(url)
        try:
            row = store.load_game(game["id"])
            assert row is not None and row.version == 0
            state = ogames.replay(row.record())
            state.play("c3")
            store.add_action(game["id"], 0, state.record(), 0)
        finally:
            store.close()
        mover = Seat(base_b, game["id"], 0, game["tokens"]["0"])
        tabs.append(mover)
        assert mover.view["version"] == 1 and [m["move"] for m in mover.view["moves"]] == ["c3"]
        assert waiting.until(1)["mover"] == 1 and "c3" in waiting.view["stones"]
        waiting.move("a1")  # and the game goes on from there
        assert mover.until(2)["moves"][-1]["move"] == "a1"
    finally:
        for tab in tabs:
            tab.close()
        stop_server(b)
    assert "Traceback" not in (tmp_path / "b.log").read_text()


@needs_services
def test_the_computer_moves_once_when_two_workers_hold_its_game(services: tuple[Any, Any], tmp_path: Path) -> None:
    pg, redis = services
    url = pg.new_database("computer_two_workers")
    a, base_a = start_server(url, tmp_path / "a.log", redis=redis.url)
    b, base_b = start_server(url, tmp_path / "b.log", redis=redis.url)
    tabs: list[Seat] = []
    try:
        new = {"game": "omny", "options": {"variant": "y", "size": 5}, "mode": "ai", "level": "easy"}
        status, game = call(base_a, "/api/games", new)
        assert status == 201, game
        person = Seat(base_a, game["id"], 0, game["tokens"]["0"])
        watcher = Seat(base_b, game["id"], 1, None)  # the same game is live on worker B as well
        tabs += [person, watcher]
        rng = random.Random(3)
        for _ in range(3):
            version = person.view["version"]
            person.move(_pick(person.view, rng))
            for tab in tabs:
                view = tab.until(version + 2, timeout=COMPUTER_WAIT)  # the person's move and the computer's answer
                assert view["problem"] is None and view["version"] == version + 2, view
                if view["over"]:
                    break
            if person.view["over"]:
                break
        status, final = call(base_b, f"/api/games/{game['id']}")
        assert final["version"] == person.view["version"] and final["problem"] is None
        assert final["moves"] == person.view["moves"]
    finally:
        for tab in tabs:
            tab.close()
        stop_server(a)
        stop_server(b)
    # With both workers stopped nothing more can be stored: the database holds exactly the moves
    # the person saw, one computer answer to each of their moves.
    assert stored_moves(url, game["id"]) == [m["move"] for m in person.view["moves"]]
    logs = (tmp_path / "a.log").read_text() + (tmp_path / "b.log").read_text()
    assert "could not move" not in logs and "Traceback" not in logs


@needs_services
def test_the_migrations_run_on_postgresql_both_ways(services: tuple[Any, Any]) -> None:
    from alembic import command
    from sqlalchemy import JSON, Float, Integer, String, inspect

    from ogames.web.core.store import Store, alembic_config

    pg, _ = services
    store = Store(pg.new_database("migrations"))
    try:
        columns = {column["name"]: column["type"] for column in inspect(store.engine).get_columns("games")}
        assert isinstance(columns["head"], JSON) and isinstance(columns["seat_kinds"], JSON)
        assert isinstance(columns["version"], Integer) and isinstance(columns["id"], String)
        assert isinstance(columns["updated_at"], Float)  # double precision: times to the microsecond
        entry = {c["name"]: c["type"] for c in inspect(store.engine).get_columns("moves")}["entry"]
        assert isinstance(entry, JSON)
        record = ogames.load("omny", variant="y", size=4).new_state(["a", "b"]).record()
        store.create_game("g1", "omny", "hotseat", ["human", "human"], record, {0: "t0"})
        state = ogames.replay(record)
        state.play("a1")
        store.add_action("g1", 0, state.record(), 0)
        row = store.load_game("g1")
        assert row is not None and row.version == 1 and row.moves == state.record()["moves"]
        assert ogames.replay(row.record()).ply == 1
        command.downgrade(alembic_config(store.engine), "base")
        assert set(inspect(store.engine).get_table_names()) <= {"alembic_version"}
        command.upgrade(alembic_config(store.engine), "head")
        assert {"games", "moves", "seat_tokens"} <= set(inspect(store.engine).get_table_names())
    finally:
        store.close()


@needs_services
def test_the_bus_carries_actions_to_the_other_process_and_one_claim_wins(services: tuple[Any, Any]) -> None:
    from ogames.web.core.bus import RedisBus

    _, redis = services

    async def scenario() -> None:
        lease = 2.0  # seconds; renewed every lease / 4 while the holder thinks
        one, two = RedisBus(redis.url, lease_seconds=lease), RedisBus(redis.url, lease_seconds=lease)
        heard: list[tuple[str, str, int, dict[str, Any]]] = []

        def listener(name: str) -> Any:
            async def hear(game_id: str, version: int, action: dict[str, Any]) -> None:
                heard.append((name, game_id, version, action))

            return hear

        async def nothing() -> None:
            return None

        async def until(condition: Any, timeout: float = 20.0) -> None:
            deadline = time.monotonic() + timeout
            while not await condition():
                assert time.monotonic() < deadline, "the condition did not hold in time"
                await asyncio.sleep(0.02)  # a poll

        async def both_subscribed() -> bool:  # (PUBSUB NUMPAT counts patterns, not subscribers)
            return sum(int(client.get("psub", 0)) > 0 for client in await one.redis.client_list()) >= 2

        async def free(key: str) -> bool:
            return not await one.redis.exists(key)

        async def anything_heard() -> bool:
            return bool(heard)

        await one.start(listener("one"), nothing)
        await two.start(listener("two"), nothing)
        await until(both_subscribed)
        await one.publish("g1", 3, {"move": "c3"})
        await until(anything_heard)
        assert heard == [("two", "g1", 3, {"move": "c3"})]  # a process does not hear itself

        thinking = True
        assert await one.claim("g1", 4, lambda: thinking)
        assert not await two.claim("g1", 4, lambda: True)
        await asyncio.sleep(lease * 1.5)  # time passes beyond the lease: the holder renews it while it thinks
        assert not await two.claim("g1", 4, lambda: True)
        thinking = False
        await until(lambda: free("ogames:turn:g1:4"))  # the holder gives it up when done
        assert await two.claim("g1", 4, lambda: False)

        assert await one.claim("g1", 9, lambda: True)
        await one.close()  # the holder dies: its lease lapses
        await until(lambda: free("ogames:turn:g1:9"), timeout=lease * 5)
        assert await two.claim("g1", 9, lambda: False)
        await two.close()

    asyncio.run(scenario())


@needs_services
def test_serve_workers_share_one_port_and_every_worker_sees_every_move(services: tuple[Any, Any], tmp_path: Path) -> None:
    pg, redis = services
    url = pg.new_database("workers_on_one_port")
    process, base = start_server(url, tmp_path / "w.log", redis=redis.url, extra=("--workers", "2"))
    try:
        status, game = call(base, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 5}})
        assert status == 201
        # Each request goes to whichever worker accepts it (the kernel decides): mostly both.
        views = [call(base, f"/api/games/{game['id']}")[1] for _ in range(12)]
        assert {view["version"] for view in views} == {0}
        status, moved = call(base, f"/api/games/{game['id']}/moves", {"move": "a1", "token": game["tokens"]["0"], "version": 0})
        assert status == 200 and moved["version"] == 1
        views = [call(base, f"/api/games/{game['id']}")[1] for _ in range(12)]
        assert {view["version"] for view in views} == {1} and all(view["moves"] == moved["moves"] for view in views)
        status, health = call(base, "/api/health")  # a monitor's check: both services reached
        assert status == 200 and (health["database"], health["redis"]) == ("ok", "ok"), health
    finally:
        stop_server(process)
    output = (tmp_path / "w.log").read_text()
    assert "2 workers" in output and output.count("Started server process") == 2


def test_serve_refuses_missing_drivers_and_lone_workers_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ogames.cli.app import app as cli

    sqlite = f"sqlite:///{tmp_path}/games.sqlite3"
    runner = CliRunner()
    result = runner.invoke(cli, ["serve", "--database", sqlite, "--workers", "2", "--port", "8199"])
    assert result.exit_code == 1 and "several workers need --redis" in result.output
    result = runner.invoke(cli, ["serve", "--database", sqlite, "--redis", "redis://127.0.0.1:1/0", "--port", "8199"])
    assert result.exit_code == 1 and "cannot use Redis" in result.output and "Traceback" not in result.output
    monkeypatch.setitem(sys.modules, "redis", None)  # as if the driver were not installed
    monkeypatch.setitem(sys.modules, "psycopg", None)
    result = runner.invoke(cli, ["serve", "--database", sqlite, "--redis", "redis://:secret@127.0.0.1:1/0", "--port", "8199"])
    assert result.exit_code == 1 and "pip install 'ogames[scale]'" in result.output and "secret" not in result.output
    result = runner.invoke(cli, ["serve", "--database", "postgresql://u:secret@127.0.0.1:1/db", "--port", "8199"])
    assert result.exit_code == 1 and "not installed" in result.output and "ogames[scale]" in result.output
    assert "secret" not in result.output and len(result.output.strip().splitlines()) <= 2


@needs_services
def test_processes_starting_at_once_on_a_new_database_take_turns_to_migrate(services: tuple[Any, Any]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import inspect

    from ogames.web.core.store import Store

    pg, _ = services
    url = pg.new_database("migrating_at_once")
    pool = ThreadPoolExecutor(4)
    starting = [pool.submit(Store, url) for _ in range(4)]
    try:
        stores = [future.result(timeout=60) for future in starting]  # no "relation already exists", no deadlock
    finally:
        pool.shutdown(wait=False)
    try:
        assert {"games", "moves", "seat_tokens"} <= set(inspect(stores[0].engine).get_table_names())
    finally:
        for store in stores:
            store.close()
