"""Web Push (web/notify/push.py) as far as this machine allows: Chromium's real push service is
not reachable from here, so a fake push service on loopback takes the requests pywebpush makes.
The test checks what a real one would: the request is signed with the site's VAPID key (its JWT's
signature, audience and expiry), the payload is encrypted (aes128gcm) for the subscribing
browser's keys and, decrypted with them, holds the game's link and no seat token; a subscription
the push service says is gone is forgotten; an endpoint that is not a push service's (local,
private, plain http) is refused."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.notify import records
from ogames.web.notify.push import valid_endpoint, vapid_private_key

from .conftest import quick_settings
from .test_correspondence import new_game, play

WAIT = 60.0


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class FakePushService:
    """Takes push requests on loopback: 201, or 410 for an endpoint whose path says `gone`."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # (http.server's name)
                data = self.rfile.read(int(self.headers.get("content-length", "0")))
                service.received.append((self.path, {key.lower(): value for key, value in self.headers.items()}, data))
                self.send_response(410 if "gone" in self.path else 201)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def wait_for(self, path: str) -> tuple[dict[str, str], bytes]:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            for got, headers, data in list(self.received):
                if got == path:
                    return headers, data
            time.sleep(0.05)
        raise AssertionError(f"no push to {path}")


@pytest.fixture
def service() -> Iterator[FakePushService]:
    fake = FakePushService()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(database, push_local_endpoints=True))) as test_client:
        yield test_client


class Browser:
    """A subscribing browser's keys (what PushManager.subscribe makes)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}

    def decrypt(self, data: bytes) -> Any:
        return json.loads(http_ece.decrypt(data, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def check_vapid(headers: dict[str, str], site_key: str, audience: str) -> None:
    """The request's VAPID signature: a JWT signed (ES256) by the site's key, for the push service's origin."""
    scheme, _, fields = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(field.strip().split("=", 1) for field in fields.split(","))
    assert parts["k"] == site_key
    header, claims, signature = parts["t"].split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(site_key))
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    said = json.loads(unb64url(claims))
    assert said["aud"] == audience and said["exp"] > time.time() and said["sub"].startswith("mailto:")


def test_your_move_is_pushed_signed_and_encrypted_for_the_browser(client: TestClient, service: FakePushService) -> None:
    key = client.get("/push/key").json()["key"]
    assert len(unb64url(key)) == 65  # an uncompressed P-256 point: what applicationServerKey takes
    browser = Browser()
    endpoint = service.base + "/push/this-browser"
    assert client.post("/push/subscribe", json=browser.subscription(endpoint)).status_code == 200
    game_id, tokens = new_game(client, days=2)
    play(client, game_id, tokens["1"], play(client, game_id, tokens["0"], 0, "a1")["version"], "b1")
    headers, data = service.wait_for("/push/this-browser")
    check_vapid(headers, key, service.base)
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    assert all(token.encode() not in data for token in tokens.values())
    shown = browser.decrypt(data)
    assert shown == {"title": "Omny", "kind": "your_move", "url": f"/g/{game_id}"}


def test_a_subscription_the_push_service_says_is_gone_is_forgotten(client: TestClient, service: FakePushService) -> None:
    endpoint = service.base + "/push/gone"
    assert client.post("/push/subscribe", json=Browser().subscription(endpoint)).status_code == 200
    store = client.app.state.store  # type: ignore[attr-defined]
    game_id, tokens = new_game(client, days=2)
    play(client, game_id, tokens["1"], play(client, game_id, tokens["0"], 0, "a1")["version"], "b1")
    service.wait_for("/push/gone")
    deadline = time.monotonic() + WAIT
    while any(found.endpoint == endpoint for found in records.subscriptions_of(store, _players(store))):
        assert time.monotonic() < deadline, "the gone subscription was kept"
        time.sleep(0.05)


def _players(store: Any) -> list[str]:
    with store.engine.connect() as conn:
        return [str(row[0]) for row in conn.exec_driver_sql("select player_id from seat_players")]


def test_bad_subscriptions_are_refused_with_nothing_kept(database: Path) -> None:
    with TestClient(create_app(quick_settings(database))) as client:  # a real site: push services only
        store = client.app.state.store  # type: ignore[attr-defined]
        good = Browser().subscription("https://fcm.googleapis.com/fcm/send/abc")
        for endpoint in ("http://fcm.googleapis.com/x", "https://127.0.0.1/x", "https://10.0.0.2/x", "https://[::1]/x",
                         "https://localhost/x", "https://metadata.internal/x", "https://169.254.169.254/x", "file:///etc/passwd",
                         "https://fcm.googleapis.com/\r\nx", "https://" + "a" * 600 + ".com/"):
            answer = client.post("/push/subscribe", json={**good, "endpoint": endpoint})
            assert answer.status_code == 422, endpoint
        for keys in ({"p256dh": "<script>", "auth": "x" * 16}, {"p256dh": "A" * 87}, {}):
            assert client.post("/push/subscribe", json={**good, "keys": keys}).status_code == 422
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("select count(*) from push_subscriptions").scalar() == 0
        assert client.post("/push/subscribe", json=good).status_code == 200
        client.cookies.clear()  # someone else cannot end this browser's subscription
        assert client.post("/push/unsubscribe", json={"endpoint": good["endpoint"]}).json() == {"unsubscribed": False}
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("select count(*) from push_subscriptions").scalar() == 1


def test_the_vapid_key_is_made_once_and_kept(database: Path) -> None:
    from ogames.web.core.store import Store

    store = Store(f"sqlite:///{database}")
    try:
        first = vapid_private_key(store)
        assert vapid_private_key(store) == first and len(unb64url(first)) == 32
    finally:
        store.close()
    assert valid_endpoint("https://updates.push.services.mozilla.com/wpush/v2/abc")
    assert valid_endpoint("http://127.0.0.1:9/x", allow_local=True) and not valid_endpoint("http://127.0.0.1:9/x")
