"""Attacks on identity (web/accounts/), against a server process over HTTP and WebSockets: a form
or JSON POST from a browser without its CSRF token or with a wrong one, a tampered session
cookie, guessing a password (locked out), telling names with accounts from names without by the
log-in's time, acting for another seat while logged in, a WebSocket from another site's page —
each refused with nothing changed; and a deleted account's games kept without its name.

A "browser" here is an HTTP client that keeps cookies and sends an `Origin` with its POSTs, as
every browser does; each client comes from its own loopback address (its own rate limits)."""

from __future__ import annotations

import base64
import dataclasses
import itertools
import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from hostile_web import Server, SiteBrowser, new_game, rows, running
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from forgery import forge
from ogames.web.core.settings import Settings

ADDRESSES = (f"127.0.0.{n}" for n in itertools.count(10))  # a new client address for each browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("accounts")) as server:
        yield server


class Browser(SiteBrowser):
    """A browser that sends its POSTs with this site's Origin."""

    def __init__(self, server: Server, address: str | None = None):
        super().__init__(server, address or next(ADDRESSES))

    def post(self, path: str, fields: dict[str, str], token: str | None = "page", origin: str | None = None) -> httpx2.Response:
        """A form posted with the page's token (or `token` as given, None: none at all)."""
        data = dict(fields)
        if token == "page":
            data["csrftoken"] = self.token()
        elif token is not None:
            data["csrftoken"] = token
        return self.http.post(path, data=data, headers={"origin": origin or self.server.base})


def accounts(server: Server) -> list[tuple[Any, ...]]:
    return rows(server, "SELECT id, name, password_hash, role FROM accounts ORDER BY name")


def seats(server: Server, game_id: str) -> dict[int, str | None]:
    return dict(rows(server, "SELECT seat, player_id FROM seat_players WHERE game_id = ?", game_id))


def sign_up(server: Server, name: str, password: str = "correct horse") -> Browser:
    browser = Browser(server)
    answer = browser.post("/signup", {"name": name, "password": password, "again": password})
    assert answer.status_code == 303, answer.text
    assert browser.name() == name
    return browser


def test_a_browsers_post_without_its_token_or_with_a_wrong_one_is_refused(server: Server) -> None:
    victim = sign_up(server, "Victim")
    before = accounts(server)
    forged = {"current": "correct horse", "password": "attacker wins", "again": "attacker wins"}
    other = Browser(server).token()  # a real token, of another browser
    for token in (None, "", "forged", other):
        answer = victim.post("/account/password", forged, token=token)
        assert answer.status_code == 403 and "security token" in answer.text
    for origin in ("http://evil.example", None):  # another site's page, or this one's without the token
        answer = victim.post("/account/delete", {"password": "correct horse"}, token=None, origin=origin)
        assert answer.status_code == 403
    # the JSON API the pages use: a browser's request with cookies and no token is refused too
    answer = victim.http.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}},
                              headers={"origin": server.base})
    assert answer.status_code == 403 and answer.json()["code"] == "csrf"
    assert accounts(server) == before  # nothing changed
    assert victim.name() == "Victim"
    # with the page's token the same requests pass
    answer = victim.http.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}},
                              headers={"origin": server.base, "x-csrftoken": victim.token()})
    assert answer.status_code == 201


def test_the_log_in_form_is_protected_even_without_cookies(server: Server) -> None:
    sign_up(server, "Fresh")
    with httpx2.Client(base_url=server.base, timeout=60) as bare:
        answer = bare.post("/login", data={"name": "Fresh", "password": "correct horse"}, headers={"origin": "http://evil.example"})
    assert answer.status_code == 403 and "location" not in answer.headers  # refused: not logged in


def test_a_tampered_session_cookie_is_a_new_guest(server: Server) -> None:
    owner = sign_up(server, "Owner")
    cookie = owner.http.cookies["ogames_session"]
    payload, stamp, signature = cookie.rsplit(".", 2)
    data = base64.b64decode(payload).replace(b'"Owner"', b'"Other"')
    for forged in (base64.b64encode(data).decode() + f".{stamp}.{signature}", forge(cookie), "garbage"):
        thief = Browser(server)
        thief.http.cookies.set("ogames_session", forged)
        name = thief.name()
        assert name.startswith("guest-") and name not in ("Owner", "Other")
        answer = thief.post("/account/delete", {"password": "correct horse"})
        assert answer.status_code == 400  # a guest has no account to delete
    assert owner.name() == "Owner" and "Owner" in [row[1] for row in accounts(server)]


