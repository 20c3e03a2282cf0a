"""Notifications against `ogames serve` as two processes on one database, their clocks on
simulated days (tests/web/serving.py), with a local SMTP sink started by the test: an account
verifies its address over HTTP, a correspondence game played through both processes sends one
"your move" mail per turn and one "game over" for the loss on time (each notice claimed once),
with the game's link and no seat token; another visitor's "my games" shows none of it; an address
that would inject a header is refused over HTTP with nothing sent."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from .mailsink import body, mail_sink
from .serving import simulate, start_server, stop_server
from .test_correspondence_server import DAY, move, stored_row, view_of, wait_for

pytestmark = pytest.mark.slow


class Browser:
    """A visitor with its own cookies, talking to the servers over HTTP."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, url: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(url))

    def post(self, url: str, form: dict[str, str] | None = None, json_body: dict[str, object] | None = None) -> tuple[int, str]:
        if json_body is not None:
            request = urllib.request.Request(url, json.dumps(json_body).encode(), {"content-type": "application/json"})
        else:
            request = urllib.request.Request(url, urllib.parse.urlencode(form or {}).encode())
        return self._open(request)

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def claimed(database: Path) -> list[str]:
    from sqlalchemy import select

    from ogames.web.core.store import Store
    from ogames.web.notify.records import notices_sent

    store = Store(f"sqlite:///{database}", shared=True)
    try:
        with store.engine.connect() as conn:
            return [str(key) for key in conn.execute(select(notices_sent.c.key)).scalars()]
    finally:
        store.close()


def test_two_processes_send_each_notice_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database, now = tmp_path / "g.sqlite3", tmp_path / "now"
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    with mail_sink() as sink:
        for name, value in {"OGAMES_SMTP_HOST": "127.0.0.1", "OGAMES_SMTP_PORT": str(sink.port), "OGAMES_SMTP_TLS": "none",
                            "OGAMES_SITE_URL": "https://games.example.org", "OGAMES_SECRET_KEY": "s" * 40}.items():
            monkeypatch.setenv(name, value)
        a, base_a = start_server(database, logs[0], simulated=now, extra=("--share-sqlite",))
        b, base_b = start_server(database, logs[1], simulated=now, extra=("--share-sqlite",))
        try:
            ada = Browser()
            status, page = ada.post(base_a + "/signup", {"name": "Ada", "password": "correct horse", "again": "correct horse"})
            assert status == 200 and "Ada" in page
            hostile = "ada@example.org\r\nBcc: evil@example.com"
            status, page = ada.post(base_b + "/account/email", {"address": hostile})
            assert status == 400 and "not an e-mail address" in page
            assert ada.post(base_b + "/account/email", {"address": "ada@example.org"})[0] == 200
            verify = sink.wait_for(lambda mail: "your address" in str(mail["Subject"]))
            assert [str(mail["To"]) for mail in sink.received()] == ["ada@example.org"]  # the hostile address got nothing
            link = re.search(r"https://games\.example\.org(/account/email/verify\?token=\S+)", body(verify))
            assert link is not None
            assert Browser().get(base_a + link.group(1))[0] == 200  # opened in the mail program: no session needed
            assert Browser().get(base_b + link.group(1))[0] == 400  # and only once, whichever process is asked
            assert ada.post(base_a + "/account/notices", {"your_move": "1", "game_over": "1"})[0] == 200

            status, made = ada.post(base_a + "/api/games", json_body={
                "game": "omny", "options": {"variant": "y", "size": 4}, "seats": ["here", "invite"], "days": 3})
            assert status == 201
            game = json.loads(made)
            game_id = game["id"]
            tokens = {**game["tokens"], **{seat: invited["token"] for seat, invited in game["invitations"].items()}}
            move(base_a, game_id, tokens["0"], 0, "b2")
            move(base_a, game_id, tokens["1"], 1, "c2")  # Ada's turn
            assert view_of(base_b, game_id)["version"] == 2  # both processes hold the game now
            your_move = sink.wait_for(lambda mail: str(mail["Subject"]).startswith("Your move"))
            said = body(your_move)
            assert f"https://games.example.org/g/{game_id}\n" in said
            assert not any(token in said or token in str(your_move["List-Unsubscribe"]) for token in tokens.values())

            stranger = Browser()
            status, page = stranger.get(base_b + "/games/mine")
            assert status == 200 and game_id not in page
            status, page = ada.get(base_b + "/games/mine")
            assert status == 200 and f'data-game="{game_id}" data-state="waiting"' in page

            simulate(now, 3 * DAY + 1)  # Ada lets her days run out: both processes' sweepers see it
            wait_for(lambda: stored_row(database, game_id).status == "over")
            over = sink.wait_for(lambda mail: str(mail["Subject"]).startswith("Game over"))
            assert "on time" in body(over)
            status, page = ada.get(base_a + "/archive?player=ada&outcome=time")
            assert status == 200 and f'data-game="{game_id}"' in page
            subjects = [str(mail["Subject"]).split(":")[0] for mail in sink.received()]
            assert subjects == ["ogames", "Your move", "Game over"], subjects
            assert all("Traceback" not in log.read_text() for log in logs)
            assert sorted(key.split(":")[0] for key in claimed(database)) == ["move", "over"]  # each notice claimed once
        finally:
            stop_server(a)
            stop_server(b)
