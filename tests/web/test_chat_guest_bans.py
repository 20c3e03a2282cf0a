"""A ban of a guest bans its client addresses for guests a while (web/chat/bans.py, records.py), in
process: a banned guest who clears its cookies (a new guest id, from the same address: every
TestClient is "testclient") is refused chatting, creating games and seeks (403 `address-banned`)
and nothing is stored; an account from that address is not refused; lifting the ban, or the ban
period passing (the chat's clock moved ahead), lets guests from there in again; a mute bans no
address; a banned guest offers no rematch, nor is its earlier offer agreed to; and the addresses no ban needs are forgotten."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from ogames.web import create_app
from ogames.web.accounts.visitor import Visitor
from ogames.web.chat import bans, records
from ogames.web.core.store import Store, games
from ogames.web.lobby import records as lobby_records

from .conftest import quick_settings
from .scaling import needs_services
from .test_chat import new_game, operator_post, say, sign_up, store_of
from .test_rematch import two_people

HOURS = 2.0  # the ban period the site is given here
HOUR = 3600.0
SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}


class Clock:
    """The store's clock (`Store.clock`, which the chat's records read), moved ahead by hand."""

    def __init__(self) -> None:
        self.at = 1_900_000_000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def site(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(tmp_path / "b.sqlite3", warm_rules=False, guest_ban_hours=HOURS))) as client:
        store_of(client).clock = clock
        yield client


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=needs_services)])
def store(request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Iterator[Store]:
    """A store on a new SQLite file, and one on a new PostgreSQL database (the same records, both dialects)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    else:
        pg, _ = request.getfixturevalue("services")
        url = pg.new_database(f"bans_{tmp_path.name[-20:].lower()}".replace("-", "_"))
    made = Store(url)
    made.clock = clock
    try:
        yield made
    finally:
        made.close()


def stored(store: Store) -> tuple[int, int, int]:
    """How many messages, games and open seeks are stored."""
    with store.engine.connect() as conn:
        said = conn.execute(select(func.count()).select_from(records.chat_messages)).scalar_one()
        made = conn.execute(select(func.count()).select_from(games)).scalar_one()
    return said, made, len(lobby_records.open_seeks(store))


def seek_answer(client: TestClient) -> dict[str, Any]:
    """What the lobby answers the client's seek (`posted`, or an `error`)."""
    with client.websocket_connect("/ws/lobby") as ws:
        while ws.receive_json()["type"] != "seeks":
            pass
        ws.send_json(SEEK)
        while True:
            answer: dict[str, Any] = ws.receive_json()
            if answer["type"] in ("posted", "error"):
                return answer


def banned_guest(site: TestClient, kind: str = records.BAN) -> tuple[TestClient, str]:
    """A game whose spectators' chat a guest spoke in before an operator gave its name `kind`: the
    operator's client, and the game."""
    game, _ = new_game(site)
    guest = TestClient(site.app)
    name = say(guest, game, "spectators", "spam spam").json()["author"]
    boss = TestClient(site.app)
    sign_up(boss, "Boss")
    records.set_role(store_of(site), "Boss", records.OPERATOR)
    assert operator_post(boss, "/operator/sanction", name=name, kind=kind).status_code == 303
    assert say(guest, game, "spectators", "still me").json()["code"] == {records.BAN: "banned", records.MUTE: "muted"}[kind]
    assert seek_answer(guest).get("code") == ("banned" if kind == records.BAN else None)  # a muted name may seek
    return boss, game


def refused_everything(fresh: TestClient, game: str) -> None:
    """The client, a guest, is refused chatting, creating games (API and form) and seeking, for its address."""
    store = store_of(fresh)
    before = stored(store)
    for answer in (say(fresh, game, "spectators", "I am someone else"),
                   fresh.post("/api/games", json={"game": "omny", "options": {}}),
                   fresh.post("/api/omiga", json={"options": {"width": 7, "height": 5}})):
        assert answer.status_code == 403, answer.text
        assert answer.json()["code"] == "address-banned"
        assert "sign up or log in" in answer.json()["error"]
    russian = fresh.post("/api/games?lang=ru", json={"game": "omny", "options": {}})
    assert "зарегистрируйтесь или войдите" in russian.json()["error"]
    assert seek_answer(fresh)["code"] == "address-banned"
    assert stored(store) == before