def test_guessing_a_password_is_locked_out(server: Server) -> None:
    sign_up(server, "Target", "the right one")
    guesser = Browser(server)
    for n in range(5):
        answer = guesser.post("/login", {"name": "target", "password": f"guess number {n}"})
        assert answer.status_code == 401 and "wrong name or password" in answer.text
    # locked: the right password from anywhere is refused now, saying when to try again
    for browser in (guesser, Browser(server)):
        answer = browser.post("/login", {"name": "Target", "password": "the right one"})
        assert answer.status_code == 429 and "too many log-in attempts" in answer.text
        assert int(answer.headers["retry-after"]) > 0
        assert browser.name().startswith("guest-")
    # names without accounts lock the same way (the lock tells nothing of which names exist)
    for n in range(5):
        assert guesser.post("/login", {"name": "nobody-here", "password": f"guess {n}"}).status_code == 401
    assert guesser.post("/login", {"name": "nobody-here", "password": "guess 6"}).status_code == 429


def test_a_logged_in_person_still_cannot_act_for_another_seat(server: Server) -> None:
    host = sign_up(server, "Host")
    asked = {"game": "omny", "options": {"variant": "y", "size": 3}, "seats": ["here", "invite"]}
    made = host.http.post("/api/games", json=asked,
                          headers={"origin": server.base, "x-csrftoken": host.token()})
    assert made.status_code == 201, made.text
    game = made.json()
    before = server.stored(game["id"])
    # the host's session and token, but a move for the invited seat (not the host's turn either)
    for body in ({"token": game["tokens"]["0"], "version": 0, "move": "a1", "seat": 1},
                 {"token": "", "version": 0, "move": "a1"}, {"version": 0, "move": "a1"}):
        answer = host.http.post(f"/api/games/{game['id']}/moves", json=body,
                                headers={"origin": server.base, "x-csrftoken": host.token()})
        assert answer.status_code in (403, 422), answer.text
    assert server.stored(game["id"]) == before
    account = next(row for row in accounts(server) if row[1] == "Host")
    assert seats(server, game["id"]) == {0: account[0]}  # the invited seat is nobody's yet


def test_a_deleted_accounts_games_stay_anonymised(server: Server) -> None:
    leaver = sign_up(server, "Leaver")
    made = leaver.http.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}},
                            headers={"origin": server.base, "x-csrftoken": leaver.token()})
    game = made.json()["id"]
    account = next(row for row in accounts(server) if row[1] == "Leaver")[0]
    assert set(seats(server, game).values()) == {account}
    stolen = dict(leaver.http.cookies)
    assert leaver.post("/account/delete", {"password": "correct horse"}).headers["location"] == "/"
    assert "Leaver" not in [row[1] for row in accounts(server)]
    assert seats(server, game) == {0: None, 1: None}
    assert server.stored(game)["game"] is not None  # the game stays
    assert account not in server.page(f"/g/{game}")[1] and "Leaver" not in server.page(f"/g/{game}")[1]
    thief = Browser(server)
    thief.http.cookies.update(stolen)  # the session cookie kept from before: it names nobody now
    assert thief.name().startswith("guest-")


def test_a_websocket_from_another_sites_page_is_refused(server: Server) -> None:
    game = new_game(server)["id"]
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws}/ws/g/{game}", origin="http://evil.example", open_timeout=30)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with connect(f"{server.ws}/ws/g/{game}", origin=server.base, open_timeout=30) as ws:  # type: ignore[arg-type]
        assert ws.recv(timeout=30)


