"""Web Push subscriptions as an attacker would use them, in process: every "your move" notice is
sent to each of the player's subscriptions, one request to each endpoint (a host the subscriber
chose), so a visitor posting thousands of them would have the server make thousands of requests
per notice, to hosts that may hold each one until its timeout. A player keeps at most
`MAX_PUSH_SUBSCRIPTIONS` (a person's browsers): a new one beyond replaces the player's oldest,
and nobody else's is touched."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from ogames.web import create_app
from ogames.web.notify import records
from ogames.web.notify.records import MAX_PUSH_SUBSCRIPTIONS
from web.conftest import quick_settings


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    made = create_app(quick_settings(tmp_path / "games.sqlite3"))
    with TestClient(made):
        yield made


def subscription(endpoint: str) -> dict[str, Any]:
    key = base64.urlsafe_b64encode(b"\x04" + os.urandom(64)).decode().rstrip("=")
    auth = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
    return {"endpoint": endpoint, "keys": {"p256dh": key, "auth": auth}}


def stored(app: Any) -> dict[str, list[str]]:
    """Every stored subscription's endpoint, by player."""
    with app.state.store.engine.connect() as conn:
        rows = conn.execute(select(records.push_subscriptions.c.player_id, records.push_subscriptions.c.endpoint)).all()
    found: dict[str, list[str]] = {}
    for player, endpoint in rows:
        found.setdefault(player, []).append(endpoint)
    return {player: sorted(endpoints) for player, endpoints in found.items()}


def test_a_visitor_keeps_at_most_a_few_subscriptions_the_newest(app: Any) -> None:
    other = TestClient(app)
    theirs = [f"https://push.example/theirs-{n}" for n in range(2)]
    for endpoint in theirs:
        assert other.post("/push/subscribe", json=subscription(endpoint)).status_code == 200

    attacker = TestClient(app)
    posted = [f"https://push.example/flood-{n:03d}" for n in range(MAX_PUSH_SUBSCRIPTIONS * 10)]
    for endpoint in posted:
        assert attacker.post("/push/subscribe", json=subscription(endpoint)).status_code == 200
    newest = sorted(posted[-MAX_PUSH_SUBSCRIPTIONS:])  # the browsers in use now
    assert sorted(stored(app).values()) == [newest, theirs]  # and nobody else's was touched


def test_subscribing_again_keeps_the_others(app: Any) -> None:
    """A browser subscribing again (the same endpoint) is still one subscription, not a new one."""
    person = TestClient(app)
    browsers = [f"https://push.example/browser-{n}" for n in range(MAX_PUSH_SUBSCRIPTIONS)]
    for endpoint in browsers:
        assert person.post("/push/subscribe", json=subscription(endpoint)).status_code == 200
    for _ in range(3):
        assert person.post("/push/subscribe", json=subscription(browsers[0])).status_code == 200
    assert list(stored(app).values()) == [browsers]
