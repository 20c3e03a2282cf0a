"""Attacks on the chat, the reports and the operators' routes (web/chat/), against a server
process over HTTP and WebSockets: a spectator writing into the players' chat, a forged seat token,
an over-long or a flooding message, markup in a message or a report, a non-operator calling
every operator route, a browser's operator POST without its CSRF token, a muted or banned name
chatting and a banned one creating games, a banned guest back with its cookies cleared (refused by
its address) — each refused, with nothing stored or changed; and the operator's role given by
`ogames operator grant` on the running server's database.

A "browser" is an HTTP client keeping its cookies and sending this site's Origin with its POSTs
(so it is asked for the CSRF token, which it sends as the page scripts do), from its own loopback
address."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from hostile_web import DEADLINE, Server, SiteBrowser, rows, running
from websockets.sync.client import connect

from forgery import forge
from web.serving import start_server

ADDRESSES = (f"127.0.0.{n}" for n in itertools.count(60))
OPERATOR_ROUTES = (("/operator/sanction", {"name": "Victim", "kind": "ban"}), ("/operator/lift", {"name": "Victim"}),
                   ("/operator/hide", {"game": "", "hidden": "1"}), ("/operator/reports/1/close", {}))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("chat")) as server:
        yield server


class Browser(SiteBrowser):
    """A browser that sends its POSTs as this site's pages do."""

    def __init__(self, server: Server, address: str | None = None):
        self.address = address or next(ADDRESSES)
        super().__init__(server, self.address)
        self.csrf = self.token()

    def json(self, path: str, body: dict[str, Any]) -> httpx2.Response:
        return self.http.post(path, json=body, headers={"origin": self.server.base, "x-csrftoken": self.csrf})

    def form(self, path: str, fields: dict[str, str], token: bool = True) -> httpx2.Response:
        data = {"csrftoken": self.csrf, **fields} if token else fields
        return self.http.post(path, data=data, headers={"origin": self.server.base})

    def say(self, game: str, room: str, text: str, tokens: list[str] | None = None) -> httpx2.Response:
        return self.json(f"/api/games/{game}/chat", {"room": room, "text": text, "tokens": tokens or []})


def sign_up(server: Server, name: str, address: str | None = None) -> Browser:
    browser = Browser(server, address)
    answer = browser.form("/signup", {"name": name, "password": "correct horse", "again": "correct horse"})
    assert answer.status_code == 303, answer.text
    browser.csrf = browser.token()
    return browser



def said(server: Server, game: str) -> list[tuple[Any, ...]]:
    return rows(server, "SELECT room, author_name, text FROM chat_messages WHERE game_id = ? ORDER BY id", game)


def everything(server: Server) -> list[list[tuple[Any, ...]]]:
    """What the chat, the reports, the sanctions, the hidden chats and the roles hold."""
    tables = ("chat_messages", "chat_reports", "sanctions", "hidden_chats")
    roles = rows(server, "SELECT name, role FROM accounts ORDER BY name")
    return [rows(server, f"SELECT * FROM {table}") for table in tables] + [roles]


def new_game(browser: Browser) -> tuple[str, dict[str, str]]:
    """A game the browser plays both seats of: its id and tokens."""
    made = browser.json("/api/games", {"game": "omny", "options": {"variant": "y", "size": 3}})
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["tokens"]


def test_a_spectator_never_writes_into_the_players_chat_nor_reads_it(server: Server) -> None:
    player, spectator = Browser(server), Browser(server)
    game, tokens = new_game(player)
    other_game, other_tokens = new_game(spectator)
    assert player.say(game, "players", "my plan: b2").status_code == 201
    before = said(server, game)
    for forged in ([], ["A" * 43], [forge(tokens["0"])], list(other_tokens.values()),
                   ["../" * 10], ["0." + tokens["0"]]):
        answer = spectator.say(game, "players", "play c3", forged)
        assert answer.status_code in (403, 422), (forged, answer.text)
    assert said(server, game) == before
    shown = spectator.http.get(f"/api/games/{game}/chat").json()
    assert shown["rooms"] == ["spectators"] and shown["messages"] == []
    # its socket, even claiming seats it does not hold, hears the spectators' room only
    with connect(f"{server.ws}/ws/chat/{game}", open_timeout=DEADLINE) as socket:
        socket.send(json.dumps({"type": "join", "tokens": ["A" * 43, other_tokens["0"]]}))
        history = json.loads(socket.recv(timeout=DEADLINE))
        assert history["player"] is False and history["messages"] == []
        assert player.say(game, "players", "secret again").status_code == 201
        assert spectator.say(game, "spectators", "hello").status_code == 201
        heard = json.loads(socket.recv(timeout=DEADLINE))
        assert heard["message"]["text"] == "hello" and heard["message"]["room"] == "spectators"
    assert other_game != game


