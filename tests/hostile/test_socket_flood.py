"""One visitor opening socket after socket on a server process (web/core/socket_cap.py): past the
cap a handshake is refused with 403 before the socket opens, said once in the log; a visitor from
another address still connects and plays; a socket closed gives its place back."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_web import DEADLINE, Server, running
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

CAP = 5
ATTACKER, OTHER = "127.0.0.1", "127.0.0.2"  # two loopback addresses: two clients to the server


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("OGAMES_SOCKETS_PER_CLIENT", str(CAP))  # (the server process inherits it)
    with running(tmp_path) as started:
        yield started


@contextlib.contextmanager
def open_lobby(server: Server, source: str) -> Iterator[ClientConnection]:
    with connect(server.ws + "/ws/lobby", open_timeout=DEADLINE, source_address=(source, 0)) as ws:
        assert json.loads(ws.recv(timeout=DEADLINE))["type"] == "seeks"
        yield ws


def test_one_address_cannot_open_socket_after_socket(server: Server) -> None:
    with contextlib.ExitStack() as held:
        sockets = [held.enter_context(open_lobby(server, ATTACKER)) for _ in range(CAP)]
        for _ in range(3):
            with pytest.raises(InvalidStatus) as refused, open_lobby(server, ATTACKER):
                pass
            assert refused.value.response.status_code == 403
        with open_lobby(server, OTHER):  # another visitor is not held back
            pass
        status, game = server.call("/api/games", {"game": "omny", "options": {"variant": "y", "size": 4}})
        assert status == 201, game
        sockets[0].close()
        deadline = time.monotonic() + DEADLINE  # the server counts the close when it sees it
        while True:
            try:
                held.enter_context(open_lobby(server, ATTACKER))
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "a closed socket never gave its place back"
    log = server.log.read_text()
    assert log.count(f"{ATTACKER} holds {CAP} open sockets: further ones refused") >= 1
    assert log.count("open sockets: further ones refused") <= 2  # once per time at the cap, not per refusal