def test_a_banned_guest_who_clears_its_cookies_is_refused_but_an_account_is_not(site: TestClient) -> None:
    boss, game = banned_guest(site)
    fresh = TestClient(site.app)  # no cookies: a new guest, from the same address
    refused_everything(fresh, game)
    assert fresh.get(f"/api/games/{game}/chat").status_code == 200  # reading is not refused

    sign_up(fresh, "Neighbour")  # the same address, an account: chats, creates and seeks
    assert say(fresh, game, "spectators", "hello").status_code == 201
    assert fresh.post("/api/games", json={"game": "omny", "options": {}}).status_code == 201
    assert seek_answer(fresh)["type"] == "posted"

    sanctioned = next(row["name"] for row in records.all_sanctions(store_of(site)))
    assert operator_post(boss, "/operator/lift", name=sanctioned).status_code == 303
    again = TestClient(site.app)
    assert say(again, game, "spectators", "back").status_code == 201
    assert again.post("/api/games", json={"game": "omny", "options": {}}).status_code == 201


def test_a_banned_guest_cannot_accept_a_seek_either(site: TestClient) -> None:
    banned_guest(site)
    store = store_of(site)
    poster = TestClient(site.app)
    sign_up(poster, "Poster")
    with poster.websocket_connect("/ws/lobby") as posting:  # (its page open: the seek stays open)
        while posting.receive_json()["type"] != "seeks":
            pass
        posting.send_json(SEEK)
        while (answer := posting.receive_json())["type"] != "posted":
            pass
        before = stored(store)
        fresh = TestClient(site.app)  # a new guest from the banned address
        with fresh.websocket_connect("/ws/lobby") as accepting:
            while accepting.receive_json()["type"] != "seeks":
                pass
            accepting.send_json({"type": "accept", "seek": answer["seek"]})
            while (refusal := accepting.receive_json())["type"] not in ("error", "go"):
                pass
        assert refusal.get("code") == "address-banned", refusal
        assert stored(store) == before  # no game made, the seek still open


def test_the_address_ban_ends_after_the_period(site: TestClient, clock: Clock) -> None:
    _, game = banned_guest(site)
    clock.at += HOURS * HOUR - 60
    refused_everything(TestClient(site.app), game)
    clock.at += 120  # the period has passed since the ban
    fresh = TestClient(site.app)
    assert say(fresh, game, "spectators", "a new day").status_code == 201
    assert seek_answer(fresh)["type"] == "posted"


def test_a_mute_bans_no_address(site: TestClient) -> None:
    _, game = banned_guest(site, records.MUTE)
    fresh = TestClient(site.app)
    assert say(fresh, game, "spectators", "hello").status_code == 201
    assert fresh.post("/api/games", json={"game": "omny", "options": {}}).status_code == 201


def test_an_address_used_long_before_the_ban_is_not_banned(store: Store, clock: Clock) -> None:
    period = HOURS * HOUR
    game = _a_game(store)
    records.add_message(store, game, records.SPECTATORS, "gold", "Old", "hi", "10.0.0.1", period)
    clock.at += period + 1
    records.add_message(store, game, records.SPECTATORS, "gold", "Old", "hi", "10.0.0.2", period)
    records.sanction(store, ["gold"], "Old", records.BAN, "test", period)
    assert not records.address_banned(store, "10.0.0.1", period)
    assert records.address_banned(store, "10.0.0.2", period)
    assert _addresses(store) == [("gold", "10.0.0.2")]  # the old one, useless, was forgotten on banning


def test_addresses_are_kept_only_while_a_ban_may_need_them(store: Store, clock: Clock) -> None:
    period = HOURS * HOUR
    game = _a_game(store)
    for guest, address in (("gone", "10.0.0.1"), ("bad", "10.0.0.2"), ("gone", "10.0.0.1")):
        records.add_message(store, game, records.SPECTATORS, guest, guest, "hi", address, period)
    assert _addresses(store) == [("bad", "10.0.0.2"), ("gone", "10.0.0.1")]  # one row a guest and address
    clock.at += 0.75 * period
    records.sanction(store, ["bad"], "bad", records.BAN, "test", period)
    clock.at += 0.5 * period  # both rows are older than the period now
    records.add_message(store, game, records.SPECTATORS, "new", "new", "hi", "10.0.0.3", period)  # a new row: a sweep
    assert _addresses(store) == [("bad", "10.0.0.2"), ("new", "10.0.0.3")]  # the banned guest's is kept
    assert records.address_banned(store, "10.0.0.2", period)
    clock.at += 0.5 * period  # the ban has ended: its address is useless too
    assert not records.address_banned(store, "10.0.0.2", period)
    records.add_message(store, game, records.SPECTATORS, "newer", "newer", "hi", "10.0.0.4", period)
    assert _addresses(store) == [("new", "10.0.0.3"), ("newer", "10.0.0.4")]


