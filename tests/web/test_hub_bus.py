"""Two hubs on one database, linked by an in-memory bus: how a hub keeps its copy of a game in step
with actions another server process stored (applied, or re-read when a message was missed), and
how a move made on a copy that fell behind is refused while the copy catches up. (The Redis bus
itself, and real processes, are in test_scale_out.py.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ogames.web.bus import Bus
from ogames.web.hub import Hub, Refusal
from ogames.web.protocol import NewGame
from ogames.web.store import Store

from .conftest import quick_settings


class Linked(Bus):
    """An in-memory bus: what one hub publishes, the other hubs hear (unless it is switched off)."""

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
        assert watching.get_nowait()["version"] == 1  # the page on the other process sees it at once
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
        assert watching.get_nowait()["version"] == 2
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
