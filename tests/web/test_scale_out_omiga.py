"""Omiga's real-time tables and who is at a table across server processes (docs/web.md, "Scale-out").

Two `ogames serve` processes share one PostgreSQL and one Redis (tools/local_services.py). A
table's two people sit on different processes: the one that created the table referees it, the
other relays (web/omiga/relay.py). Both see every card land; refusals from the relaying process
come back with the referee's reason; the referee killed with SIGKILL is replaced by the other
process, which rebuilds the table from the database, and every acknowledged card is there.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .scaling import needs_services
from .serving import call, start_server, stop_server

pytestmark = [pytest.mark.slow, needs_services]

LEASE = 2.0  # seconds: a killed referee's table is taken over within about this
SMALL: dict[str, Any] = {}  # the default table, dealt from DEAL: long enough a game for every step below
DEAL = 3
TWO_PEOPLE = [{"kind": "here"}, {"kind": "invite"}]


class Tab:
    """One browser tab on an Omiga table: a WebSocket to one server process, holding some seats."""

    def __init__(self, base: str, table_id: str, tokens: dict[int, str]):
        from websockets.sync.client import connect

        self.base, self.tokens = base, tokens
        self._open = contextlib.ExitStack()
        address = base.replace("http://", "ws://") + f"/ws/o/{table_id}"
        self.socket = self._open.enter_context(connect(address, open_timeout=30, max_size=2**22))
        self.view: dict[str, Any] = {}
        self.verdicts: dict[int, dict[str, Any]] = {}
        self.until(lambda view: True)
        if tokens:
            self.socket.send(json.dumps({"type": "ready", "tokens": list(tokens.values())}))

    def _receive(self, timeout: float) -> None:
        message = json.loads(self.socket.recv(timeout=max(0.01, timeout)))
        if message["type"] == "state":
            self.view = message
        elif message["type"] == "verdict":
            self.verdicts[message["seq"]] = message
        else:
            raise AssertionError(message)

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 20.0) -> dict[str, Any]:
        """The view held if it is `wanted`, else the next one that is."""
        deadline = time.monotonic() + timeout
        while not (self.view and wanted(self.view)):
            self._receive(deadline - time.monotonic())
        return self.view

    def act(self, seat: int, action: str, seq: int, token: str | None = None) -> None:
        message = {"type": "act", "action": action, "token": token or self.tokens[seat], "seq": seq}
        self.socket.send(json.dumps(message))

    def verdict(self, seq: int, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while seq not in self.verdicts:
            self._receive(deadline - time.monotonic())
        return self.verdicts.pop(seq)

    def close(self) -> None:
        self._open.close()


def spot(view: dict[str, Any], seat: int) -> str:
    """A legal action of a seat, as the page would send it: a card that fits, else a discard."""
    for card in view["seats"][seat]["hand"]:
        for cell, turned in card["spots"]:
            return f"{card['act']} {cell}" + (" turned" if turned else "")
    assert "discard" in view["seats"][seat]["actions"], view["seats"][seat]
    return "discard"


def new_table(base: str) -> tuple[str, dict[int, str]]:
    status, body = call(base, "/api/omiga", {"options": SMALL, "seats": TWO_PEOPLE})
    assert status == 201, body
    tokens = {int(seat): token for seat, token in body["tokens"].items()}
    for seat, link in body["invitations"].items():
        tokens[int(seat)] = link.split(f"seats={seat}.")[1]
    return body["id"], tokens


@pytest.fixture
def two_workers(services: tuple[Any, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Two server processes on one new database and the module's Redis, with a short lease."""
    pg, redis = services
    monkeypatch.setenv("OGAMES_BUS_LEASE", str(LEASE))  # the servers inherit the environment
    url = pg.new_database(f"omiga_{tmp_path.name[-20:].replace('-', '_').lower()}")
    started: list[Any] = []
    try:
        for name in ("a", "b"):
            started.append(start_server(url, tmp_path / f"{name}.log", redis=redis.url, deal=DEAL))
        yield [url, redis.url, tmp_path, *started]
    finally:
        for process, _ in started:
            stop_server(process)


def test_who_is_at_a_table_is_the_same_on_every_process(two_workers: list[Any]) -> None:
    _, _, _, (_, base_a), (_, base_b) = two_workers
    table_id, tokens = new_table(base_a)  # refereed by A
    on_a = Tab(base_a, table_id, {})  # a watcher on A
    on_b = Tab(base_b, table_id, {1: tokens[1]})  # seat 1's person, on B
    try:
        seen = on_a.until(lambda view: view["seats"][1]["ready"])
        assert not seen["seats"][0]["ready"] and seen["pages"] == 2 and not seen["started"]
        # and the other way: seat 0 comes on A; B's page shows it (and the signal counts down)
        seat0 = Tab(base_a, table_id, {0: tokens[0]})
        assert on_b.until(lambda view: view["seats"][0]["ready"])["pages"] == 3
        seat0.close()
        on_b.until(lambda view: not view["seats"][0]["ready"] and view["pages"] == 2)
        on_b.close()  # seat 1's page closes on B: A shows nobody at seat 1 any more
        gone = on_a.until(lambda view: not view["seats"][1]["ready"])
        assert gone["pages"] == 1
    finally:
        on_a.close()
        on_b.close()


