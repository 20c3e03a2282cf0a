"""Rated Omiga tables (web/omiga/ with web/ratings/), in process: an account's table between two
accounts played to its end is rated once — also when other server instances on the same database
load the ended table —, one against a bot level moves only the person's rating, a casual table
moves nothing, a guest cannot make a rated table, and nobody outside the seats can sway one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from forgery import forge
from ogames.ratings.store import rating_history
from ogames.web import create_app
from ogames.web.accounts import records as accounts
from ogames.web.core.store import Store
from ogames.web.omiga import live as omiga_live
from ogames.web.ratings import records

from .conftest import quick_settings
from .test_accounts import eventually
from .test_omiga import DEAL, SMALL, next_of, tokens_of
from .test_ratings_site import browser, person

TWO_PEOPLE = [{"kind": "here"}, {"kind": "invite"}]


def omiga_app(path: Path) -> Any:
    return create_app(quick_settings(path, warm_rules=False, omiga_countdown=0.05))


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setattr(omiga_live, "secret_seed", lambda: DEAL)  # the tests know the deal, as a player cannot
    made = omiga_app(tmp_path / "r.sqlite3")
    with TestClient(made) as running:
        made.state.running = running
        yield made


def store_of(app: Any) -> Store:
    store: Store = app.state.store
    return store


def account_id(app: Any, name: str) -> str:
    found = accounts.account_by_key(store_of(app), name.lower())
    assert found is not None
    return found.id


def history_rows(store: Store, table_id: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(rating_history).where(rating_history.c.game_id == table_id))
                   .scalar_one())


def spot(view: dict[str, Any], seat: int) -> str:
    """A legal action of a seat: a card that fits, else a discard."""
    for card in view["seats"][seat]["hand"]:
        for cell, turned in card["spots"]:
            return f"{card['act']} {cell}" + (" turned" if turned else "")
    return "discard"


def made(client: TestClient, seats: list[dict[str, Any]], rated: bool = True, **options: Any) -> dict[str, Any]:
    answer = client.post("/api/omiga", json={"options": {**SMALL, **options}, "seats": seats, "rated": rated})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def play_and_resign(host: TestClient, guest: TestClient, body: dict[str, Any], loser: int = 0) -> dict[str, Any]:
    """Each person's page takes its seat (the invited one through its link's token), both act once,
    then the `loser` resigns; the view of the ended table."""
    tokens = tokens_of(body)
    with host.websocket_connect(f"/ws/o/{body['id']}") as first, guest.websocket_connect(f"/ws/o/{body['id']}") as second:
        next_of(first, "state")
        next_of(second, "state")
        second.send_json({"type": "ready", "tokens": [tokens[1]]})
        first.send_json({"type": "ready", "tokens": [tokens[0]]})
        next_of(first, "state", lambda seen: seen["started"])
        for seq, (socket, seat) in enumerate(((first, 0), (second, 1)), start=1):
            view = host.get(f"/api/omiga/{body['id']}").json()  # the table now (the other's card may have landed)
            socket.send_json({"type": "act", "action": spot(view, seat), "token": tokens[seat], "seq": seq})
            assert next_of(socket, "verdict")["accepted"]
        (first if loser == 0 else second).send_json({"type": "resign", "token": tokens[loser], "seq": 9})
        return next_of(first, "state", lambda seen: seen["over"])


def rated_table(app: Any) -> tuple[TestClient, TestClient, dict[str, Any]]:
    ada, bea = person(app, "Ada"), person(app, "Bea")
    return ada, bea, made(ada, TWO_PEOPLE)


def test_a_rated_table_between_two_accounts_is_rated_once_and_shown(app: Any) -> None:
    ada, bea, body = rated_table(app)
    assert body["view"]["rated"] is True and body["view"]["ratings"] is None
    over = play_and_resign(ada, bea, body, loser=0)
    assert over["result"]["winner"] == "black"
    shown = eventually(lambda: ada.get(f"/api/omiga/{body['id']}").json()["ratings"], "the ratings are shown")
    assert [(change["seat"], change["name"], change["before"]) for change in shown] == [(0, "Ada", "1500?"), (1, "Bea", "1500?")]
    assert int(shown[0]["diff"]) < 0 < int(shown[1]["diff"])
    store = store_of(app)
    ids = [account_id(app, "ada"), account_id(app, "bea")]
    before = [records.ratings_of(store, player)["omiga"] for player in ids]
    assert [rating.games for rating in before] == [1, 1] and history_rows(store, body["id"]) == 2
    # Rated once: by hand again, or the table's end heard again, changes nothing.
    hub = app.state.omiga
    assert records.rate_game(store, body["id"], hub.tables[body["id"]].state, ids) is None
    hub.rater.ended(hub.tables[body["id"]])
    assert [records.ratings_of(store, player)["omiga"].rating for player in ids] == [rating.rating for rating in before]
    assert history_rows(store, body["id"]) == 2
    # The profiles show the Omiga rating and link the table; the leaderboard has Omiga's boards.
    page = bea.get("/@/Bea").text
    assert 'data-pool="omiga"' in page and f'href="/o/{body["id"]}"' in page and shown[1]["after"] in page
    board = ada.get("/leaderboard").text
    assert "Omiga, 2v2" in board and ada.get("/leaderboard/omiga").status_code == 200


def test_servers_that_load_the_ended_table_later_rate_it_once_and_show_the_same(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee stored the end but stopped before rating it (its end hook does nothing here, as
    if it died just then); the next server on the database to load the table rates it, and the
    one after finds it rated and shows the same changes. (One server at a time: SQLite is for one
    process; tests/web/test_omiga_rated_scale_out.py has two at once on PostgreSQL.)"""
    monkeypatch.setattr(omiga_live, "secret_seed", lambda: DEAL)
    path = tmp_path / "r.sqlite3"
    first = omiga_app(path)
    with TestClient(first) as running:
        first.state.running = running
        ada, bea, body = rated_table(first)
        first.state.omiga.referee.ended = lambda live: None
        play_and_resign(ada, bea, body, loser=1)
        store = store_of(first)
        assert history_rows(store, body["id"]) == 0
        ids = [account_id(first, "ada"), account_id(first, "bea")]
    shown = []
    for _ in range(2):
        later = omiga_app(path)
        with TestClient(later) as client:
            assert client.get(f"/api/omiga/{body['id']}").json()["over"]
            shown.append(eventually(lambda client=client: client.get(f"/api/omiga/{body['id']}").json()["ratings"], "shown"))
            store = store_of(later)
            assert history_rows(store, body["id"]) == 2
            assert [records.ratings_of(store, player)["omiga"].games for player in ids] == [1, 1]
    assert shown[0] == shown[1] and int(shown[0][1]["diff"]) < 0 < int(shown[0][0]["diff"])


