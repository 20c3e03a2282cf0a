"""The rate limits' own behaviour (web/limits.py): a connection's burst and strikes, a client's
window and when to try again, clients counted apart, and a storage that cannot be reached."""

from __future__ import annotations

import asyncio
import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.web.limits import ClientLimits, ConnectionLimit, storage_for, window


def test_a_connection_gets_its_burst_then_refusals_then_is_closed() -> None:
    async def scenario() -> None:
        # (a slow rate: the bucket refills as time passes, and a pause of the machine here must not matter)
        limit = ConnectionLimit(rate=0.01, burst=30, strikes=3)
        assert [await limit.allow() for _ in range(30)] == [True] * 30
        assert [await limit.allow() for _ in range(3)] == [False] * 3 and not limit.exhausted
        assert not await limit.allow() and limit.exhausted
        assert "at most 0.01 a second" in limit.refusal()

    asyncio.run(scenario())


@settings(max_examples=20, deadline=None)
@given(rate=st.floats(0.5, 50), burst=st.integers(1, 200))
def test_a_window_lets_the_burst_through_at_the_rate(rate: float, burst: int) -> None:
    item = window(rate, burst)
    assert item.amount == burst and item.get_expiry() >= burst / rate  # never faster than `rate` in the long run
    assert item.get_expiry() < burst / rate + 1


def test_a_client_past_its_burst_is_refused_and_told_when_to_retry() -> None:
    async def scenario() -> None:
        limits = ClientLimits(rate=2, burst=4, storage=storage_for(None))
        assert [await limits.allow("ann") for _ in range(4)] == [True] * 4
        assert not await limits.allow("ann") and not await limits.fits("ann")
        assert 0 < await limits.wait("ann") <= 2  # the window is 4 / 2 seconds
        assert await limits.allow("bob")  # another client has its own count
        assert await limits.wait("carol") == 0
        assert not await limits.fits("bob", cost=4) and await limits.fits("bob", cost=3)

    asyncio.run(scenario())


def test_limits_pass_and_warn_once_while_redis_cannot_be_reached(caplog: pytest.LogCaptureFixture) -> None:
    import socket

    pytest.importorskip("redis")  # (the scale extra's driver)
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def scenario() -> None:
        limits = ClientLimits(rate=1, burst=1, storage=storage_for(f"redis://127.0.0.1:{port}/0"))
        assert [await limits.allow("ann") for _ in range(3)] == [True] * 3
        assert await limits.fits("ann") and await limits.wait("ann") == 0

    with caplog.at_level(logging.WARNING, logger="ogames.web"):
        asyncio.run(scenario())
    warnings = [record for record in caplog.records if "rate limits not counted" in record.getMessage()]
    assert len(warnings) == 1 and warnings[0].exc_info is None  # one line, no traceback
