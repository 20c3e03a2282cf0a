"""Identity (web/accounts/): account names' rules, passwords, the migration that adds accounts to a
database of old games, and the account pages in process — a guest who signs up keeps the guest's
games, a password change ends the account's other sessions, a deleted account's games stay
without its name. The attacks (CSRF, tampered cookies, guessing) are in
tests/hostile/test_accounts_attacks.py, against a server process."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

import ogames
from ogames.web import create_app
from ogames.web.accounts import passwords, records
from ogames.web.accounts.names import MAX_LENGTH, MIN_LENGTH, RESERVED, guest_name, name_key, name_problem
from ogames.web.core.store import Store, make_engine, migrate

from .conftest import quick_settings

BROWSER = {"origin": "http://testserver"}  # what a browser sends with a POST: the CSRF token is asked for


def eventually(condition: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Wait until `condition()` holds (its value): a page's message is handled after the answers
    it causes may have been sent."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.05)
    return value


# ----- names ---------------------------------------------------------------------------------------


@given(st.text(max_size=40))
def test_an_accepted_name_is_short_plain_and_not_reserved(name: str) -> None:
    if name_problem(name) is None:
        assert MIN_LENGTH <= len(name) <= MAX_LENGTH
        assert name[0].isascii() and name[0].isalpha()
        assert all(ch.isascii() and (ch.isalnum() or ch in "_-") for ch in name)
        assert name_key(name) not in RESERVED and not name_key(name).startswith("guest")


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{2,19}", fullmatch=True))
def test_a_plain_name_is_accepted_unless_reserved_and_its_key_ignores_case(name: str) -> None:
    reserved = name.casefold() in RESERVED or name.casefold().startswith("guest")
    assert (name_problem(name) is None) != reserved
    assert name_key(name) == name_key(name.upper()) == name_key(name.lower())


@given(st.sampled_from(sorted(RESERVED)), st.data())
def test_a_reserved_name_is_refused_in_any_case(name: str, data: st.DataObject) -> None:
    flips = data.draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    cased = "".join(ch.upper() if flip else ch for ch, flip in zip(name, flips, strict=True))
    assert name_problem(cased) is not None


def test_a_guest_name_is_readable_and_never_an_account_name() -> None:
    for _ in range(50):
        name = guest_name()
        assert re.fullmatch(r"guest(-[a-z]+){2,}", name), name
        assert name_problem(name) is not None


def test_a_password_is_hashed_with_argon2id_and_checked() -> None:
    stored = passwords.hash_password("correct horse")
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert passwords.check_password("correct horse", stored)[0]
    assert not passwords.check_password("wrong horse!", stored)[0]
    assert passwords.password_problem("short") is not None and passwords.password_problem("long enough") is None


def test_a_name_nobody_has_costs_a_full_password_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Timing-safety by construction (timed asserts stay out of tests: the server-level times are
    measured side by side in benchmarks/bench_identity.py): the missing account's log-in verifies
    the password against the decoy hash, as a wrong password for an account does."""
    checked: list[str] = []
    real = passwords.HASHER.verify

    def verify(password: str, stored: str) -> bool:
        checked.append(stored)
        return real(password, stored)

    monkeypatch.setattr(passwords.HASHER, "verify", verify)
    assert passwords.check_password("anything at all", None) == (False, None)
    assert checked == [passwords.decoy_hash()]


# ----- the migration ---------------------------------------------------------------------------------