def test_a_person_against_a_bot_level_is_rated_and_the_level_keeps_its_rating(app: Any) -> None:
    ada = person(app, "Ada")
    body = made(ada, [{"kind": "here"}, {"kind": "bot", "level": 10}])
    token = tokens_of(body)[0]
    with ada.websocket_connect(f"/ws/o/{body['id']}") as ws:
        next_of(ws, "state")
        ws.send_json({"type": "ready", "tokens": [token]})
        view = next_of(ws, "state", lambda seen: seen["started"])
        ws.send_json({"type": "act", "action": spot(view, 0), "token": token, "seq": 1})
        # Both have acted (a table ended before everyone acted is not rated): then Ada gives up.
        next_of(ws, "state", lambda seen: any(move["by"] == "black" for move in seen["moves"]), limit=2000)
        ws.send_json({"type": "resign", "token": token, "seq": 2})
        next_of(ws, "state", lambda seen: seen["over"], limit=2000)
    shown = eventually(lambda: ada.get(f"/api/omiga/{body['id']}").json()["ratings"], "the rating is shown")
    assert [change["seat"] for change in shown] == [0] and int(shown[0]["diff"]) < 0
    assert records.ratings_of(store_of(app), account_id(app, "ada"))["omiga"].games == 1
    assert history_rows(store_of(app), body["id"]) == 1  # the level is not stored: its rating is fixed


def test_a_casual_table_and_one_ended_before_everyone_acted_change_no_rating(app: Any) -> None:
    ada, bea = person(app, "Ada"), person(app, "Bea")
    casual = made(ada, TWO_PEOPLE, rated=False)
    assert casual["view"]["rated"] is False
    play_and_resign(ada, bea, casual)
    early = made(ada, TWO_PEOPLE)
    tokens = tokens_of(early)
    with ada.websocket_connect(f"/ws/o/{early['id']}") as first, bea.websocket_connect(f"/ws/o/{early['id']}") as second:
        next_of(first, "state")
        next_of(second, "state")
        second.send_json({"type": "ready", "tokens": [tokens[1]]})
        first.send_json({"type": "ready", "tokens": [tokens[0]]})
        next_of(first, "state", lambda seen: seen["started"])
        second.send_json({"type": "resign", "token": tokens[1], "seq": 1})  # before anyone acted
        next_of(first, "state", lambda seen: seen["over"])
    assert eventually(lambda: ada.get(f"/api/omiga/{early['id']}").json()["ratings"] is not None, "settled")
    assert ada.get(f"/api/omiga/{early['id']}").json()["ratings"] == []  # ended before everyone acted: not rated
    assert len(accounts.seat_players_of(store_of(app), early["id"])) == 2  # though both seats were accounts'
    assert ada.get(f"/api/omiga/{casual['id']}").json()["ratings"] is None  # casual: never settled
    for name in ("ada", "bea"):
        assert records.ratings_of(store_of(app), account_id(app, name)) == {}