def test_who_is_at_a_board_game_is_the_same_on_every_process(two_workers: list[Any]) -> None:
    from websockets.sync.client import connect

    _, _, _, (_, base_a), (_, base_b) = two_workers
    body = {"game": "omny", "options": {"variant": "y", "size": 5}, "seats": ["here", "invite"]}
    status, game = call(base_a, "/api/games", body)
    assert status == 201, game

    def until(socket: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = json.loads(socket.recv(timeout=20))
            if message["type"] == "state" and wanted(message):
                return message

    with connect(base_b.replace("http://", "ws://") + f"/ws/g/{game['id']}") as on_b:
        with connect(base_a.replace("http://", "ws://") + f"/ws/g/{game['id']}") as on_a:
            on_a.send(json.dumps({"type": "here", "tokens": [game["tokens"]["0"]]}))
            assert until(on_b, lambda view: view["present"] == [0])["pages"] == 2
        assert until(on_b, lambda view: view["present"] == [])["pages"] == 1


def test_a_dead_processes_pages_drop_out_after_half_a_lease(services: tuple[Any, Any]) -> None:
    import asyncio

    import redis.asyncio as aioredis

    from ogames.web.core.presence import Here, RedisPresence

    _, redis = services

    async def scene() -> None:
        heard: list[str] = []

        async def changed(game_id: str) -> None:
            heard.append(game_id)

        async def nothing(game_id: str) -> None:
            return None

        # A lease long enough that a busy machine's late refresh (every lease/4) is not taken for a death.
        dying = RedisPresence(aioredis.from_url(redis.url), "dying", lease_seconds=2.0)
        living = RedisPresence(aioredis.from_url(redis.url), "living", lease_seconds=2.0)
        await dying.start(nothing)
        await living.start(changed)
        page = await dying.join("g1")
        await dying.hold("g1", page, [1])
        deadline = time.monotonic() + 30
        while not ("g1" in heard and await living.here("g1") == Here(frozenset({1}), 1)):  # told, and it sees the page
            assert time.monotonic() < deadline, "the living process was not told of the page"
            await asyncio.sleep(0.01)
        for task in list(dying._side.tasks):  # it dies without a word: its entry stays in Redis, unrefreshed
            task.cancel()
        heard.clear()
        deadline = time.monotonic() + 30
        # Past half a lease (1 s) and a refresh (0.5 s) its pages are gone, and the living process
        # was told to look again.
        while not ("g1" in heard and await living.here("g1") == Here()):
            assert time.monotonic() < deadline, "the dead process's pages did not drop out"
            await asyncio.sleep(0.01)
        await living.close()
        await living.redis.aclose()
        await dying.redis.aclose()

    asyncio.run(scene())


def test_a_tables_people_on_two_processes_play_and_a_killed_referee_loses_nothing(two_workers: list[Any]) -> None:
    url, redis_url, tmp_path, (a, base_a), (_, base_b) = two_workers
    table_id, tokens = new_table(base_a)  # A referees; seat 1 relays through B
    tabs = {0: Tab(base_a, table_id, {0: tokens[0]}), 1: Tab(base_b, table_id, {1: tokens[1]})}
    acknowledged: list[str] = []
    seqs = {0: 0, 1: 0}

    def play(seat: int) -> dict[str, Any]:
        """The seat lays a card that fits; both tabs, on their processes, see it land."""
        count = len(acknowledged)
        for tab in tabs.values():
            tab.until(lambda view: view["started"] and view["count"] == count)
        seqs[seat] += 1
        tabs[seat].act(seat, spot(tabs[seat].view, seat), seqs[seat])
        verdict = tabs[seat].verdict(seqs[seat])
        assert verdict["accepted"], verdict["reason"]
        acknowledged.append(verdict["action"])
        for tab in tabs.values():
            view = tab.until(lambda view: view["count"] == count + 1)
            assert view["moves"][-1]["move"] == verdict["action"]
        return verdict

    def refused(seat: int, action: str, seq: int, token: str | None = None) -> dict[str, Any]:
        tabs[seat].act(seat, action, seq, token)
        verdict = tabs[seat].verdict(seq)
        assert not verdict["accepted"], verdict
        return verdict

    try:
        for _ in range(3):
            play(0)
            play(1)
        # A card laid late on B (the cell was just taken on A) is refused with the referee's reason.
        while (laid := play(0)["action"]).startswith("discard"):
            play(1)
        laid = laid.split()[2]
        design = tabs[1].view["seats"][1]["hand"][0]["design"]
        seqs[1] += 1
        late = refused(1, f"place {design} {laid}", seqs[1])
        assert late["code"] == "illegal" and f"{laid} is taken" in late["reason"]
        absent = next(d for d in range(36) if d not in [card["design"] for card in tabs[1].view["seats"][1]["hand"]])
        seqs[1] += 1
        wrong = refused(1, f"place {absent} c3", seqs[1])
        assert wrong["code"] == "illegal" and "not in black's hand" in wrong["reason"]
        stale = refused(1, spot(tabs[1].view, 1), seqs[1])  # the same message again: not done twice
        assert stale["code"] == "stale"
        seqs[1] += 1
        stranger = refused(1, spot(tabs[1].view, 1), seqs[1], token="A" * 43)
        assert stranger["code"] == "bad-token"
        play(1)

        # The referee dies right after a card was sent to it (never acknowledged).
        seqs[0] += 1
        tabs[0].act(0, spot(tabs[0].view, 0), seqs[0])
        stop_server(a, kill=True)
        assert a.returncode == -9
        tabs[0].close()
        tabs[0] = Tab(base_b, table_id, {0: tokens[0]})  # the person reloads: now on B
        # B takes the table over after the lease, and the clock starts again once both are here.
        tabs[1].until(lambda view: not view["started"], timeout=LEASE * 3 + 10)  # B counts down again
        resumed = tabs[0].until(lambda view: view["started"], timeout=LEASE * 3 + 10)
        stored = [move["move"] for move in call(base_b, f"/o/{table_id}/record.json")[1]["moves"]]
        assert stored[: len(acknowledged)] == acknowledged and len(stored) <= len(acknowledged) + 1
        assert resumed["count"] == len(stored)
        acknowledged[:] = stored  # with the unacknowledged card, if A stored it before it died
        play(1)
        play(0)

        # A new process C; seat 1 moves to it: the seats are split again, B referees now.
        c, base_c = start_server(url, tmp_path / "c.log", redis=redis_url)
        try:
            tabs[1].close()
            tabs[1] = Tab(base_c, table_id, {1: tokens[1]})
            for _ in range(2):
                play(1)
                play(0)
        finally:
            stop_server(c)
        stored = [move["move"] for move in call(base_b, f"/o/{table_id}/record.json")[1]["moves"]]
        assert stored == acknowledged
    finally:
        for tab in tabs.values():
            tab.close()


def test_a_referee_steps_down_when_its_lease_is_taken_and_hands_its_tables_over_when_it_stops(
    services: tuple[Any, Any], tmp_path: Path
) -> None:
    """Two hubs in one event loop on one SQLite file, each with its own relay on the real Redis."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from ogames.web.core.bus import RedisBus
    from ogames.web.core.presence import RedisPresence
    from ogames.web.core.store import Store
    from ogames.web.omiga.live import OmigaHub
    from ogames.web.omiga.protocol import NewTable
    from ogames.web.omiga.relay import OWNER_KEY, OmigaRelay

    _, redis = services
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    executor = ThreadPoolExecutor(1)

    async def hub() -> tuple[OmigaHub, OmigaRelay, RedisBus]:
        bus = RedisBus(redis.url, lease_seconds=0.6)
        relay = OmigaRelay(bus)
        made = OmigaHub(store, executor, countdown=0.05, relay=relay, presence=RedisPresence(bus.redis, bus.worker, 0.6))
        await made.presence.start(made.presence_changed)
        await relay.start(made)
        return made, relay, bus

    async def until(test: Callable[[], bool], seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while not test():
            assert time.monotonic() < deadline, "it did not happen in time"
            await asyncio.sleep(0.02)

    async def scene() -> None:
        (a, relay_a, bus_a), (b, relay_b, bus_b) = await hub(), await hub()
        live_a, _, _ = await a.create(NewTable(seats=[{"kind": "here"}, {"kind": "invite"}]))
        owner = OWNER_KEY + live_a.id
        assert await bus_a.redis.get(owner) == bus_a.worker.encode()
        live_b = await b.get(live_a.id)
        assert live_b.remote and not live_a.remote
        b.watch(live_b)  # a page is open on B: B keeps its mirror and would take the table over
        # Dropped from A's memory and opened again within its lease: still A's, not a mirror of itself.
        a.tables.pop(live_a.id)
        live_a = await a.get(live_a.id)
        assert not live_a.remote
        a.watch(live_a)  # a page on A too
        # Another process took A's lease (A stalled past it): A stops refereeing and relays.
        await bus_a.redis.set(owner, "intruder", px=1000)
        await until(lambda: live_a.remote)
        assert a.tables[live_a.id] is live_a and not live_a.tasks
        # The intruder's lease lapses; B (with a page open) takes the table over from the database.
        await until(lambda: not live_b.remote or not live_a.remote)
        referee, other, other_relay = (b, a, relay_a) if not live_b.remote else (a, b, relay_b)
        assert referee.tables[live_a.id].version == 0
        # The referee stops politely: its lease is given up, and the other takes the table over
        # (at once on a quiet machine; the deadline leaves room for a busy one).
        await (relay_b if referee is b else relay_a).close()
        taken = other.tables[live_a.id]
        await until(lambda: not taken.remote)
        await other_relay.close()
        for made, bus in ((a, bus_a), (b, bus_b)):  # as the server stops: presence, then the bus
            await made.presence.close()
            await bus.close()

    try:
        asyncio.run(scene())
    finally:
        executor.shutdown()
        store.close()
