"""Attacks on the lobby (web/lobby/), against a server process over WebSockets: one account flooding
seeks and challenges at a player from many connections at once, posting and cancelling in a loop,
and declining or cancelling someone else's challenge — each refused, the lobby and the challenged
player's pages holding no more than the caps allow. (The same account through two processes at
once: tests/web/test_lobby_pairing_scale_out.py.)"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import DEADLINE, Server, rows, running
from websockets.sync.client import ClientConnection, connect

from ogames.web import Settings
from ogames.web.lobby.lobby import MAX_SEEKS
from web.test_ratings_scale_out import signed_up

SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}
SETTINGS = Settings()
SOCKETS = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("lobby")) as server:
        yield server


def cookie_of(server: Server, name: str) -> str:
    client, _ = signed_up(server.base, name)
    try:
        return "; ".join(f"{key}={value}" for key, value in client.cookies.items())
    finally:
        client.close()


@contextlib.contextmanager
def lobby(server: Server, cookie: str | None = None, header: bool = False) -> Iterator[ClientConnection]:
    path = "/ws/lobby" + ("?challenges=1" if header else "")
    with connect(server.ws + path, additional_headers={"cookie": cookie} if cookie else None, open_timeout=DEADLINE) as ws:
        assert json.loads(ws.recv(timeout=DEADLINE))["type"] == "seeks"
        yield ws


def answer(ws: ClientConnection) -> dict[str, Any]:
    """The next answer to a post: `posted` or an `error` (the lobby's news skipped)."""
    deadline = time.monotonic() + DEADLINE
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] in ("posted", "error"):
            return message


def stored_seeks(server: Server) -> list[tuple[str, str | None]]:
    """(id, target) of every open seek in the database."""
    return list(rows(server, "SELECT id, target_id FROM seeks"))


def test_a_flood_of_challenges_from_many_connections_is_held_to_the_caps(server: Server) -> None:
    spam, target = cookie_of(server, "Flood_Sam"), cookie_of(server, "Flood_Target")
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(lobby(server, spam)) for _ in range(SOCKETS)]
        watcher = stack.enter_context(lobby(server, target, header=True))
        start = threading.Barrier(SOCKETS)

        def flood(ws: ClientConnection) -> None:
            start.wait()
            for _ in range(3):
                ws.send(json.dumps({**SEEK, "to": "Flood_Target"}))

        threads = [threading.Thread(target=flood, args=(ws,)) for ws in sockets]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        answers = [answer(ws) for ws in sockets for _ in range(3)]
        assert time.monotonic() - started < SETTINGS.seek_burst / SETTINGS.seek_rate, "too slow to prove the window"
        posted = [a["seek"] for a in answers if a["type"] == "posted"]
        assert len(posted) == MAX_SEEKS, answers
        codes = [a["code"] for a in answers if a["type"] == "error"]
        assert set(codes) <= {"too-many-seeks", "rate-limited"} and codes.count("too-many-seeks") >= 1
        # The rate counts every try: 10 in the window, the other 8 refused before anything is looked at.
        assert codes.count("rate-limited") == 3 * SOCKETS - int(SETTINGS.seek_burst)
        assert sorted(seek for seek, _ in stored_seeks(server)) == sorted(posted)
        offered = []
        while len(offered) < MAX_SEEKS:
            message = json.loads(watcher.recv(timeout=DEADLINE))
            if message["type"] == "new":
                offered.append(message["seek"]["id"])
        assert sorted(offered) == sorted(posted)

        # Someone else declines or cancels one of them: refused, nothing changes.
        with lobby(server) as stranger:
            for kind in ("decline", "cancel"):
                stranger.send(json.dumps({"type": kind, "seek": posted[0]}))
                assert answer(stranger)["code"] == "seek-gone"
        assert len(stored_seeks(server)) == MAX_SEEKS

        # The spammer cancels and posts again at once: still within the window, still refused.
        sockets[0].send(json.dumps({"type": "cancel", "seek": posted[0]}))
        sockets[0].send(json.dumps({**SEEK, "to": "Flood_Target"}))
        refusal = answer(sockets[0])
        assert refusal["code"] == "rate-limited" and refusal["retry_after"] >= 1
        assert sorted(seek for seek, _ in stored_seeks(server)) == sorted(posted[1:])
    # Every page of the spammer closed: the flood is gone from the lobby.
    deadline = time.monotonic() + DEADLINE
    while stored_seeks(server):
        assert time.monotonic() < deadline, "the spammer's seeks stayed after their pages closed"
        time.sleep(0.2)
