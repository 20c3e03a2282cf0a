"""The lobby on two server processes sharing one PostgreSQL and one Redis (docs/web.md, "Lobby"):
a seek posted on one is listed live on the other, accepted there into one game for both, and of
two people accepting one seek at once on the two processes exactly one gets the game."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from .scaling import needs_services
from .serving import call, start_server, stop_server

pytestmark = pytest.mark.slow

WAIT = 60.0  # seconds: generous, the machine is shared
SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}


class LobbyPage:
    """A lobby page on one server process (a WebSocket without cookies: a guest of its own)."""

    def __init__(self, base: str):
        from websockets.sync.client import connect

        self._open = contextlib.ExitStack()
        self.socket = self._open.enter_context(connect(base.replace("http://", "ws://") + "/ws/lobby", open_timeout=30))
        self.seen: list[dict[str, Any]] = []

    def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of a kind (with these fields), skipping the others."""
        deadline = time.monotonic() + WAIT
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            self.seen.append(message)
            if message["type"] == kind and all(message.get(key) == value for key, value in fields.items()):
                return message

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def close(self) -> None:
        self._open.close()


@needs_services
def test_seeks_cross_processes_and_one_accepted_twice_at_once_makes_one_game(
    services: tuple[Any, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg, redis = services
    monkeypatch.setenv("OGAMES_BUS_LEASE", "2")  # the servers inherit it: a killed one's seeks go after 2 s
    url = pg.new_database("lobby")
    a, base_a = start_server(url, tmp_path / "a.log", redis=redis.url)
    b, base_b = start_server(url, tmp_path / "b.log", redis=redis.url)
    pages: list[LobbyPage] = []
    try:
        poster, taker = LobbyPage(base_a), LobbyPage(base_b)
        pages += [poster, taker]
        poster.until("seeks")
        taker.until("seeks")
        # Posted on A, listed on B at once; accepted on B, the poster on A is sent to the game.
        poster.send(SEEK)
        token = poster.until("posted")["token"]
        seek = taker.until("new")["seek"]
        assert not seek["mine"] and "poster_id" not in seek
        taker.send({"type": "accept", "seek": seek["id"]})
        go = taker.until("go")
        matched = poster.until("matched")
        assert matched["game"] == go["game"] and {matched["seat"], go["seat"]} == {0, 1}
        game = go["game"]
        tokens = {matched["seat"]: token, go["seat"]: go["url"].split(f"seats={go['seat']}.")[1]}
        status, moved = call(base_a, f"/api/games/{game}/moves", {"move": "c3", "token": tokens[0], "version": 0})
        assert status == 200, moved
        status, moved = call(base_b, f"/api/games/{game}/moves", {"move": "b2", "token": tokens[1], "version": 1})
        assert status == 200, moved

        # Two people accept one seek at once, one on each process: exactly one game is made.
        racer_a, racer_b = LobbyPage(base_a), LobbyPage(base_b)
        pages += [racer_a, racer_b]
        racer_a.until("seeks")
        racer_b.until("seeks")
        poster.send(SEEK)
        second = poster.until("posted")["seek"]
        racer_a.until("new")
        racer_b.until("new")
        start = threading.Barrier(2)

        def accept(page: LobbyPage) -> None:
            start.wait()
            page.send({"type": "accept", "seek": second})

        threads = [threading.Thread(target=accept, args=(page,)) for page in (racer_a, racer_b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        answers = []
        for page in (racer_a, racer_b):
            deadline = time.monotonic() + WAIT
            while True:
                message = json.loads(page.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
                if message["type"] in ("go", "error"):
                    answers.append(message)
                    break
        assert sorted(answer["type"] for answer in answers) == ["error", "go"], answers
        assert [answer["code"] for answer in answers if answer["type"] == "error"] == ["seek-gone"]
        won = next(answer["game"] for answer in answers if answer["type"] == "go")
        assert poster.until("matched", seek=second)["game"] == won

        # A seek is withdrawn when its poster's page (on A) closes: B's pages see it go.
        poster.send(SEEK)
        third = poster.until("posted")["seek"]
        taker.until("new")
        poster.close()
        pages.remove(poster)
        assert taker.until("gone", seek=third)["seek"] == third

        # A process killed without a word: its seeks go once its lease lapses.
        doomed = LobbyPage(base_a)
        pages.append(doomed)
        doomed.until("seeks")
        doomed.send(SEEK)
        orphan = doomed.until("posted")["seek"]
        taker.until("new")
        stop_server(a, kill=True)
        deadline = time.monotonic() + WAIT
        while True:  # a page opening on B reads the seeks, and withdraws those of a lapsed process
            fresh = LobbyPage(base_b)
            listed = [seek["id"] for seek in fresh.until("seeks")["seeks"]]
            fresh.close()
            if orphan not in listed:
                break
            assert time.monotonic() < deadline, "the killed process's seek stayed listed"
            time.sleep(0.5)
        assert taker.until("gone", seek=orphan)["seek"] == orphan
        racer_b.send({"type": "accept", "seek": orphan})
        assert racer_b.until("error")["code"] == "seek-gone"
    finally:
        for page in pages:
            with contextlib.suppress(Exception):
                page.close()
        stop_server(a)
        stop_server(b)