def test_a_fixed_session_cookie_gives_the_attacker_nothing(server: Server) -> None:
    """Session fixation: an attacker's guest cookie planted in a victim's browser before the victim
    logs in stays the attacker's guest session; the log-in gives the victim a new one."""
    sign_up(server, "Fixed", "victim password")
    attacker = Browser(server)
    attacker_name = attacker.name()
    planted = attacker.http.cookies["ogames_session"]
    victim = Browser(server)
    victim.http.cookies.set("ogames_session", planted, domain="127.0.0.1")
    assert victim.post("/login", {"name": "Fixed", "password": "victim password"}).status_code == 303
    assert victim.name() == "Fixed" and victim.http.cookies["ogames_session"] != planted
    assert attacker.name() == attacker_name  # the planted cookie is still only the attacker's guest


def test_a_browsers_multipart_post_is_refused_but_the_record_upload_works(server: Server) -> None:
    browser = Browser(server)
    browser.token()  # cookies, as a browser that has opened a page
    game = new_game(server)
    before = server.stored(game["id"])
    files = {"record": ("r.json", b"{}", "application/json")}
    answer = browser.http.post(f"/api/games/{game['id']}/moves", files=files, headers={"origin": server.base})
    assert answer.status_code == 403 and answer.json()["code"] == "csrf"
    assert server.stored(game["id"]) == before
    record = server.call(f"/g/{game['id']}/record.json")[1]
    upload = browser.http.post("/replay", files={"record": ("r.json", json.dumps(record).encode(), "application/json")},
                               headers={"origin": server.base})
    assert upload.status_code == 200 and 'class="game replay"' in upload.text


def test_a_form_cut_off_while_its_token_is_read_is_no_error(server: Server) -> None:
    """A client that goes away in the middle of a form's body: nothing happens, and the log has no
    traceback (the module's server fixture checks the log when it stops)."""
    browser = Browser(server)
    cookies = "; ".join(f"{name}={value}" for name, value in browser.http.cookies.items())
    with socket.create_connection(("127.0.0.1", int(server.base.rsplit(":", 1)[1])), timeout=30) as raw:
        raw.sendall((f"POST /login HTTP/1.1\r\nHost: x\r\nOrigin: {server.base}\r\nCookie: {cookies}\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nname=abc").encode())
    assert browser.name().startswith("guest-")  # the server still answers


def test_logging_out_ends_a_stolen_copy_of_the_session(server: Server) -> None:
    owner = sign_up(server, "Careful")
    thief = Browser(server)
    thief.name()
    thief.http.cookies.set("ogames_session", owner.http.cookies["ogames_session"], domain="127.0.0.1")
    assert thief.name() == "Careful"  # a copy of the cookie works while the log-in lasts
    assert owner.post("/logout", {}).status_code == 303
    assert thief.name().startswith("guest-")  # and not once it is ended
    assert thief.post("/account/delete", {"password": "correct horse"}).status_code == 400
    assert "Careful" in [row[1] for row in accounts(server)]


def test_one_address_makes_only_a_few_accounts_an_hour(server: Server) -> None:
    """Each sign-up hashes a password: one address making accounts without end would keep the
    server's threads hashing and fill the names. Past `signups_per_hour` it is refused (429, saying
    when to try again) and nothing is made; a form refused before hashing does not count; another
    address is not affected."""
    limit = next(f for f in dataclasses.fields(Settings) if f.name == "signups_per_hour").default_factory()  # type: ignore[misc]
    address = next(ADDRESSES)
    for n in range(3):  # forms refused before any hashing (the passwords differ) are not counted
        mismatched = Browser(server, address).post("/signup", {"name": f"Typo{n}", "password": "correct horse",
                                                               "again": "correct horsf"})
        assert mismatched.status_code == 400 and "the two passwords differ" in mismatched.text
    answers = [Browser(server, address).post("/signup", {"name": f"Maker{n}", "password": "correct horse",
                                                         "again": "correct horse"}) for n in range(limit + 3)]
    assert [answer.status_code for answer in answers] == [303] * limit + [429] * 3
    assert "too many accounts made from your address" in answers[-1].text and int(answers[-1].headers["retry-after"]) > 0
    assert sum(1 for row in accounts(server) if row[1].startswith("Maker")) == limit
    sign_up(server, "Elsewhere")  # from another address
