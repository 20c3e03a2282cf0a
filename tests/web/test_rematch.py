"""A rematch at the end of a game between two people (web/lobby/rematch.py): both offer, one new
game is made with the same options and time control and the colours swapped, and each page's new
token moves for its new seat; refused before the end, for a game on one screen, with a bad token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from ogames.web import create_app
from ogames.web.boards.live import RematchState

from .conftest import quick_settings, receive_state


def two_people(client: TestClient, **fields: Any) -> tuple[str, str, str]:
    """A game with seat 0 here and seat 1 invited: (id, seat 0's token, seat 1's token)."""
    made = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 4},
                                           "seats": ["here", "invite"], **fields})
    assert made.status_code == 201, made.text
    body = made.json()
    return body["id"], body["tokens"]["0"], body["invitations"]["1"]["token"]


def test_both_offer_and_one_game_is_made_with_the_colours_swapped(client: TestClient) -> None:
    game, black, white = two_people(client, clock={"minutes": 5, "increment": 2})
    assert client.post(f"/api/games/{game}/rematch", json={"token": black}).json()["code"] == "no-rematch"  # not over
    assert client.post(f"/api/games/{game}/resign", json={"token": white, "version": 0}).status_code == 200
    assert client.post(f"/api/games/{game}/rematch", json={"token": "x" * 43}).status_code == 403
    first = client.post(f"/api/games/{game}/rematch", json={"token": black}).json()
    assert first["offered"] == [0] and first["game"] is None and first["seat"] == 1
    assert client.get(f"/api/games/{game}/rematch").json() == {"offered": [0], "game": None, "over": True}
    second = client.post(f"/api/games/{game}/rematch", json={"token": white}).json()
    assert second["offered"] == [0, 1] and second["seat"] == 0 and second["game"]
    new = second["game"]
    assert client.get(f"/api/games/{game}/rematch").json()["game"] == new
    view = client.get(f"/api/games/{new}").json()
    assert view["options"]["size"] == 4 and view["clock"] is not None and not view["over"]
    # White of the first game is black now: their new token moves first, the other's does not.
    assert client.post(f"/api/games/{new}/moves", json={"move": "b2", "token": first["token"], "version": 0}).status_code == 409
    assert client.post(f"/api/games/{new}/moves", json={"move": "b2", "token": second["token"], "version": 0}).status_code == 200
    reply = client.get(f"/api/games/{new}").json()["legal"][0]
    assert client.post(f"/api/games/{new}/moves", json={"move": reply, "token": first["token"], "version": 1}).status_code == 200
    # Offering again changes nothing: the rematch is made once.
    again = client.post(f"/api/games/{game}/rematch", json={"token": black}).json()
    assert client.get(f"/api/games/{game}/rematch").json()["game"] == new and again["game"] is None


def test_no_rematch_for_a_game_on_one_screen(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 4}}).json()
    token = made["tokens"]["0"]
    assert client.post(f"/api/games/{made['id']}/resign", json={"token": token, "version": 0}).status_code == 200
    refused = client.post(f"/api/games/{made['id']}/rematch", json={"token": token})
    assert refused.status_code == 409 and refused.json()["code"] == "no-rematch"


def test_the_offer_and_the_new_game_are_pushed_on_the_games_socket(client: TestClient) -> None:
    game, black, white = two_people(client)
    with client.websocket_connect(f"/ws/g/{game}") as ws:
        assert receive_state(ws)["rematch"] is None  # not over: nothing to offer
        assert client.post(f"/api/games/{game}/resign", json={"token": black, "version": 0}).status_code == 200
        assert receive_state(ws, lambda view: view["over"])["rematch"] == {"offered": [], "game": None}
        client.post(f"/api/games/{game}/rematch", json={"token": white})
        assert receive_state(ws, lambda view: view["rematch"]["offered"])["rematch"] == {"offered": [1], "game": None}
        new = client.post(f"/api/games/{game}/rematch", json={"token": black}).json()["game"]
        assert receive_state(ws, lambda view: view["rematch"]["game"])["rematch"] == {"offered": [0, 1], "game": new}


def test_a_finished_game_loaded_again_is_shown_with_its_offers(database: Path) -> None:
    """A restarted server (or another process) reads a finished game's rematch from the store."""
    with TestClient(create_app(quick_settings(database))) as first:
        game, black, _ = two_people(first)
        assert first.post(f"/api/games/{game}/resign", json={"token": black, "version": 0}).status_code == 200
        assert first.post(f"/api/games/{game}/rematch", json={"token": black}).json()["offered"] == [0]
    with TestClient(create_app(quick_settings(database))) as again:
        assert again.get(f"/api/games/{game}").json()["rematch"] == {"offered": [0], "game": None}
        with again.websocket_connect(f"/ws/g/{game}") as ws:
            assert receive_state(ws)["rematch"] == {"offered": [0], "game": None}


GAME_IDS = st.none() | st.text(alphabet="abcXYZ019_-", min_size=1, max_size=32)
STATES = st.builds(RematchState, st.frozensets(st.integers(0, 1)), GAME_IDS)


@given(STATES, STATES)
def test_what_another_process_says_round_trips_and_merges_in_any_order(one: RematchState, other: RematchState) -> None:
    assert RematchState.parsed(one.message(), 2) == one
    if one.game is None or other.game is None or one.game == other.game:  # a rematch is made once: one game id
        assert one.merged(other) == other.merged(one)
    assert one.merged(other).merged(other) == one.merged(other)
    assert one.offered <= one.merged(other).offered and (one.game is None or one.merged(other).game == one.game)


@given(st.one_of(
    st.none(), st.integers(), st.text(), st.lists(st.integers()),
    st.fixed_dictionaries({"offered": st.lists(st.integers().filter(lambda seat: seat not in (0, 1)), min_size=1),
                           "game": GAME_IDS}),
    st.fixed_dictionaries({"offered": st.just([True]), "game": GAME_IDS}),
    st.fixed_dictionaries({"offered": st.just([0]), "game": st.text(min_size=33) | st.just("") | st.integers()}),
))
def test_a_message_that_is_not_a_rematch_is_refused(message: Any) -> None:
    assert RematchState.parsed(message, 2) is None
