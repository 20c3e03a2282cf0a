"""Web Push subscriptions as an attacker would use them, in process: every "your move" notice is
sent to each of the player's subscriptions, one request to each endpoint (a host the subscriber
chose), so a visitor posting thousands of them would have the server make thousands of requests
per notice, to hosts that may hold each one until its timeout. A player keeps at most
`MAX_PUSH_SUBSCRIPTIONS` (a person's browsers): a new one beyond replaces the player's oldest,
and nobody else's is touched. The pushes are sent on threads of their own, never the ones every
request's database work runs on, and at most `push.MAX_WAITING` wait: a push service that holds its
requests (the subscriber's own host) cannot stall the site for others."""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient
from sqlalchemy import select

from ogames.web import create_app
from ogames.web.notify import push, records
from ogames.web.notify.records import MAX_PUSH_SUBSCRIPTIONS
from web.conftest import quick_settings

DEADLINE = 60.0  # seconds any awaited condition may take on a loaded machine
NOTICES = 40  # "your move" notices: more than the threads of the event loop's default pool
WAITING = 10  # the pushes that may wait, lowered from MAX_WAITING so that 40 notices go past it
DEFAULT_POOL = min(32, (os.cpu_count() or 1) + 4)  # asyncio's default executor's threads


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    made = create_app(quick_settings(tmp_path / "games.sqlite3"))
    with TestClient(made):
        yield made


def subscription(endpoint: str) -> dict[str, Any]:
    """A browser's subscription, with a real P-256 key (a push is encrypted for it before it is sent)."""
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    key = base64.urlsafe_b64encode(point).decode().rstrip("=")
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


def test_nobody_takes_another_players_endpoint(app: Any) -> None:
    """An endpoint is a capability, but one that leaks (a shared log, a screenshot) must not let
    another player take the pushes away: with other keys it is refused and nothing changes; the
    same browser subscription (someone else signed in on it) moves over."""
    victim, attacker = TestClient(app), TestClient(app)
    endpoint = "https://push.example/victims-browser"
    browser = subscription(endpoint)
    assert victim.post("/push/subscribe", json=browser).status_code == 200
    before = stored(app)
    answer = attacker.post("/push/subscribe", json=subscription(endpoint))
    assert answer.status_code == 409 and "belongs to another player" in answer.text
    assert stored(app) == before
    assert attacker.post("/push/unsubscribe", json={"endpoint": endpoint}).json() == {"unsubscribed": False}
    assert stored(app) == before
    assert attacker.post("/push/subscribe", json=browser).status_code == 200  # the same browser: its keys
    assert [endpoints for endpoints in stored(app).values()] == [[endpoint]] and stored(app) != before


class Tarpit:
    """A "push service" on loopback that takes every connection and never answers while it runs."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._hold, daemon=True)
        self.thread.start()

    def _hold(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                self.held.append(self.listener.accept()[0])

    def close(self) -> None:
        self.listener.close()
        for held in self.held:
            held.close()


@pytest.fixture
def tarpit() -> Iterator[Tarpit]:
    held = Tarpit()
    yield held
    held.close()


def test_a_push_service_that_holds_its_requests_stalls_nobody(tmp_path: Path, tarpit: Tarpit,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A visitor's subscriptions all at a host that never answers, and a correspondence game on one
    screen per move it makes (each move a "your move" notice to each): the attacker's moves and another
    visitor's new game are still answered (they once waited for threads that all held a push), and
    the pushes waiting stay within their bound."""
    monkeypatch.setattr(push, "PUSH_TIMEOUT", 2 * DEADLINE)  # the host holds each push past the test's deadline
    monkeypatch.setattr(push, "MAX_WAITING", WAITING)
    settings = quick_settings(tmp_path / "games.sqlite3", push_local_endpoints=True, api_rate=1e6, api_burst=1e6)
    app = create_app(settings)
    with TestClient(app) as attacker:
        try:
            for n in range(MAX_PUSH_SUBSCRIPTIONS):
                assert attacker.post("/push/subscribe", json=subscription(f"{tarpit.base}/browser-{n}")).status_code == 200
            attacking = threading.Thread(target=attack, args=(attacker,), daemon=True)
            attacking.start()
            deadline = time.monotonic() + DEADLINE  # the attack done, or the default pool's every thread held
            while attacking.is_alive() and len(tarpit.held) < DEFAULT_POOL and time.monotonic() < deadline:
                time.sleep(0.05)
            assert tarpit.held, "no push reached the host"

            answered: list[int] = []
            other = TestClient(app)
            body = {"game": "omny", "options": {"variant": "y", "size": 4}}
            making = threading.Thread(target=lambda: answered.append(other.post("/api/games", json=body).status_code),
                                      daemon=True)
            making.start()
            making.join(DEADLINE)
            assert answered == [201], "another visitor's new game was not made while the pushes were held"
            attacking.join(DEADLINE)
            assert not attacking.is_alive(), "the attacker's own moves were held up"
            pusher = app.state.pusher
            assert pusher.waiting <= WAITING
            assert pusher.dropped > 0  # 40 notices' pushes asked for: those beyond the bound dropped, not kept waiting
        finally:
            tarpit.close()  # the held pushes fail now: the server can stop


def attack(attacker: TestClient) -> None:
    """Correspondence games on one screen, a move in each: a notice for the seat to move next (the
    attacker's own), one push to each of its subscriptions."""
    for _ in range(NOTICES):
        made = attacker.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 4},
                                                 "seats": ["here", "here"], "days": 1}).json()
        moved = attacker.post(f"/api/games/{made['id']}/moves", json={"move": "a1", "token": made["tokens"]["0"], "version": 0})
        assert moved.status_code == 200, moved.text
