"""The chat across two server processes on one PostgreSQL and one Redis (web/chat/live.py): a
message said through one process reaches the pages open on the other at once, each room's only
its readers; an operator's mute given on one process takes the name's messages off the pages of
the other. (One process without Redis: tests/web/test_chat.py.)"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from .scaling import needs_services
from .serving import start_server, stop_server

pytestmark = pytest.mark.slow
WAIT = 60.0  # seconds: generous, a busy machine is slow


def heard(socket: Any, until: Any) -> dict[str, Any]:
    """The first message on a chat socket that `until` accepts."""
    deadline = time.monotonic() + WAIT
    while True:
        message = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        if until(message):
            return message


def chat_socket(base: str, game: str, tokens: list[str], stack: contextlib.ExitStack) -> Any:
    from websockets.sync.client import connect

    socket = stack.enter_context(connect(base.replace("http://", "ws://") + f"/ws/chat/{game}", open_timeout=WAIT))
    socket.send(json.dumps({"type": "join", "tokens": tokens}))
    heard(socket, lambda m: m["type"] == "history")
    return socket


@needs_services
def test_the_chat_crosses_processes_and_so_does_a_mute(services: tuple[Any, Any], tmp_path: Path) -> None:
    from ogames.web.accounts import records as accounts
    from ogames.web.accounts.passwords import hash_password
    from ogames.web.chat.records import set_role
    from ogames.web.core.store import Store

    pg, redis = services
    url = pg.new_database("chat_two_workers")
    store = Store(url)
    try:
        accounts.create_account(store, "Olga", "olga", hash_password("operator password"))
        set_role(store, "Olga", "operator")
    finally:
        store.close()
    a, base_a = start_server(url, tmp_path / "a.log", redis=redis.url)
    b, base_b = start_server(url, tmp_path / "b.log", redis=redis.url)
    try:
        with contextlib.ExitStack() as stack:
            creator = stack.enter_context(httpx2.Client(base_url=base_a, timeout=WAIT))
            asked = {"game": "omny", "options": {"variant": "y", "size": 3}, "seats": ["here", "invite"]}
            made = creator.post("/api/games", json=asked)
            game = made.json()["id"]
            mine, theirs = made.json()["tokens"]["0"], made.json()["invitations"]["1"]["token"]
            player_on_b = chat_socket(base_b, game, [theirs], stack)
            spectator_on_b = chat_socket(base_b, game, [], stack)
            player_on_a = chat_socket(base_a, game, [mine], stack)

            assert creator.post(f"/api/games/{game}/chat", json={"room": "players", "text": "from A"}).status_code == 201
            assert heard(player_on_b, lambda m: m["type"] == "said")["message"]["text"] == "from A"
            troll = stack.enter_context(httpx2.Client(base_url=base_b, timeout=WAIT))
            answer = troll.post(f"/api/games/{game}/chat", json={"room": "spectators", "text": "troll from B"})
            assert answer.status_code == 201
            troll_name = answer.json()["author"]
            assert heard(player_on_a, lambda m: m["type"] == "said")["message"]["text"] == "from A"  # its own process's
            assert heard(player_on_a, lambda m: m["type"] == "said")["message"]["text"] == "troll from B"
            # the spectator on B heard the spectators' message, never the players' one before it
            assert heard(spectator_on_b, lambda m: m["type"] == "said")["message"]["text"] == "troll from B"

            operator = stack.enter_context(httpx2.Client(base_url=base_b, timeout=WAIT))
            logged = operator.post("/login", data={"name": "olga", "password": "operator password"})
            assert logged.status_code == 303
            assert operator.post("/operator/sanction", data={"name": troll_name, "kind": "mute"}).status_code == 303
            # the page on A is sent its history again, without the muted name's message
            again = heard(player_on_a, lambda m: m["type"] == "history")
            assert [m["text"] for m in again["messages"]] == ["from A"]
            assert heard(spectator_on_b, lambda m: m["type"] == "history")["messages"] == []
    finally:
        stop_server(a)
        stop_server(b)
    for log in ("a.log", "b.log"):
        assert "Traceback" not in (tmp_path / log).read_text()