def test_a_guest_cannot_make_a_rated_table_and_nothing_is_stored(app: Any) -> None:
    guest = browser(app)
    listed = len(store_of(app).recent_games(100))
    answer = guest.post("/api/omiga", json={"options": SMALL, "seats": [{"kind": "here"}, {"kind": "bot", "level": 3}],
                                            "rated": True})
    assert answer.status_code == 403 and answer.json()["code"] == "rated-account"
    form = guest.get("/new/omiga").text
    assert 'name="rated"' not in form and "/signup" in form
    from .test_accounts import csrf

    page = guest.post("/new/omiga", data={"csrftoken": csrf(guest), "seat0_kind": "here", "seat1_kind": "bot", "seat1_level": "3",
                                          "rated": "on"}, headers={"origin": "http://testserver"}, follow_redirects=False)
    assert page.status_code == 403 and "account" in page.text
    assert len(store_of(app).recent_games(100)) == listed


@pytest.mark.parametrize(("asked", "code"), [
    ({"seats": [{"kind": "here"}, {"kind": "here"}]}, "rated-one-screen"),
    ({"seats": [{"kind": "here"}, {"kind": "bot", "strategy": "random", "speed": "casual"}]}, "rated-bot-level"),
    ({"seats": [{"kind": "here"}, {"kind": "invite"}], "options": {"variant": "kids"}}, "rated-casual-only"),
    ({"seats": [{"kind": "here"}], "options": {"variant": "zen"}}, "rated-casual-only"),
])
def test_a_rated_table_is_never_one_screen_nor_casual_only_nor_with_an_unrated_bot(app: Any, asked: dict[str, Any],
                                                                                    code: str) -> None:
    ada = person(app, "Ada")
    answer = ada.post("/api/omiga", json={"options": SMALL, **asked, "rated": True})
    assert answer.status_code == 400 and answer.json()["code"] == code, answer.text
    assert 'name="rated"' in ada.get("/new/omiga").text  # an account is offered the choice


def test_nobody_outside_the_seats_can_sway_a_rated_table(app: Any) -> None:
    """Mallory, an account watching, sends actions, a resignation and a claim to seats with tokens
    she made up: all refused, she is recorded in no seat, and the end rates Ada and Bea only, by
    what they played. A guest who takes the invited seat makes the table casual."""
    ada, bea, body = rated_table(app)
    mallory = person(app, "Mallory")
    tokens = tokens_of(body)
    forged = "x" * 43
    with mallory.websocket_connect(f"/ws/o/{body['id']}") as ws:
        next_of(ws, "state")
        ws.send_json({"type": "ready", "tokens": [forged, forge(tokens[0])]})
        ws.send_json({"type": "resign", "token": forged, "seq": 1})
        assert next_of(ws, "verdict")["code"] == "bad-token"
        ws.send_json({"type": "act", "action": "discard", "token": forged, "seq": 2})
        assert next_of(ws, "verdict")["code"] == "bad-token"
    assert mallory.post(f"/api/omiga/{body['id']}/resign", json={"token": forged, "seq": 3}).status_code == 403
    assert account_id(app, "mallory") not in accounts.seat_players_of(store_of(app), body["id"]).values()
    over = play_and_resign(ada, bea, body, loser=1)
    assert over["result"]["winner"] == "white"  # Bea's resignation ended it, not Mallory's
    shown = eventually(lambda: ada.get(f"/api/omiga/{body['id']}").json()["ratings"], "the ratings are shown")
    assert [change["name"] for change in shown] == ["Ada", "Bea"] and int(shown[0]["diff"]) > 0
    assert records.ratings_of(store_of(app), account_id(app, "mallory")) == {}
    # A guest in the invited seat: the table ends casual, nobody's rating moves.
    other = made(ada, TWO_PEOPLE)
    play_and_resign(ada, browser(app), other)
    assert eventually(lambda: ada.get(f"/api/omiga/{other['id']}").json()["ratings"] is not None, "settled") is True
    assert ada.get(f"/api/omiga/{other['id']}").json()["ratings"] == []
    assert records.ratings_of(store_of(app), account_id(app, "ada"))["omiga"].games == 1