def test_only_a_guest_with_a_known_banned_address_is_refused(store: Store, clock: Clock) -> None:
    records.add_message(store, _a_game(store), records.SPECTATORS, "gbad", "Bad", "hi", "10.0.0.2", HOURS * HOUR)
    records.sanction(store, ["gbad"], "Bad", records.BAN, "test", HOURS * HOUR)

    def refusal(visitor: Visitor, address: str | None) -> str | None:
        found = asyncio.run(bans.refusal_of(store, visitor, address, HOURS))
        return None if found is None else found.code

    assert refusal(Visitor("gnew", "New", True), "10.0.0.2") == "address-banned"
    assert refusal(Visitor("gbad", "Bad", True), "10.0.0.9") == "banned"  # its own ban, from anywhere
    assert refusal(Visitor("gnew", "New", True), "10.0.0.9") is None
    assert refusal(Visitor("gnew", "New", True), None) is None  # an address the server is not told: nobody's
    assert refusal(Visitor("anew", "Neighbour", False), "10.0.0.2") is None  # an account


def _a_game(store: Store) -> str:
    with store.engine.begin() as conn:
        conn.execute(games.insert().values(id="g1", game="omny", mode="hotseat", seat_kinds=[], head={}, ply=0, version=1,
                                           status="playing", created_at=0.0, updated_at=0.0))
    return "g1"


def _addresses(store: Store) -> list[tuple[str, str]]:
    with store.engine.connect() as conn:
        query = select(records.guest_addresses.c.player_id, records.guest_addresses.c.address)
        return sorted((str(row.player_id), str(row.address)) for row in conn.execute(query))


def test_a_banned_player_cannot_offer_a_rematch(site: TestClient) -> None:
    """An offer makes a game, so a banned guest's offer is refused, and so is a new guest's from its
    address; its opponent cannot offer one with it either (409 `opponent-banned`): no game is made."""
    player = TestClient(site.app)
    game, black, white = two_people(player)
    name = say(player, game, "spectators", "spam").json()["author"]
    boss = TestClient(site.app)
    sign_up(boss, "Boss")
    records.set_role(store_of(site), "Boss", records.OPERATOR)
    assert operator_post(boss, "/operator/sanction", name=name, kind=records.BAN).status_code == 303
    opponent = TestClient(site.app)
    sign_up(opponent, "Opponent")
    assert opponent.post(f"/api/games/{game}/resign", json={"token": white, "version": 0}).status_code == 200
    before = stored(store_of(site))
    for client, code in ((player, "banned"), (TestClient(site.app), "address-banned")):
        refused = client.post(f"/api/games/{game}/rematch", json={"token": black})
        assert refused.status_code == 403 and refused.json()["code"] == code, refused.text
    assert opponent.post(f"/api/games/{game}/rematch", json={"token": white}).json()["code"] == "opponent-banned"
    assert opponent.get(f"/api/games/{game}/rematch").json() == {"offered": [], "game": None, "over": True}
    assert stored(store_of(site)) == before


def test_an_offer_made_before_a_ban_cannot_be_agreed_to(site: TestClient) -> None:
    """A guest offers a rematch and is banned afterwards: its opponent's agreement is refused (409
    `opponent-banned`), so the ban still stops it getting a new game, and nothing is stored."""
    player = TestClient(site.app)
    game, black, white = two_people(player)
    name = say(player, game, "spectators", "spam").json()["author"]
    opponent = TestClient(site.app)
    sign_up(opponent, "Opponent")
    assert opponent.post(f"/api/games/{game}/resign", json={"token": white, "version": 0}).status_code == 200
    assert player.post(f"/api/games/{game}/rematch", json={"token": black}).json()["offered"] == [0]
    boss = TestClient(site.app)
    sign_up(boss, "Boss")
    records.set_role(store_of(site), "Boss", records.OPERATOR)
    assert operator_post(boss, "/operator/sanction", name=name, kind=records.BAN).status_code == 303
    before = stored(store_of(site))
    refused = opponent.post(f"/api/games/{game}/rematch", json={"token": white})
    assert refused.status_code == 409 and refused.json()["code"] == "opponent-banned", refused.text
    assert opponent.get(f"/api/games/{game}/rematch").json() == {"offered": [0], "game": None, "over": True}
    assert stored(store_of(site)) == before
