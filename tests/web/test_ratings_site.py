"""Ratings on the site (web/ratings/), in process: who may make a rated game, a rated game played
to its end between two accounts and against a computer level, the changes shown in the view,
rated once whatever is sent again, an aborted game changing nothing, and the profile and
leaderboard pages. The browser test is tests/web/test_browser_ratings.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.accounts import records as accounts
from ogames.web.core.store import Store
from ogames.web.ratings import records

from .conftest import quick_settings
from .test_accounts import eventually, form

SMALL = {"game": "omny", "options": {"variant": "y", "size": 3}}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    made = create_app(quick_settings(tmp_path / "r.sqlite3", warm_rules=False))
    with TestClient(made) as running:
        made.state.running = running
        yield made


def browser(app: Any) -> TestClient:
    """Another browser on the running app: its own cookies, the app's event loop (so the work a
    request leaves running on the side, as rating a game, goes on after the answer)."""
    client = TestClient(app)
    client.portal = app.state.running.portal
    return client


def person(app: Any, name: str) -> TestClient:
    client = browser(app)
    status, text, _ = form(client, "/signup", name=name, password="correct horse", again="correct horse")
    assert status == 303, text
    return client


def store_of(app: Any) -> Store:
    store: Store = app.state.store
    return store


def play_out(client: TestClient, game_id: str, tokens: dict[int, str], seed: int = 1) -> dict[str, Any]:
    """Play random legal moves for the seats of these tokens until the game ends (the computer
    plays its own seats); the last view."""
    rng = random.Random(seed)
    while True:
        def ready() -> dict[str, Any] | None:
            seen = client.get(f"/api/games/{game_id}").json()
            playable = seen["mover"] in tokens and seen["legal"] and not seen["thinking"]
            return seen if seen["over"] or playable else None

        shown = eventually(ready, "a person's turn or the end")
        if shown["over"]:
            return dict(shown)
        answer = client.post(f"/api/games/{game_id}/moves", json={"move": rng.choice(shown["legal"]),
                                                                 "token": tokens[shown["mover"]], "version": shown["version"]})
        assert answer.status_code == 200, answer.text


def invite_game(ada: TestClient, bea: TestClient, **extra: Any) -> tuple[str, dict[int, str]]:
    """Ada makes a rated game and invites Bea, whose page takes the seat: the id and both tokens."""
    made = ada.post("/api/games", json={**SMALL, "seats": ["here", "invite"], "rated": True, **extra})
    assert made.status_code == 201, made.text
    game = made.json()
    invited = game["invitations"]["1"]["token"]
    with bea.websocket_connect(f"/ws/g/{game['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "here", "tokens": [invited]})
        eventually(lambda: len(accounts.seat_players_of(bea.app.state.store, game["id"])) == 2,  # type: ignore[attr-defined]
                   "the invited seat is recorded")
    return game["id"], {0: game["tokens"]["0"], 1: invited}


def test_two_accounts_play_a_rated_game_and_both_ratings_move_once(app: Any) -> None:
    ada, bea = person(app, "Ada"), person(app, "Bea")
    game_id, tokens = invite_game(ada, bea)
    assert ada.get(f"/api/games/{game_id}").json()["rated"] is True
    last = play_out(ada, game_id, tokens)
    shown = eventually(lambda: ada.get(f"/api/games/{game_id}").json()["ratings"], "the ratings are shown")
    assert [change["seat"] for change in shown] == [0, 1] and [change["name"] for change in shown] == ["Ada", "Bea"]
    assert all(change["before"] == "1500?" for change in shown)
    winner = last["result"]["winner"]
    won = next(seat["seat"] for seat in last["seats"] if winner in seat["colours"])
    assert int(shown[won]["diff"]) > 0 > int(shown[1 - won]["diff"])
    store = store_of(app)
    ids = [accounts.account_by_key(store, key).id for key in ("ada", "bea")]  # type: ignore[union-attr]
    def rated() -> list[tuple[float, int]]:
        return [(found.rating, found.games) for found in (records.ratings_of(store, player)["omny"] for player in ids)]

    before = rated()
    assert [games for _, games in before] == [1, 1]
    # Sent again, the last move is refused and nothing is rated twice; nor by rating it by hand.
    again = ada.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": tokens[0], "version": last["version"] - 1})
    assert again.status_code == 409
    assert records.rate_game(store, game_id, app.state.hub.live[game_id].state, ids) is None
    assert rated() == before
    # Both profiles show the rating and the game.
    for client, name in ((ada, "Ada"), (bea, "Bea")):
        page = client.get(f"/@/{name.lower()}")
        assert page.status_code == 200 and f"/g/{game_id}" in page.text and "<svg" in page.text
        assert shown[0 if name == "Ada" else 1]["after"] in page.text


def test_a_person_against_a_computer_level_gets_a_rating(app: Any) -> None:
    ada = person(app, "Ada")
    made = ada.post("/api/games", json={**SMALL, "seats": ["here", "computer:1"], "rated": True}).json()
    play_out(ada, made["id"], {0: made["tokens"]["0"]})
    shown = eventually(lambda: ada.get(f"/api/games/{made['id']}").json()["ratings"], "the rating is shown")
    assert [change["seat"] for change in shown] == [0]  # the level's own rating never moves
    ada_id = accounts.account_by_key(store_of(app), "ada").id  # type: ignore[union-attr]
    assert records.ratings_of(store_of(app), ada_id)["omny"].games == 1
    page = ada.get("/@/Ada").text
    assert "level 1" in page.lower()


@pytest.mark.parametrize(("asked", "code"), [
    ({**SMALL, "seats": ["here", "here"]}, "rated-one-screen"),
    ({**SMALL, "mode": "hotseat"}, "rated-one-screen"),
    ({"game": "omny", "options": {"variant": "custom", "size": 3}, "seats": ["here", "invite"]}, "rated-casual-only"),
])
def test_a_rated_game_is_never_one_screen_nor_casual_only(app: Any, asked: dict[str, Any], code: str) -> None:
    ada = person(app, "Ada")
    answer = ada.post("/api/games", json={**asked, "rated": True})
    assert answer.status_code == 400 and answer.json()["code"] == code, answer.text


def test_a_guest_cannot_make_a_rated_game_and_nothing_is_stored(app: Any) -> None:
    guest = browser(app)
    listed = len(store_of(app).recent_games(100))
    answer = guest.post("/api/games", json={**SMALL, "seats": ["here", "computer:1"], "rated": True})
    assert answer.status_code == 403 and answer.json()["code"] == "rated-account"
    assert len(store_of(app).recent_games(100)) == listed
    page = guest.post("/new/omny", data={"variant": "y", "size": "3", "mode": "ai", "rated": "on"}, follow_redirects=False)
    assert page.status_code == 403 and "account" in page.text


def test_a_guest_in_a_rated_game_makes_it_casual(app: Any) -> None:
    ada, guest = person(app, "Ada"), browser(app)
    game_id, tokens = invite_game(ada, guest)
    play_out(ada, game_id, tokens)
    assert eventually(lambda: ada.get(f"/api/games/{game_id}").json()["ratings"] is not None, "settled") is True
    assert ada.get(f"/api/games/{game_id}").json()["ratings"] == []
    assert records.ratings_of(store_of(app), accounts.account_by_key(store_of(app), "ada").id) == {}  # type: ignore[union-attr]


def test_an_aborted_rated_game_changes_nothing(app: Any) -> None:
    ada, bea = person(app, "Ada"), person(app, "Bea")
    game_id, tokens = invite_game(ada, bea)
    answer = ada.post(f"/api/games/{game_id}/abort", json={"token": tokens[0], "version": 0})
    assert answer.status_code == 200 and answer.json()["aborted"] is True
    assert answer.json()["ratings"] is None
    store = store_of(app)
    assert records.game_changes(store, game_id) == []
    for key in ("ada", "bea"):
        assert records.ratings_of(store, accounts.account_by_key(store, key).id) == {}  # type: ignore[union-attr]


def test_the_leaderboard_lists_settled_players_only(app: Any) -> None:
    from ogames.ratings import RatingStore, computer_id

    store = store_of(app)
    ada, bea = person(app, "Ada"), person(app, "Bea")
    ids = {key: accounts.account_by_key(store, key).id for key in ("ada", "bea")}  # type: ignore[union-attr]
    ratings = RatingStore(store.engine)
    for n in range(40):  # Ada settles against level 5; Bea plays once
        ratings.apply_result(f"x{n}", "omny", [ids["ada"], computer_id(5)], [1, 0] if n % 3 else [0, 1])
    ratings.apply_result("y", "omny", [ids["bea"], computer_id(5)], [0, 1])
    page = browser(app).get("/leaderboard/omny")
    assert page.status_code == 200 and "Ada" in page.text and "Bea" not in page.text
    assert ada.get("/leaderboard").status_code == 200 and "/leaderboard/omny" in ada.get("/leaderboard").text
    assert bea.get("/leaderboard/nothing").status_code == 404
    assert bea.get("/@/nobody-here").status_code == 404


def test_a_rating_not_played_for_long_is_shown_provisional_again(app: Any) -> None:
    import re
    import time

    from ogames.ratings import RatingStore, computer_id
    from ogames.ratings.model import DAY

    store = store_of(app)
    person(app, "Away"), person(app, "Here")
    ids = {key: accounts.account_by_key(store, key).id for key in ("away", "here")}  # type: ignore[union-attr]
    ratings = RatingStore(store.engine)
    now = time.time()
    for name, last in (("away", now - 400 * DAY), ("here", now - DAY)):  # each settles, then stops playing
        for n in range(40):
            ratings.apply_result(f"{name}{n}", "omny", [ids[name], computer_id(5)], [1, 0] if n % 3 else [0, 1],
                                 at=last - (40 - n) * 60)
    for name, away in (("Away", True), ("Here", False)):
        page = browser(app).get(f"/@/{name}")
        shown = re.search(r'data-pool="omny">.*?<strong class="rating">(\d+)(\??)</strong>(.*?)</li>', page.text, re.S)
        assert shown is not None, page.text
        assert (shown.group(2) == "?") is away and ('class="provisional"' in shown.group(3)) is away
    board = browser(app).get("/leaderboard/omny").text
    assert "Here" in board and "Away" not in board

    # Back after 400 days, Away plays: the game's "before" is the rating as uncertain as it had become.
    ratings.apply_result("back", "omny", [ids["away"], computer_id(5)], [0, 1], at=now)
    (player, before, after), = records.game_changes(store, "back")
    assert after.games == before.games + 1
    last = ratings.history(ids["away"], "omny")[-2]
    assert player == ids["away"] and before.provisional and before.shown.endswith("?")
    assert before.deviation > last.deviation and round(before.rating) == round(last.rating)