def test_over_long_empty_and_malformed_messages_are_refused(server: Server) -> None:
    player = Browser(server)
    game, _ = new_game(player)
    for text in ("x" * 301, "y" * 1200, "\u202e\u200b\x00\x07", ""):
        answer = player.say(game, "spectators", text)
        assert answer.status_code == 422, answer.text
    huge = player.http.post(f"/api/games/{game}/chat", content=b'{"room":"spectators","text":"' + b"z" * 200_000 + b'"}',
                            headers={"origin": server.base, "x-csrftoken": player.csrf, "content-type": "application/json"})
    assert huge.status_code == 413
    for body in ({"room": "spectators"}, {"room": "spectators", "text": 5}, {"room": "spectators", "text": "hi", "extra": 1},
                 {"room": "players", "text": "hi", "tokens": ["t"] * 50}):
        assert player.json(f"/api/games/{game}/chat", body).status_code == 422
    assert said(server, game) == []


def test_a_flood_is_cut_at_the_burst_whatever_the_game(server: Server) -> None:
    flooder = Browser(server)
    games = [new_game(flooder)[0] for _ in range(2)]
    answers = [flooder.say(games[n % 2], "spectators", f"spam {n}") for n in range(12)]
    codes = [answer.status_code for answer in answers]
    assert codes[:5] == [201] * 5 and set(codes[5:]) == {429}, codes
    assert all(int(answer.headers["retry-after"]) > 0 for answer in answers[5:])
    assert sum(len(said(server, game)) for game in games) == 5
    assert Browser(server).say(games[0], "spectators", "someone else").status_code == 201  # the limit is the flooder's


def test_a_flooding_chat_socket_is_closed(server: Server) -> None:
    game, _ = new_game(Browser(server))
    with connect(f"{server.ws}/ws/chat/{game}", open_timeout=DEADLINE) as socket:
        socket.send(json.dumps({"type": "join", "tokens": []}))
        assert json.loads(socket.recv(timeout=DEADLINE))["type"] == "history"
        closed = None
        try:
            for _ in range(500):
                socket.send('{"type":"ping"}')
        except Exception as exc:  # closed by the server while sending
            closed = exc
        if closed is None:
            while True:
                try:
                    socket.recv(timeout=DEADLINE)
                except Exception as exc:
                    closed = exc
                    break
        assert socket.close_code == 4429


def test_markup_in_a_message_or_a_report_is_text_everywhere(server: Server) -> None:
    attack = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    player = Browser(server)
    game, _ = new_game(player)
    answer = player.say(game, "spectators", attack)
    assert answer.status_code == 201 and answer.json()["text"] == attack  # stored as written; the page shows it as text
    assert player.json(f"/api/games/{game}/report", {"reason": attack}).status_code == 201
    boss = sign_up(server, "Markup_Boss")
    grant(server, "Markup_Boss")
    for path in ("/operator", f"/operator/games/{game}"):
        page = boss.http.get(path).text
        assert attack not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def grant(server: Server, name: str, verb: str = "grant") -> None:
    """`ogames operator grant NAME` on the server's database: a SQLite file is held by its server,
    so the server stops meanwhile and starts again on the same port (sessions live on)."""
    port = int(server.base.rsplit(":", 1)[1])
    server.stop()
    done = subprocess.run([sys.executable, "-m", "ogames.cli.app", "operator", verb, name, "--database",
                           f"sqlite:///{server.database}"], capture_output=True, text=True, timeout=120)
    server.process, server.base = start_server(server.database, server.log, extra=("--share-sqlite",), port=port)
    assert done.returncode == 0, done.stdout + done.stderr


def test_nobody_but_an_operator_reaches_an_operator_route(server: Server) -> None:
    victim = sign_up(server, "Victim")
    game, _ = new_game(victim)
    assert victim.say(game, "spectators", "innocent words").status_code == 201
    assert victim.json(f"/api/games/{game}/report", {"reason": "a test report"}).status_code == 201
    browsers = (Browser(server), sign_up(server, "Mallory"))
    before = everything(server)
    for browser in browsers:
        assert browser.http.get("/operator").status_code == 403
        assert browser.http.get(f"/operator/games/{game}").status_code == 403
        for path, fields in OPERATOR_ROUTES:
            answer = browser.form(path, {**fields, "game": game} if "game" in fields else fields)
            assert answer.status_code == 403, (path, answer.status_code)
        # a program of its own (no Origin: not asked for the CSRF token) is refused all the same
        answer = browser.http.post("/operator/sanction", data={"name": "Victim", "kind": "ban"})
        assert answer.status_code == 403
    assert everything(server) == before
    # An operator's own browser is asked for its token like any: without it, nothing is done.
    boss = sign_up(server, "Boss")
    grant(server, "boss")
    assert boss.http.get("/operator").status_code == 200
    for path, fields in OPERATOR_ROUTES:
        answer = boss.form(path, {**fields, "game": game} if "game" in fields else fields, token=False)
        assert answer.status_code == 403 and "security token" in answer.text
    assert everything(server)[:4] == before[:4]
    grant(server, "boss", "revoke")
    assert boss.http.get("/operator").status_code == 403  # at once: the role is read on every request