def test_a_database_of_the_0002_era_keeps_every_game_and_its_links(tmp_path: Path) -> None:
    """A database as the server before accounts left it (schema 0002, a game with seat tokens):
    after the upgrade the game loads the same, its tokens still open its seats, and nobody is
    recorded in them until someone sits down; and the upgrade can be taken back."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    migrate(engine, "0002")
    state = ogames.load("omny", variant="y", size=3).new_state(["ann", "bob"])
    state.play("b2")
    record = state.record()
    head = {key: value for key, value in record.items() if key != "moves"}
    with engine.begin() as conn:
        conn.execute(
            text("insert into games (id, game, mode, seat_kinds, head, ply, version, status, created_at, updated_at, listed) "
                 "values ('old', 'omny', 'online', :kinds, :head, 1, 1, 'playing', 1.0, 1.0, 0)"),
            {"kinds": '["human", "invited"]', "head": json.dumps(head)},
        )
        conn.execute(text("insert into moves values ('old', 0, :entry, 1.0)"), {"entry": json.dumps(record["moves"][0])})
        for seat, token in ((0, "tok-ann"), (1, "tok-bob")):
            from ogames.web.core.store import digest

            conn.execute(text("insert into seat_tokens values ('old', :seat, :digest)"), {"seat": seat, "digest": digest(token)})
    engine.dispose()

    with TestClient(create_app(quick_settings(tmp_path / "old.sqlite3", warm_rules=False))) as client:
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        row = store.load_game("old")
        assert row is not None and row.record() == record
        assert records.seat_players_of(store, "old") == {}
        # the invitation link's token still plays its seat (the API acts by token alone)
        moved = client.post("/api/games/old/moves", json={"token": "tok-bob", "version": 1, "move": "a1"})
        assert moved.status_code == 200, moved.text
        refused = client.post("/api/games/old/moves", json={"token": "tok-bob", "version": 2, "move": "c1"})
        assert refused.status_code in (403, 409) and store.version_of("old") == 2
        # the invited person opens the game's page: their seat is theirs from now on
        with client.websocket_connect("/ws/g/old") as ws:
            ws.receive_json()
            ws.send_json({"type": "here", "tokens": ["tok-bob"]})
            eventually(lambda: records.seat_players_of(store, "old"), "the seat is recorded")
        assert set(records.seat_players_of(store, "old")) == {1}
        assert "/g/old" in client.get("/account").text
    downgrade = make_engine(url)
    migrate(downgrade, "0002", down=True)
    with downgrade.connect() as conn:
        assert conn.execute(text("select version from games where id = 'old'")).scalar() == 2
        assert "accounts" not in {row[0] for row in conn.execute(text("select name from sqlite_master"))}
    downgrade.dispose()


# ----- the pages ---------------------------------------------------------------------------------------


def csrf(client: TestClient, path: str = "/account") -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert found
    return found.group(1)


def form(client: TestClient, path: str, **fields: str) -> tuple[int, str, str | None]:
    """(status, text, redirect) of a form posted as the page does: its token, a browser's Origin."""
    response = client.post(path, data={"csrftoken": csrf(client), **fields}, headers=BROWSER, follow_redirects=False)
    return response.status_code, response.text, response.headers.get("location")


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(tmp_path / "a.sqlite3", warm_rules=False))) as client:
        yield client


def test_a_guest_who_signs_up_keeps_the_guests_games(app_client: TestClient) -> None:
    guest = re.search(r'class="visitor-name"[^>]*>([^<]+)<', app_client.get("/").text)
    assert guest and guest.group(1).startswith("guest-")
    game = app_client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}}).json()["id"]
    assert f"/g/{game}" in app_client.get("/account").text
    status, _, where = form(app_client, "/signup", name="Ada", password="correct horse", again="correct horse")
    assert (status, where) == (303, "/account")
    page = app_client.get("/account").text
    assert f"/g/{game}" in page and ">Ada<" in page and "guest-" not in page
    store: Store = app_client.app.state.store  # type: ignore[attr-defined]
    account = records.account_by_key(store, "ada")
    assert account is not None and records.seat_players_of(store, game) == {0: account.id, 1: account.id}


def test_a_name_is_unique_whatever_its_case_and_bad_forms_say_why(app_client: TestClient) -> None:
    assert form(app_client, "/signup", name="Ada", password="correct horse", again="correct horse")[0] == 303
    app_client.post("/logout", data={"csrftoken": csrf(app_client)}, headers=BROWSER)
    status, text_, _ = form(app_client, "/signup", name="ADA", password="another one", again="another one")
    assert status == 400 and "is taken" in text_
    assert "reserved" in form(app_client, "/signup", name="Admin", password="another one", again="another one")[1]
    assert "differ" in form(app_client, "/signup", name="Bea", password="another one", again="another two")[1]
    assert "characters" in form(app_client, "/signup", name="Bea", password="short", again="short")[1]
    assert records.account_by_key(app_client.app.state.store, "bea") is None  # type: ignore[attr-defined]


