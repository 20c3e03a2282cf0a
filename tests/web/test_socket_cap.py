"""The cap on the WebSockets one client address holds open (web/core/socket_cap.py): past it a
handshake is refused before the socket opens and nothing else changes; a socket closed frees its
place; other addresses and plain pages are not touched (its setting from the environment: test_settings_env.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ogames.web import create_app
from ogames.web.core.socket_cap import REFUSED, SocketCap

from .conftest import quick_settings

CAP = 3


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(tmp_path / "c.sqlite3", sockets_per_client=CAP))) as client:
        client.get("/lobby")  # a visitor's cookie, as a browser has
        yield client


def test_an_address_holds_at_most_the_cap_and_a_closed_socket_frees_a_place(
    capped: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    sessions = [capped.websocket_connect("/ws/lobby") for _ in range(CAP)]
    try:
        for socket in [session.__enter__() for session in sessions]:
            assert socket.receive_json()["type"]  # each one is served
        with caplog.at_level(logging.WARNING, logger="ogames.web"):
            for _ in range(2):
                with pytest.raises(WebSocketDisconnect) as refused, capped.websocket_connect("/ws/lobby"):
                    pass
                assert refused.value.code == REFUSED
        assert [r.getMessage() for r in caplog.records if "open sockets" in r.getMessage()] == [
            f"testclient holds {CAP} open sockets: further ones refused"  # said once, not per refusal
        ]
        assert capped.get("/lobby").status_code == 200  # pages are not sockets
        sessions.pop(0).__exit__(None, None, None)
        with capped.websocket_connect("/ws/lobby") as again:
            assert again.receive_json()["type"]
    finally:
        for session in sessions:
            session.__exit__(None, None, None)


class Held:
    """A stand-in socket route: each connection stays open until its event is set."""

    def __init__(self) -> None:
        self.calls = 0
        self.release: list[asyncio.Event] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls += 1
        done = asyncio.Event()
        self.release.append(done)
        await done.wait()


def _connect(cap: SocketCap, address: str) -> tuple[asyncio.Task[None], list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "websocket", "client": (address, 1234), "path": "/ws/lobby"}
    return asyncio.create_task(cap(scope, receive, send)), sent


def test_each_address_is_counted_apart() -> None:
    async def scene() -> None:
        route = Held()
        cap = SocketCap(route, per_client=2)
        first = [_connect(cap, "10.0.0.1") for _ in range(2)]
        await asyncio.sleep(0)
        refused_task, refused = _connect(cap, "10.0.0.1")
        other_task, other = _connect(cap, "10.0.0.2")
        await asyncio.wait_for(refused_task, 10)  # (a cap that lets it through would hold it open)
        await asyncio.sleep(0)
        assert refused == [{"type": "websocket.close", "code": REFUSED, "reason": "too many open connections from this address"}]
        assert route.calls == 3 and other == [] and not other_task.done()  # the other address got through
        assert dict(cap.open) == {"10.0.0.1": 2, "10.0.0.2": 1}
        for event in route.release:
            event.set()
        await asyncio.wait_for(asyncio.gather(other_task, *(task for task, _ in first)), 10)
        assert dict(cap.open) == {}  # nothing left counted once every socket is gone

    asyncio.run(scene())


def test_a_route_that_fails_still_frees_its_place() -> None:
    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("the route broke")

    async def scene() -> None:
        cap = SocketCap(failing, per_client=1)
        for _ in range(3):
            task, _sent = _connect(cap, "10.0.0.3")
            with pytest.raises(RuntimeError):
                await asyncio.wait_for(task, 10)
        assert dict(cap.open) == {}

    asyncio.run(scene())


def test_other_traffic_passes_untouched() -> None:
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    async def scene() -> None:
        cap = SocketCap(app, per_client=1)
        for kind in ("http", "lifespan"):
            await cap({"type": kind, "client": ("10.0.0.4", 1)}, None, None)

    asyncio.run(scene())
    assert seen == ["http", "lifespan"]