def test_a_muted_or_banned_name_cannot_chat_and_a_banned_one_creates_nothing(server: Server) -> None:
    boss = sign_up(server, "Sheriff")
    grant(server, "Sheriff")
    boss.csrf = boss.token("/operator")
    troll = sign_up(server, "Troll")
    game, _ = new_game(troll)
    assert troll.say(game, "players", "first").status_code == 201
    guest = Browser(server)
    assert guest.say(game, "spectators", "guest spam").status_code == 201
    guest_name = guest.name()

    assert boss.form("/operator/sanction", {"name": "troll", "kind": "mute"}).status_code == 303
    assert boss.form("/operator/sanction", {"name": guest_name, "kind": "ban"}).status_code == 303
    assert troll.say(game, "players", "again").json()["code"] == "muted"
    assert guest.say(game, "spectators", "again").json()["code"] == "banned"
    assert troll.http.get(f"/api/games/{game}/chat").json()["messages"] == []  # hidden even from themselves
    assert new_game(troll)[0]  # muted: may still play
    games_before = rows(server, "SELECT count(*) FROM games")
    for path, body in (("/api/games", {"game": "omny", "options": {"variant": "y", "size": 3}}),
                       ("/api/omiga", {"options": {"width": 7, "height": 5}})):
        answer = guest.json(path, body)
        assert answer.status_code == 403 and answer.json()["code"] == "banned"
    page = guest.form("/new/omny", {"variant": "y", "size": "3"})
    assert page.status_code == 403 and "banned" in page.text
    assert rows(server, "SELECT count(*) FROM games") == games_before
    assert said(server, game) == [("players", "Troll", "first"), ("spectators", guest_name, "guest spam")]

    assert boss.form("/operator/lift", {"name": "Troll"}).status_code == 303
    assert troll.say(game, "players", "sorry").status_code == 201
    assert [m["text"] for m in troll.http.get(f"/api/games/{game}/chat").json()["messages"]] == ["first", "sorry"]


def seek_from(server: Server, address: str) -> dict[str, Any]:
    """What the lobby answers a seek posted by a new guest (no cookie) from an address."""
    with connect(server.ws + "/ws/lobby", open_timeout=DEADLINE, source_address=(address, 0)) as ws:
        ws.send(json.dumps({"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}))
        while True:
            answer = json.loads(ws.recv(timeout=DEADLINE))
            if answer["type"] in ("posted", "error"):
                return answer  # type: ignore[no-any-return]


def test_a_banned_guest_that_clears_its_cookies_is_refused_by_its_address(server: Server) -> None:
    boss = sign_up(server, "Marshal")
    grant(server, "Marshal")
    boss.csrf = boss.token("/operator")
    game, _ = new_game(Browser(server))
    guest = Browser(server)
    assert guest.say(game, "spectators", "spam from a guest").status_code == 201
    assert boss.form("/operator/sanction", {"name": guest.name(), "kind": "ban"}).status_code == 303

    fresh = Browser(server, guest.address)  # its cookies cleared: a new guest, at the same address
    assert fresh.name() != guest.name()
    before = everything(server), rows(server, "SELECT count(*) FROM games"), rows(server, "SELECT * FROM seeks")
    for answer in (fresh.say(game, "spectators", "a new me"),
                   fresh.json("/api/games", {"game": "omny", "options": {"variant": "y", "size": 3}}),
                   fresh.json("/api/omiga", {"options": {"width": 7, "height": 5}})):
        assert answer.status_code == 403 and answer.json()["code"] == "address-banned", answer.text
    page = fresh.form("/new/omny", {"variant": "y", "size": "3"})
    assert page.status_code == 403 and "sign up or log in" in page.text
    assert seek_from(server, guest.address)["code"] == "address-banned"
    assert (everything(server), rows(server, "SELECT count(*) FROM games"), rows(server, "SELECT * FROM seeks")) == before

    assert Browser(server).say(game, "spectators", "another address").status_code == 201
    flatmate = sign_up(server, "Flatmate", guest.address)  # an account at that address is not refused
    assert flatmate.say(game, "spectators", "hello from an account").status_code == 201
    assert boss.form("/operator/lift", {"name": guest.name()}).status_code == 303
    assert fresh.say(game, "spectators", "a new me").status_code == 201
    assert seek_from(server, guest.address)["type"] == "posted"