def test_a_password_change_ends_the_accounts_other_sessions(app_client: TestClient, tmp_path: Path) -> None:
    form(app_client, "/signup", name="Ada", password="correct horse", again="correct horse")
    copy = TestClient(app_client.app)
    copy.cookies.update(app_client.cookies)  # a copy of this log-in's cookie (stolen, say)
    other = TestClient(app_client.app)  # and another log-in, on another computer
    assert form(other, "/login", name="Ada", password="correct horse")[2] == "/account"
    assert ">Ada<" in other.get("/account").text and ">Ada<" in copy.get("/account").text
    status, text_, _ = form(app_client, "/account/password", current="correct horse", password="battery staple",
                            again="battery staple")
    assert status == 200 and "the password is changed" in text_
    assert ">Ada<" in app_client.get("/account").text  # this session goes on
    assert "guest-" in other.get("/account").text  # the other log-in has ended
    assert "guest-" in copy.get("/account").text  # and so has the copy of this one
    assert form(app_client, "/logout")[0] == 303
    assert form(app_client, "/login", name="ada", password="correct horse")[0] == 401
    assert form(app_client, "/login", name="ada", password="battery staple")[2] == "/account"


def test_a_deleted_accounts_games_stay_without_its_name(app_client: TestClient) -> None:
    form(app_client, "/signup", name="Ada", password="correct horse", again="correct horse")
    game = app_client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}}).json()["id"]
    store: Store = app_client.app.state.store  # type: ignore[attr-defined]
    assert form(app_client, "/account/delete", password="wrong password")[0] == 400
    assert records.account_by_key(store, "ada") is not None
    assert form(app_client, "/account/delete", password="correct horse")[2] == "/"
    assert records.account_by_key(store, "ada") is None
    assert records.seat_players_of(store, game) == {0: None, 1: None}
    assert store.load_game(game) is not None
    assert "guest-" in app_client.get("/account").text
    # the name is free again
    assert form(app_client, "/signup", name="ada", password="correct horse", again="correct horse")[0] == 303


def test_an_omiga_table_records_who_sat_down(app_client: TestClient) -> None:
    made = app_client.post("/api/omiga", json={"options": {"width": 7, "height": 5},
                                                "seats": [{"kind": "here"}, {"kind": "invite"}]})
    assert made.status_code == 201, made.text
    table = made.json()
    store: Store = app_client.app.state.store  # type: ignore[attr-defined]
    me = records.seat_players_of(store, table["id"])
    assert list(me) == [0] and me[0] is not None and me[0].startswith("g")
    assert f"/g/{table['id']}" in app_client.get("/account").text  # (/g/ID sends a card table on to /o/ID)
    invited = TestClient(app_client.app)  # the invitation followed in another browser
    token = table["invitations"]["1"].split("seats=1.")[1]
    with invited.websocket_connect(f"/ws/o/{table['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "ready", "tokens": [token]})
        eventually(lambda: len(records.seat_players_of(store, table["id"])) == 2, "the invited seat is recorded")
    seats = records.seat_players_of(store, table["id"])
    assert set(seats) == {0, 1} and seats[1] != seats[0]


def test_a_game_names_the_account_that_took_its_invited_seat(app_client: TestClient) -> None:
    """GET /api/games/ID/names: the accounts' names in the seats, the one who followed the invitation
    once their page has said it holds the seat (the pages that see the seat held ask again)."""
    form(app_client, "/signup", name="Ada", password="correct horse", again="correct horse")
    made = app_client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3},
                                               "seats": ["here", "invite"]}).json()
    names = f"/api/games/{made['id']}/names"
    assert app_client.get(names).json() == {"names": {"0": "Ada"}}
    bob = TestClient(app_client.app)  # the invitation followed in another browser, by Bob
    form(bob, "/signup", name="Bob", password="another horse", again="another horse")
    with bob.websocket_connect(f"/ws/g/{made['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "here", "tokens": [made["invitations"]["1"]["token"]]})
        eventually(lambda: app_client.get(names).json()["names"].get("1"), "the invited seat is named")
    assert app_client.get(names).json() == {"names": {"0": "Ada", "1": "Bob"}}
    assert app_client.get("/api/games/nosuchgame/names").status_code == 404
