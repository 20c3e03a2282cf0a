"""Two hubs on one database, linked by an in-memory bus: how a hub keeps its copy of a game in step
with actions another server process stored (applied, or re-read when a message was missed), and
how a move made on a copy that fell behind is refused while the copy catches up. (The Redis bus
itself, and real processes, are in test_scale_out.py.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from ogames.web.boards.hub import Hub, Refusal
from ogames.web.boards.protocol import NewGame
from ogames.web.core.bus import Bus
from ogames.web.core.common import Outbox
from ogames.web.core.delta import jsonable
from ogames.web.core.store import Store

from .conftest import quick_settings


class Linked(Bus):
    """An in-memory bus: what one hub publishes, the other hubs hear (unless it is switched off)."""

    shared = True

    def __init__(self, hubs: list[Hub]):
        self.hubs = hubs
        self.on = True
        self.sent: list[tuple[str, int, dict[str, Any]]] = []

    async def publish(self, game_id: str, version: int, action: dict[str, Any]) -> None:
        self.sent.append((game_id, version, action))
        if self.on:
            for hub in self.hubs:
                if hub.bus is not self:
                    await hub.heard(game_id, version, action)


def received(outbox: Outbox) -> dict[str, Any]:
    """The next message an outbox sends, as its page receives it (a typed view is written as JSON)."""
    message = outbox.get_nowait()
    return jsonable(message) if isinstance(message, BaseModel) else message


class CountingStore(Store):
    """The store, counting how often a whole game is read (a copy rebuilt instead of applied)."""

    reads = 0

    def load_game(self, game_id: str) -> Any:
        self.reads += 1
        return super().load_game(game_id)


def two_hubs(path: Path) -> tuple[Hub, Hub, Linked, Linked]:
    settings = quick_settings(path, warm_rules=False)
    store = CountingStore(settings.database_url)
    hubs: list[Hub] = []
    one, two = Linked(hubs), Linked(hubs)
    hubs += [Hub(store, settings, one), Hub(store, settings, two)]
    return hubs[0], hubs[1], one, two


def test_an_action_stored_by_one_hub_is_applied_by_the_other(tmp_path: Path) -> None:
    async def scenario() -> None:
        a, b, bus_a, _ = two_hubs(tmp_path / "games.sqlite3")
        live_a, tokens = await a.create(NewGame(game="omny", options={"variant": "y", "size": 5}))
        live_b = await b.get(live_a.id)
        watching = b.watch(live_b)
        await a.move(live_a.id, tokens[0], 0, "a1")
        ((game_id, version, action),) = bus_a.sent
        assert (game_id, version, action["move"]) == (live_a.id, 1, "a1")
        assert action["entry"] == live_a.state.record()["moves"][-1]  # as stored, with its time
        assert live_b.version == 1 and live_b.state.record() == live_a.state.record()
        assert received(watching)["version"] == 1  # the page on the other process sees it at once
        await b.move(live_a.id, tokens[1], 1, "b2")  # and the other seat moves there
        await a.resign(live_a.id, tokens[0], 2)
        assert live_b.version == 3 and live_b.state.is_over and live_b.state.record() == live_a.state.record()
        assert a.store.reads == 1  # b's first load only: every action was applied, none re-read
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_omega_placements_that_rewrite_a_turn_stay_the_same_on_both_copies(tmp_path: Path) -> None:
    async def scenario() -> None:
        a, b, _, _ = two_hubs(tmp_path / "games.sqlite3")
        live_a, tokens = await a.create(NewGame(game="omega", options={"players": 2, "size": 4}))
        live_b = await b.get(live_a.id)
        for step in range(8):
            hub = (a, b)[step % 2]  # the actions come through either process in turn
            live = live_a if hub is a else live_b
            move = sorted(live.state.legal_moves())[step]
            await hub.move(live_a.id, tokens[live.state.mover], live.version, move)
            assert live_a.version == live_b.version == step + 1
            assert live_b.state.record() == live_a.state.record()
        assert b.store.reads == 1  # applied, never re-read
        assert live_b.state.record() == b.store.load_game(live_a.id).record()  # type: ignore[union-attr]
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_copy_that_missed_messages_reads_the_store_and_refuses_the_stale_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        a, b, bus_a, _ = two_hubs(tmp_path / "games.sqlite3")
        live_a, tokens = await a.create(NewGame(game="omny", options={"variant": "y", "size": 5}))
        live_b = await b.get(live_a.id)
        watching = b.watch(live_b)
        bus_a.on = False  # Redis lost these messages
        await a.move(live_a.id, tokens[0], 0, "a1")
        await a.move(live_a.id, tokens[1], 1, "b2")
        assert live_b.version == 0
        # Seat 0 still sees version 0 on the other process and moves there: the store says no,
        # and that copy is brought up to date in place (the pages hold it) and shown.
        with pytest.raises(Refusal) as refused:
            await b.move(live_a.id, tokens[0], 0, "c3")
        assert refused.value.code == "stale"
        assert live_b.version == 2 and live_b.state.record() == live_a.state.record()
        assert received(watching)["version"] == 2
        # A message from further ahead than the next version: the copy reads the store too.
        await a.move(live_a.id, tokens[0], 2, "c3")
        await a.move(live_a.id, tokens[1], 3, "a2")
        await b.heard(live_a.id, 4, {"move": "a2"})
        assert live_b.version == 4 and live_b.state.record() == live_a.state.record()
        # An action that does not apply (or is unknown) also sends it to the store.
        bus_a.on = True
        await a.move(live_a.id, tokens[0], 4, "e1")
        await b.heard(live_a.id, 6, {"undo": True})
        assert live_b.version == 5 and b.store.load_game(live_a.id).version == 5  # type: ignore[union-attr]
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_page_opening_on_a_copy_that_missed_an_action_is_shown_the_store(tmp_path: Path) -> None:
    """The scale-out test's failure: process A stored a move and died before telling the others (or
    its message was still on the way); the person reconnected to process B, whose copy was a move
    behind, and was shown the old position — and the page already on B waited for a move that had
    been made. Nothing was lost or doubled (the store refused the next move as stale), but the
    views were wrong. A page that opens reads the stored version, and a copy behind it catches up."""

    async def scenario() -> None:
        a, b, bus_a, _ = two_hubs(tmp_path / "games.sqlite3")
        live_a, tokens = await a.create(NewGame(game="omny", options={"variant": "y", "size": 5}))
        live_b = await b.get(live_a.id)
        watching = b.watch(live_b)  # seat 1's page on B
        bus_a.on = False  # A stores the move and never tells (killed between the two)
        await a.move(live_a.id, tokens[0], 0, "c3")
        assert live_b.version == 0
        reads = b.store.reads
        opened = await b.opened(live_a.id)  # seat 0's page reconnects on B
        assert opened is live_b and live_b.version == 1 and live_b.state.record() == live_a.state.record()
        assert received(watching)["version"] == 1  # and seat 1's page sees whose turn it is
        assert b.store.reads == reads + 1
        await b.opened(live_a.id)  # up to date: only the version is read, never the game
        assert b.store.reads == reads + 1 and watching.empty()
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_one_process_alone_never_reads_the_store_when_a_page_opens(tmp_path: Path) -> None:
    async def scenario() -> None:
        settings = quick_settings(tmp_path / "games.sqlite3", warm_rules=False)
        store = CountingStore(settings.database_url)
        hub = Hub(store, settings)
        live, _ = await hub.create(NewGame(game="omny", options={"variant": "y", "size": 5}))
        versions = []
        store.version_of = lambda game_id: versions.append(game_id)  # type: ignore[method-assign]
        assert await hub.opened(live.id) is live
        assert versions == [] and store.reads == 0
        await hub.close()

    asyncio.run(scenario())


def test_a_take_back_asked_on_one_process_is_agreed_to_on_the_other(tmp_path: Path) -> None:
    async def scenario() -> None:
        a, b, bus_a, _ = two_hubs(tmp_path / "games.sqlite3")
        request = NewGame(game="omny", options={"variant": "y", "size": 5}, seats=["here", "invite"])
        live_a, tokens = await a.create(request)
        live_b = await b.get(live_a.id)
        await a.move(live_a.id, tokens[0], 0, "a1")
        await b.move(live_a.id, tokens[1], 1, "b2")
        watching = b.watch(live_b)
        await a.undo(live_a.id, tokens[0], 2)  # seat 1 asks on process a ...
        assert bus_a.sent[-1] == (live_a.id, 2, {"undo": {"asked": 0, "agreed": [], "declined": None}})
        assert live_b.pending_undo() == 0  # ... process b knows, and its pages show it
        assert received(watching)["undo_request"] == {"seat": 0, "agreed": []}
        await b.undo(live_a.id, tokens[1], 2)  # seat 2 agrees on process b: both moves are taken back
        assert live_b.version == live_a.version == 3 and live_a.state.history == live_b.state.history == []
        with pytest.raises(Refusal, match="nobody has asked"):
            await a.undo(live_a.id, tokens[1], 3, decline=True)
        await b.move(live_a.id, tokens[0], 3, "c1")
        await a.move(live_a.id, tokens[1], 4, "a1")
        await b.undo(live_a.id, tokens[1], 5)  # asked on b, declined on a: b forgets it too
        watching.get_nowait()
        await a.undo(live_a.id, tokens[0], 5, decline=True)
        assert bus_a.sent[-1] == (live_a.id, 5, {"undo": {"asked": None, "agreed": [], "declined": 1}})
        assert live_b.pending_undo() is None and live_b.version == 5
        assert live_b.declined_undo() == 1  # the asker's page on b is told it was declined
        while watching.qsize() > 1:
            watching.get_nowait()
        assert received(watching)["undo_declined"] == 1

    asyncio.run(scenario())


def test_a_take_back_message_about_another_position_or_malformed_changes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        a, *_ = two_hubs(tmp_path / "games.sqlite3")
        request = NewGame(game="omny", options={"variant": "y", "size": 5}, seats=["here", "invite"])
        live_a, tokens = await a.create(request)
        await a.move(live_a.id, tokens[0], 0, "a1")
        for version, undo in [
            (0, {"asked": 0, "agreed": []}),  # an older position
            (1, {"asked": 7, "agreed": []}),  # no such seat
            (1, {"asked": 0, "agreed": ["1"]}),
            (1, {"asked": True, "agreed": []}),
            (1, "asked"),
            (1, {"asked": None, "agreed": [], "declined": 5}),  # no such seat
            (1, {"asked": None, "agreed": [], "declined": "0"}),
        ]:
            await a.heard(live_a.id, version, {"undo": undo})
            assert live_a.pending_undo() is None and live_a.declined_undo() is None and live_a.version == 1
        await a.heard(live_a.id, 1, {"undo": {"asked": 1, "agreed": []}})
        assert live_a.pending_undo() == 1

    asyncio.run(scenario())


def heard_through_redis(bodies: list[dict[str, Any]]) -> list[tuple[str, int, dict[str, Any]]]:
    """What a Redis bus passes on to its hub of these messages on game g1's channel: each body as
    published, with "worker": None for one the bus sent itself. The bus never connects: only its
    reading of messages is tried."""
    pytest.importorskip("redis")
    from ogames.web.core.bus import RedisBus

    bus = RedisBus("redis://127.0.0.1:1")
    heard: list[tuple[str, int, dict[str, Any]]] = []

    async def scenario() -> None:
        async def hear(game_id: str, version: int, action: dict[str, Any]) -> None:
            heard.append((game_id, version, action))

        for body in bodies:
            data = json.dumps({**body, "worker": body["worker"] or bus.worker})
            bus._dispatch({"type": "pmessage", "channel": b"ogames:game:g1", "data": data}, hear)
        await asyncio.sleep(0)
        await bus.close()

    asyncio.run(scenario())
    return heard


def test_the_redis_bus_passes_on_seats_and_take_backs() -> None:
    sent = [{"seats": True}, {"undo": {"asked": 1, "agreed": []}}, {"move": "a1", "entry": {"m": "a1"}, "junk": 1}]
    heard = heard_through_redis([*({"worker": "other", "version": 4, **data} for data in sent),
                                 {"worker": None, "version": 4}])  # its own: not heard
    assert heard == [
        ("g1", 4, {"seats": True}),
        ("g1", 4, {"undo": {"asked": 1, "agreed": []}}),
        ("g1", 4, {"move": "a1", "entry": {"m": "a1"}}),
    ]


def test_side_tasks_are_kept_logged_when_they_fail_and_stopped_at_close(caplog: pytest.LogCaptureFixture) -> None:
    from ogames.web.core.background import Background

    async def scenario() -> None:
        side = Background("tested part")
        forever = side.spawn(asyncio.sleep(3600), name="forever")

        async def fail() -> None:
            raise RuntimeError("broken")

        side.spawn(fail())
        await asyncio.sleep(0.01)
        assert side.tasks == {forever} and forever.get_name() == "forever"  # type: ignore[attr-defined]
        await side.close()
        assert forever.cancelled() and not side.tasks

    asyncio.run(scenario())
    assert any("tested part" in record.getMessage() and "broken" in record.getMessage() for record in caplog.records)


def test_a_listener_subscribes_again_after_redis_goes_away_and_says_so() -> None:
    from ogames.web.core.background import listen

    class PubSub:
        def __init__(self, redis: Any) -> None:
            self.redis = redis

        async def __aenter__(self) -> PubSub:
            self.redis.connections += 1
            return self

        async def __aexit__(self, *exc: Any) -> None:
            return None

        async def psubscribe(self, pattern: str) -> None:
            self.redis.patterns.append(pattern)

        async def listen(self) -> Any:
            yield {"type": "pmessage", "data": self.redis.connections}
            if self.redis.connections == 1:
                raise ConnectionError("Redis went away")
            await asyncio.Event().wait()  # no more messages

    class Redis:
        connections = 0

        def __init__(self) -> None:
            self.patterns: list[str] = []

        def pubsub(self, ignore_subscribe_messages: bool) -> PubSub:
            return PubSub(self)

    async def scenario() -> tuple[list[Any], list[int], Redis]:
        redis, heard, told = Redis(), [], []

        async def again() -> None:
            told.append(redis.connections)

        task = asyncio.ensure_future(listen(redis, "x:*", heard.append, "test", again))
        for _ in range(300):  # the retry waits 0.5 s
            if len(heard) == 2:
                break
            await asyncio.sleep(0.01)
        task.cancel()
        return heard, told, redis

    heard, told, redis = asyncio.run(scenario())
    assert [message["data"] for message in heard] == [1, 2]  # the message after the loss came through
    assert redis.patterns == ["x:*", "x:*"]  # subscribed again
    assert told == [2]  # and told, once, that messages may have been missed
