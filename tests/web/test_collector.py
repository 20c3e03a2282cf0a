"""The server's garbage collection policy (web/core/collector.py): the survivors of a full
collection are frozen out of the next one, cyclic garbage among them is freed once they are given
back, and the policy ends with the server (or is off with `gc_unfreeze_seconds=0`)."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ogames.web.core.collector import Collector
from ogames.web.core.settings import Settings

from .conftest import quick_settings


class Node:
    """An object that can sit in a reference cycle."""

    other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    """Two objects in a cycle: one of them, and a weak reference telling when it is freed."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return first, weakref.ref(first)


@pytest.fixture(autouse=True)
def collector_given_back() -> Iterator[None]:
    yield
    gc.unfreeze()  # what these tests froze goes back to the collector, as the server's end leaves it


def test_what_survives_a_full_collection_is_left_out_of_the_next_until_given_back() -> None:
    async def scenario() -> None:
        collector = Collector(unfreeze_seconds=3600)
        collector.start()
        try:
            kept, freed = cycle()
            gc.collect()  # a full collection: the cycle is alive, so it survives, and is frozen
            assert gc.get_freeze_count() > 0
            del kept
            gc.collect()
            assert freed() is not None  # garbage now, but frozen: not looked at
            gc.unfreeze()  # (what the collector does every unfreeze_seconds)
            gc.collect()
            assert freed() is None
        finally:
            await collector.close()

    asyncio.run(scenario())


def test_the_frozen_are_given_back_every_unfreeze_seconds() -> None:
    async def scenario() -> None:
        collector = Collector(unfreeze_seconds=0.05)
        collector.start()
        try:
            kept, freed = cycle()
            gc.collect()
            del kept
            deadline = time.monotonic() + 30
            while freed() is not None:  # given back within a period, then freed by a full collection
                assert time.monotonic() < deadline, "the frozen garbage was never freed"
                await asyncio.sleep(0.02)
                gc.collect()
        finally:
            await collector.close()

    asyncio.run(scenario())


def test_after_close_full_collections_freeze_nothing() -> None:
    async def scenario() -> None:
        collector = Collector(unfreeze_seconds=3600)
        collector.start()
        await collector.close()
        gc.unfreeze()
        gc.collect()
        assert gc.get_freeze_count() == 0

    asyncio.run(scenario())


def test_the_server_runs_the_policy_while_it_runs_and_not_when_it_is_off(tmp_path: Path) -> None:
    from ogames.web import create_app

    callbacks = list(gc.callbacks)
    with TestClient(create_app(quick_settings(tmp_path / "on.sqlite3"))):
        assert len(gc.callbacks) == len(callbacks) + 1
        gc.unfreeze()
        gc.collect()
        assert gc.get_freeze_count() > 0  # the survivors of the full collection: frozen
    assert gc.callbacks == callbacks
    with TestClient(create_app(quick_settings(tmp_path / "off.sqlite3", gc_unfreeze_seconds=0))):
        assert gc.callbacks == callbacks
        gc.unfreeze()
        gc.collect()
        assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("bad", [-1.0, float("inf"), float("nan")])
def test_a_bad_unfreeze_period_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="gc_unfreeze_seconds"):
        Settings(gc_unfreeze_seconds=bad)
