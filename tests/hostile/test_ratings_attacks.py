"""Attacks on ratings (web/ratings/), against a server process over HTTP: a guest asking for a
rated game, an account asking for one on one screen, a finished rated game's last move sent
again and a resignation after its end (its players' ratings change once), and a rated game
aborted before both had moved (no rating changes) — each refused, or left unrated, with the
database's ratings as they were."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import Server, rows, running
from test_accounts_attacks import Browser, sign_up

SMALL = {"game": "omny", "options": {"variant": "y", "size": 3}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("ratings")) as server:
        yield server



def ratings(server: Server) -> list[tuple[Any, ...]]:
    return rows(server, "SELECT player_id, pool, rating, deviation, games FROM ratings ORDER BY player_id, pool")


def api(browser: Browser, path: str, body: dict[str, Any]) -> Any:
    """A JSON POST as a page's script sends it: its CSRF token in a header, the site's Origin."""
    return browser.http.post(path, json=body, headers={"origin": browser.server.base, "x-csrftoken": browser.token()})


def test_a_guest_gets_no_rated_game_and_nothing_is_stored(server: Server) -> None:
    guest = Browser(server)
    before = rows(server, "SELECT count(*) FROM games")
    answer = api(guest, "/api/games", {**SMALL, "seats": ["here", "computer:1"], "rated": True})
    assert answer.status_code == 403 and answer.json()["code"] == "rated-account"
    assert rows(server, "SELECT count(*) FROM games") == before


def test_an_account_gets_no_rated_game_on_one_screen(server: Server) -> None:
    ada = sign_up(server, "Hostile_Ada")
    before = rows(server, "SELECT count(*) FROM games")
    answer = api(ada, "/api/games", {**SMALL, "mode": "hotseat", "rated": "yes"})  # not even a boolean
    assert answer.status_code == 422
    answer = api(ada, "/api/games", {**SMALL, "mode": "hotseat", "rated": True})
    assert answer.status_code == 400 and answer.json()["code"] == "rated-one-screen"
    assert rows(server, "SELECT count(*) FROM games") == before


def test_a_rated_games_end_sent_again_changes_no_rating(server: Server) -> None:
    bea = sign_up(server, "Hostile_Bea")
    made = api(bea, "/api/games", {**SMALL, "seats": ["here", "computer:1"], "rated": True}).json()
    game, token, rng = made["id"], made["tokens"]["0"], random.Random(3)
    deadline = time.monotonic() + 120
    while not (view := bea.http.get(f"/api/games/{game}").json())["over"]:
        assert time.monotonic() < deadline, "the game did not end"
        if view["mover"] == 0 and view["legal"] and not view["thinking"]:
            sent = {"move": rng.choice(view["legal"]), "token": token, "version": view["version"]}
            last = sent
            assert api(bea, f"/api/games/{game}/moves", sent).status_code == 200
        else:
            time.sleep(0.05)
    while not rows(server, "SELECT 1 FROM rating_history WHERE game_id = ?", game):
        assert time.monotonic() < deadline, "the game was not rated"
        time.sleep(0.05)
    rated = ratings(server)
    bea_id = rows(server, "SELECT id FROM accounts WHERE name = 'Hostile_Bea'")[0][0]
    assert [(pool, games) for player, pool, _, _, games in rated if player == bea_id] == [("omny", 1)]
    # The last move again, a resignation after the end, a move at the end's version: refused, nothing changes.
    assert api(bea, f"/api/games/{game}/moves", last).status_code == 409
    assert api(bea, f"/api/games/{game}/resign", {"token": token, "version": view["version"]}).status_code == 409
    assert api(bea, f"/api/games/{game}/moves", {**last, "version": view["version"]}).status_code == 409
    assert ratings(server) == rated
    assert rows(server, "SELECT count(*) FROM rating_history WHERE game_id = ?", game) == [(1,)]  # the person's row only


def test_an_aborted_rated_game_changes_no_rating(server: Server) -> None:
    cid = sign_up(server, "Hostile_Cid")
    made = api(cid, "/api/games", {**SMALL, "seats": ["here", "open"], "rated": True}).json()
    before = ratings(server)
    answer = api(cid, f"/api/games/{made['id']}/abort", {"token": made["tokens"]["0"], "version": 0})
    assert answer.status_code == 200 and answer.json()["aborted"] is True
    assert rows(server, "SELECT status, rated FROM games WHERE id = ?", made["id"]) == [("aborted", 1)]
    assert rows(server, "SELECT count(*) FROM rating_history WHERE game_id = ?", made["id"]) == [(0,)]
    assert ratings(server) == before
    assert "No rated games yet." in cid.http.get("/@/hostile_cid").text
