"""Playing together, safely, over the JSON API and WebSockets: invitation links and open seats,
undo, Fischer clocks kept by the server, Omega's seats in any mix of people and computers, and
rate limits — each with the hostile messages it must refuse without changing anything."""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ogames.web import create_app

from .conftest import quick_settings, receive_state

OMNY = {"variant": "y", "size": 3}


def new_game(client: TestClient, game: str = "omny", options: dict | None = None, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": OMNY if options is None else options, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def move(client: TestClient, game_id: str, token: str, version: int, cell: str) -> Any:
    return client.post(f"/api/games/{game_id}/moves", json={"move": cell, "token": token, "version": version})


def undo(client: TestClient, game_id: str, token: str, version: int) -> Any:
    return client.post(f"/api/games/{game_id}/undo", json={"token": token, "version": version})


def stored(client: TestClient, game_id: str) -> int:
    return client.app.state.store.move_count(game_id)


# ----- invitations, spectators and open games ---------------------------------------------------


def test_an_invited_seat_gets_its_own_link_and_only_it_moves_there(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    made = new_game(client, seats=["here", "invite"])
    game_id, mine = made["id"], made["tokens"]["0"]
    assert set(made["tokens"]) == {"0"}  # the creator plays seat 1 only
    invite = made["invitations"]["1"]
    guest = invite["token"]
    assert invite["link"] == f"/g/{game_id}#seats=1.{guest}" and guest != mine
    assert made["view"]["mode"] == "online"
    assert [seat["kind"] for seat in made["view"]["seats"]] == ["person", "invited"]
    with client.websocket_connect(f"/ws/g/{game_id}") as spectator:
        seen = [json.dumps(receive_state(spectator))]
        assert move(client, game_id, mine, 0, "b2").status_code == 200
        seen.append(json.dumps(receive_state(spectator)))
        wrong = move(client, game_id, mine, 1, "a1")  # the creator cannot move for the invited seat
        assert wrong.status_code == 409 and wrong.json()["code"] == "not-your-turn"
        assert move(client, game_id, guest, 1, "a1").status_code == 200
        seen.append(json.dumps(receive_state(spectator)))
        # A spectator's messages move nothing: it has no token, and a made-up or old one is refused.
        spectator.send_json({"type": "move", "move": "c1", "token": "x" * 43, "version": 2})
        error = spectator.receive_json()
        assert error["code"] == "bad-token"
        spectator.send_json({"type": "move", "move": "c1", "token": guest, "version": 1})  # an old message again
        assert spectator.receive_json()["code"] == "stale"
    page = client.get(f"/g/{game_id}").text
    for token in (mine, guest):
        assert all(token not in text for text in seen)
        assert token not in page and token not in caplog.text
        assert token not in json.dumps(client.get(f"/api/games/{game_id}").json())
    assert stored(client, game_id) == 2


def test_the_new_game_form_sends_the_creator_to_its_seats_and_its_invitations(client: TestClient) -> None:
    form = {"mode": "seats", "who_1": "invite", "who_2": "here", "who_3": "here", "opt_variant": "y", "opt_size": "3"}
    response = client.post("/new/omny", data=form, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    path, fragment = location.split("#")
    parts = dict(part.split("=") for part in fragment.split("&"))
    assert set(parts) == {"seats", "invites"}  # the third choice is past Omny's two seats: left out
    assert parts["seats"].startswith("1.") and parts["invites"].startswith("0.")
    view = client.get("/api" + path.replace("/g/", "/games/")).json()
    assert [seat["kind"] for seat in view["seats"]] == ["invited", "person"]


def test_an_open_game_is_listed_and_its_seat_taken_once(client: TestClient) -> None:
    made = new_game(client, seats=["here", "open"], clock={"minutes": 5, "increment": 2})
    game_id = made["id"]
    listed = client.get("/api/open-games").json()["games"]
    assert [game["id"] for game in listed] == [game_id]
    assert listed[0]["seats"] == ["human", "open"] and listed[0]["clock"] == {"base": 300.0, "increment": 2.0}
    for body, code in (
        ({"seat": "1"}, "invalid"),
        ({"seat": 1, "token": "mine"}, "invalid"),
        ({"seat": -1}, "invalid"),
        ({"seat": 0}, "seat-taken"),  # a person's seat was never open
        ({"seat": 4}, "seat-taken"),  # no such seat
    ):
        refused = client.post(f"/api/games/{game_id}/join", json=body)
        assert refused.json()["code"] == code, body
    taken = client.post(f"/api/games/{game_id}/join", json={"seat": 1})
    assert taken.status_code == 201
    token = taken.json()["token"]
    assert taken.json()["view"]["seats"][1]["kind"] == "invited"
    again = client.post(f"/api/games/{game_id}/join", json={"seat": 1})
    assert again.status_code == 409 and again.json()["code"] == "seat-taken" and token not in again.text
    assert client.get("/api/open-games").json()["games"] == []
    assert move(client, game_id, made["tokens"]["0"], 0, "b2").status_code == 200
    assert move(client, game_id, token, 1, "a1").status_code == 200


def test_nobody_moves_for_an_open_seat_until_it_is_taken(client: TestClient) -> None:
    made = new_game(client, seats=["open", "here"])
    view = client.get(f"/api/games/{made['id']}").json()
    assert view["mover"] == 0 and view["seats"][0]["kind"] == "open"
    refused = move(client, made["id"], made["tokens"]["1"], 0, "b2")
    assert refused.json()["code"] == "not-your-turn" and stored(client, made["id"]) == 0


# ----- undo --------------------------------------------------------------------------------------


def test_undo_in_hotseat_takes_back_the_last_move_and_is_stored(database: Path) -> None:
    settings = quick_settings(database)
    with TestClient(create_app(settings)) as client:
        made = new_game(client)
        game_id, tokens = made["id"], made["tokens"]
        nothing = undo(client, game_id, tokens["0"], 0)
        assert nothing.status_code == 409 and nothing.json()["code"] == "no-undo"
        for version, (seat, cell) in enumerate([("0", "a1"), ("1", "b1"), ("0", "a2"), ("1", "c1"), ("0", "a3")]):
            assert move(client, game_id, tokens[seat], version, cell).status_code == 200
        view = client.get(f"/api/games/{game_id}").json()
        assert view["over"] and view["undo"]
        view = undo(client, game_id, tokens["1"], 5).json()  # either seat's token: one browser holds both
        assert (view["over"], view["ply"], view["version"], view["to_move"]) == (False, 4, 6, "black")
        assert "a3" not in view["stones"] and stored(client, game_id) == 4
        replayed = undo(client, game_id, tokens["1"], 5)  # the same request again
        assert replayed.json()["code"] == "stale" and stored(client, game_id) == 4
        other = new_game(client)
        foreign = undo(client, game_id, other["tokens"]["0"], 6)
        assert foreign.status_code == 403 and foreign.json()["code"] == "bad-token"
    with TestClient(create_app(settings)) as client:  # a restarted server has the game as undone
        view = client.get(f"/api/games/{game_id}").json()
        assert [m["move"] for m in view["moves"]] == ["a1", "b1", "a2", "c1"] and view["version"] == 6
        assert move(client, game_id, tokens["0"], 6, "b2").status_code == 200


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "undo", "token": "T", "version": 0, "moves": 2}, "unknown field 'moves'"),
        ({"type": "undo", "token": "T", "version": "0"}, "version"),
        ({"type": "undo", "token": "T"}, "'version' is missing"),
        ({"type": "undo", "token": "T", "version": 10**9}, "version"),
        ({"type": "undo", "version": 0}, "'token' is missing"),
        ({"type": "undo", "token": ["T"], "version": 0}, "token"),
    ],
)
def test_malformed_undo_messages_are_refused(client: TestClient, message: dict, words: str) -> None:
    made = new_game(client)
    game_id, tokens = made["id"], made["tokens"]
    assert move(client, game_id, tokens["0"], 0, "b2").status_code == 200
    text = json.dumps(message).replace('"T"', json.dumps(tokens["0"]))
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_text(text)
        error = ws.receive_json()
        assert error["code"] == "invalid" and words in error["message"] and tokens["0"] not in error["message"]
    assert stored(client, game_id) == 1


def test_undo_against_the_computer_takes_back_its_reply_and_the_persons_move(client: TestClient) -> None:
    made = new_game(client, seats=["here", "computer:3"])
    game_id, token = made["id"], made["tokens"]["0"]
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "b2", "token": token, "version": 0})
        view = receive_state(ws, lambda view: view["ply"] == 2 and not view["thinking"])
        ws.send_json({"type": "undo", "token": token, "version": view["version"]})
        view = receive_state(ws, lambda view: view["ply"] == 0)
    assert view["mover"] == 0 and view["stones"] == {} and not view["thinking"]
    assert stored(client, game_id) == 0


def test_the_computer_opening_alone_is_not_taken_back(client: TestClient) -> None:
    made = new_game(client, "onyx", {}, seats=["computer:1", "here"])
    with client.websocket_connect(f"/ws/g/{made['id']}") as ws:
        view = receive_state(ws, lambda view: view["ply"] == 1 and not view["thinking"])
    refused = undo(client, made["id"], made["tokens"]["1"], view["version"])
    assert refused.json()["code"] == "no-undo" and "person" in refused.json()["error"]


def test_a_computer_thinking_during_an_undo_has_its_move_dropped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from ogames.web.boards import ai

    release, started = threading.Event(), threading.Event()
    real = ai.choose_move

    def slow(record: dict, spec: str, **kept: Any) -> str:
        started.set()
        release.wait(10)
        return real(record, spec, **kept)

    monkeypatch.setattr(ai, "choose_move", slow)
    made = new_game(client, seats=["here", "computer:easy"])
    game_id, token = made["id"], made["tokens"]["0"]
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "b2", "token": token, "version": 0})
        receive_state(ws, lambda view: view["thinking"])
        assert started.wait(10)
        ws.send_json({"type": "undo", "token": token, "version": 1})
        view = receive_state(ws, lambda view: view["version"] == 2)
        assert view["ply"] == 0 and not view["thinking"] and view["mover"] == 0
        release.set()
        thinker = client.app.state.hub.live[game_id].ai_task
        deadline = time.monotonic() + 30
        while not thinker.done():  # until the computer's move has come back (and been dropped)
            assert time.monotonic() < deadline, "the computer's turn did not end"
            time.sleep(0.01)
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"  # no new view came before the pong
    view = client.get(f"/api/games/{game_id}").json()
    assert view["ply"] == 0 and view["version"] == 2 and stored(client, game_id) == 0


def test_undo_with_invited_people_needs_their_agreement(client: TestClient) -> None:
    made = new_game(client, seats=["here", "invite"])
    game_id, host, guest = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
    nothing = undo(client, game_id, host, 0)
    assert nothing.json()["code"] == "no-undo" and "no move of yours" in nothing.json()["error"]
    assert move(client, game_id, host, 0, "b2").status_code == 200
    too_early = undo(client, game_id, guest, 1)  # the guest has no move to take back yet
    assert too_early.json()["code"] == "no-undo"
    assert move(client, game_id, guest, 1, "a1").status_code == 200
    view = undo(client, game_id, host, 2).json()  # the host asks: nothing changes yet
    assert view["undo_request"] == {"seat": 0, "agreed": []} and view["ply"] == 2 and view["version"] == 2
    again = undo(client, game_id, host, 2)
    assert again.json()["code"] == "no-undo" and "asked" in again.json()["error"]
    view = client.post(f"/api/games/{game_id}/undo", json={"token": guest, "version": 2, "decline": True}).json()
    assert view["undo_request"] is None and view["ply"] == 2  # declined
    declined = client.post(f"/api/games/{game_id}/undo", json={"token": guest, "version": 2, "decline": True})
    assert declined.json()["code"] == "no-undo" and "nobody has asked" in declined.json()["error"]
    with client.websocket_connect(f"/ws/g/{game_id}") as spectator:
        receive_state(spectator)
        assert undo(client, game_id, host, 2).json()["undo_request"]["seat"] == 0  # asked again
        assert receive_state(spectator)["undo_request"] == {"seat": 0, "agreed": []}
        spectator.send_json({"type": "undo", "token": "x" * 43, "version": 2})  # a spectator has no say
        assert spectator.receive_json()["code"] == "bad-token"
        view = undo(client, game_id, guest, 2).json()  # the guest agrees: the host's move and the reply go
        assert view["ply"] == 0 and view["version"] == 3 and view["undo_request"] is None and view["mover"] == 0
    assert stored(client, game_id) == 0
    # A request lapses when the game moves on.
    assert move(client, game_id, host, 3, "c1").status_code == 200
    assert move(client, game_id, guest, 4, "a1").status_code == 200
    assert undo(client, game_id, guest, 5).json()["undo_request"]["seat"] == 1
    assert move(client, game_id, host, 5, "b1").status_code == 200
    view = client.get(f"/api/games/{game_id}").json()
    assert view["undo_request"] is None and view["ply"] == 3
    assert undo(client, game_id, host, 6).json()["undo_request"]["seat"] == 0  # a new request, not an agreement


def test_undo_is_offered_to_the_seats_that_have_something_to_take_back(client: TestClient) -> None:
    # On one screen: every seat, once anyone has moved.
    made = new_game(client)
    assert made["view"]["undo_seats"] == [] and not made["view"]["undo"]
    view = move(client, made["id"], made["tokens"]["0"], 0, "b2").json()
    assert view["undo_seats"] == [0, 1] and view["undo"]
    # Against the computer: the person's seat once the person has moved, not for the computer's opening.
    made = new_game(client, "onyx", {}, seats=["computer:1", "here"])
    with client.websocket_connect(f"/ws/g/{made['id']}") as ws:
        view = receive_state(ws, lambda view: view["ply"] == 1 and not view["thinking"])
        assert view["undo_seats"] == []
        view = move(client, made["id"], made["tokens"]["1"], view["version"], view["legal"][0]).json()
        assert view["undo_seats"] == [1]
    # With an invited person: each seat once it has moved itself; nobody while a request waits.
    made = new_game(client, seats=["here", "invite"])
    game_id, host, guest = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
    assert move(client, game_id, host, 0, "b2").json()["undo_seats"] == [0]
    assert move(client, game_id, guest, 1, "a1").json()["undo_seats"] == [0, 1]
    view = undo(client, game_id, host, 2).json()
    assert view["undo_seats"] == [] and view["undo_request"] == {"seat": 0, "agreed": []}
    # A game against someone is final once over: nobody is offered a take-back then.
    view = client.post(f"/api/games/{game_id}/resign", json={"token": guest, "version": 2}).json()
    assert view["over"] and view["undo_seats"] == [] and not view["undo"]


def test_undo_is_not_offered_after_a_loss_on_time(client: TestClient) -> None:
    made = new_game(client, clock={"minutes": 0.05})
    game_id, tokens = made["id"], made["tokens"]
    assert move(client, game_id, tokens["0"], 0, "b2").status_code == 200
    assert move(client, game_id, tokens["1"], 1, "a1").json()["undo_seats"] == [0, 1]
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        view = receive_state(ws, lambda view: view["over"])  # nobody moves: Black's flag falls
    assert view["result"]["on_time"] and view["undo_seats"] == [] and not view["undo"]


def test_a_declined_request_is_told_to_the_asker_until_the_game_moves_on(client: TestClient) -> None:
    made = new_game(client, seats=["here", "invite"])
    game_id, host, guest = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
    assert move(client, game_id, host, 0, "b2").status_code == 200
    assert move(client, game_id, guest, 1, "a1").status_code == 200
    with client.websocket_connect(f"/ws/g/{game_id}") as asker, client.websocket_connect(f"/ws/g/{game_id}") as other:
        assert receive_state(asker)["undo_declined"] is None
        receive_state(other)
        asker.send_json({"type": "undo", "token": host, "version": 2})
        assert receive_state(asker, lambda view: view["undo_request"] is not None)["undo_declined"] is None
        receive_state(other, lambda view: view["undo_request"] is not None)
        other.send_json({"type": "undo", "token": guest, "version": 2, "decline": True})
        view = receive_state(asker, lambda view: view["undo_request"] is None)
        assert view["undo_declined"] == 0 and view["ply"] == 2 and view["undo_seats"] == [0, 1]
        # Asked again, the old answer goes; withdrawn by the asker, nothing was declined.
        asker.send_json({"type": "undo", "token": host, "version": 2})
        view = receive_state(asker, lambda view: view["undo_request"] is not None)
        assert view["undo_declined"] is None
        asker.send_json({"type": "undo", "token": host, "version": 2, "decline": True})
        view = receive_state(asker, lambda view: view["undo_request"] is None)
        assert view["undo_declined"] is None
        # Declined again, then the game moves on: the notice lapses with the version.
        asker.send_json({"type": "undo", "token": host, "version": 2})
        receive_state(other, lambda view: view["undo_request"] is not None)
        other.send_json({"type": "undo", "token": guest, "version": 2, "decline": True})
        assert receive_state(asker, lambda view: view["undo_request"] is None)["undo_declined"] == 0
        assert move(client, game_id, host, 2, "c1").json()["undo_declined"] is None


def test_malformed_decline_is_refused(client: TestClient) -> None:
    made = new_game(client, seats=["here", "invite"])
    for decline in ("yes", 1, None):
        body = {"token": made["tokens"]["0"], "version": 0, "decline": decline}
        refused = client.post(f"/api/games/{made['id']}/undo", json=body)
        assert refused.status_code == 422 and "decline" in refused.json()["error"]


# ----- clocks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "clock",
    [
        {"minutes": 0},
        {"minutes": -1},
        {"minutes": 181},
        {"minutes": "lots"},
        {"minutes": 5, "increment": 61},
        {"minutes": 5, "increment": -1},
        {"minutes": 5, "increment": 2, "delay": 1},
        {"increment": 2},
        {"minutes": 1e400},
    ],
)
def test_clock_values_out_of_range_are_refused(client: TestClient, clock: dict) -> None:
    body = json.dumps({"game": "omny", "options": OMNY, "clock": clock}).replace("Infinity", "1e400")
    response = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["code"] == "invalid"
    assert "clock" in response.json()["error"]
    assert client.get("/").status_code == 200 and client.app.state.store.recent_games() == []


def test_a_bad_clock_in_the_form_is_explained(client: TestClient) -> None:
    response = client.post("/new/omny", data={"mode": "hotseat", "opt_size": "3", "clock_minutes": "999"})
    assert response.status_code == 400 and "clock" in response.text
    assert client.app.state.store.recent_games() == []


def test_the_clock_charges_the_mover_adds_the_increment_and_a_flag_falls(client: TestClient) -> None:
    made = new_game(client, clock={"minutes": 0.1, "increment": 1})  # 6 seconds + 1 a move
    game_id, tokens = made["id"], made["tokens"]
    clock = made["view"]["clock"]
    assert clock == {"base": 6.0, "increment": 1.0, "remaining": [6.0, 6.0], "running": None, "flagged": None}
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        view = move(client, game_id, tokens["0"], 0, "b2").json()  # each seat's first turn is not timed
        assert view["clock"]["running"] is None and view["clock"]["remaining"] == [6.0, 6.0]
        time.sleep(0.3)
        started = time.monotonic()  # Black's clock starts during the next call, not before
        view = move(client, game_id, tokens["1"], 1, "a1").json()
        assert view["clock"]["running"] == 0 and view["clock"]["remaining"][1] == 6.0  # White's first turn was free
        # Black's runs: charged no more than the time since the call began (the view is made a moment later)
        assert 6.0 - (time.monotonic() - started) <= view["clock"]["remaining"][0] <= 6.0
        time.sleep(0.5)  # Black thinks half a second
        view = move(client, game_id, tokens["0"], 2, "c1").json()
        spent = time.monotonic() - started
        left = view["clock"]["remaining"][0]
        # 6 s, less at least the half second Black thought and at most all the time since its clock
        # could have started (however slow the machine), plus the increment
        assert 6.0 + 1.0 - spent <= left <= 6.0 + 1.0 - 0.5
        assert view["clock"]["running"] == 1
        view = receive_state(ws, lambda view: view["over"])  # nobody moves: White's flag falls
    assert view["result"]["on_time"] and view["result"]["winner"] == "black"
    assert view["result"]["reason"] == "white lost on time" and view["moves"][-1]["move"] == "lost on time"
    assert view["clock"]["flagged"] == 1 and view["clock"]["remaining"][1] == 0 and view["clock"]["running"] is None
    late = move(client, game_id, tokens["1"], view["version"], "b1")
    assert late.json()["code"] == "over" and "lost on time" in late.json()["error"]
    assert undo(client, game_id, tokens["0"], view["version"]).json()["code"] == "no-undo"
    record = client.get(f"/g/{game_id}/record.json").json()
    assert record["moves"][-1]["move"] == "resign" and record["moves"][-1]["by"] == "white"


def test_a_move_after_the_flag_is_refused_even_before_the_timer(client: TestClient) -> None:
    made = new_game(client, clock={"minutes": 0.05})
    game_id, tokens = made["id"], made["tokens"]
    assert move(client, game_id, tokens["0"], 0, "b2").status_code == 200
    assert move(client, game_id, tokens["1"], 1, "a1").status_code == 200  # Black's clock runs now
    live = client.app.state.hub.live[game_id]
    live.flag_timer.cancel()  # as if the timer were late: the move itself finds the time is up
    live.flag_timer = None
    time.sleep(3.1)
    late = move(client, game_id, tokens["0"], 2, "c1")
    assert late.status_code == 409 and "time ran out" in late.json()["error"]
    view = client.get(f"/api/games/{game_id}").json()
    assert view["over"] and view["result"]["reason"] == "black lost on time" and view["ply"] == 3
    # So do an undo and a resignation that come after the time ran out.
    for ask in ("undo", "resign"):
        made = new_game(client, clock={"minutes": 0.05})
        game_id, tokens = made["id"], made["tokens"]
        assert move(client, game_id, tokens["0"], 0, "b2").status_code == 200
        assert move(client, game_id, tokens["1"], 1, "a1").status_code == 200
        live = client.app.state.hub.live[game_id]
        live.flag_timer.cancel()
        live.flag_timer = None
        live.clock = replace(live.clock, since=live.clock.since - 3.1)  # as if 3.1 s had passed
        late = client.post(f"/api/games/{game_id}/{ask}", json={"token": tokens["1"], "version": 2})
        assert late.json()["code"] == "over" and "lost on time" in late.json()["error"]
        assert client.get(f"/api/games/{game_id}").json()["result"]["reason"] == "black lost on time"


def test_the_clocks_survive_a_restart(database: Path) -> None:
    settings = quick_settings(database)
    with TestClient(create_app(settings)) as client:
        made = new_game(client, clock={"minutes": 1, "increment": 0})
        tiny = new_game(client, clock={"minutes": 0.05})
        game_id, tokens = made["id"], made["tokens"]
        assert move(client, game_id, tokens["0"], 0, "b2").status_code == 200
        assert move(client, game_id, tokens["1"], 1, "a1").status_code == 200
        time.sleep(0.4)
        assert move(client, game_id, tokens["0"], 2, "c1").status_code == 200
        assert move(client, tiny["id"], tiny["tokens"]["0"], 0, "b2").status_code == 200
        assert move(client, tiny["id"], tiny["tokens"]["1"], 1, "a1").status_code == 200
        before = client.get(f"/api/games/{game_id}").json()["clock"]
    time.sleep(3.1)  # the server is down while Black's tiny clock runs out
    with TestClient(create_app(settings)) as client:
        after = client.get(f"/api/games/{game_id}").json()["clock"]
        assert after["running"] == 1 and after["remaining"][0] == before["remaining"][0] < 59.7
        assert before["remaining"][1] - 15 < after["remaining"][1] < before["remaining"][1] - 3.0  # the time down counts
        view = client.get(f"/api/games/{tiny['id']}").json()
        assert view["over"] and view["result"]["reason"] == "black lost on time"


# ----- Omega's seats in any mix ------------------------------------------------------------------


def test_omega_with_people_and_computers_in_any_seats(client: TestClient) -> None:
    # Levels as numbers, and as the names of the web before levels (medium: level 6).
    made = new_game(client, "omega", {"players": 4, "size": 4}, seats=["here", "computer:2", "here", "computer:medium"])
    game_id, tokens = made["id"], made["tokens"]
    assert set(tokens) == {"0", "2"} and made["view"]["mode"] == "ai"
    assert [seat["computer"] for seat in made["view"]["seats"]] == [False, True, False, True]
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        for seat in ("0", "2"):
            view = receive_state(ws, lambda view, seat=seat: view["mover"] == int(seat) and not view["thinking"])
            for _ in range(4):  # one stone of each colour
                version = view["version"]
                ws.send_json({"type": "move", "move": view["legal"][0], "token": tokens[seat], "version": version})
                view = receive_state(ws, lambda view, version=version: view["version"] > version)
        view = receive_state(ws, lambda view: view["mover"] == 0 and not view["thinking"])
    assert len(view["moves"]) == 4 and all(m["move"].count(" ") == 3 for m in view["moves"])
    assert [(seat["name"], seat["level"]) for seat in view["seats"]] == [
        ("player 1", None), ("computer (level 2)", 2), ("player 3", None), ("computer (level 6)", 6)
    ]


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        (["here"], "bad-seat"),
        (["here", "here", "here"], "bad-seat"),
        (["computer:easy", "computer:hard"], "bad-seat"),
        (["computer:1", "computer:10"], "bad-seat"),
        (["here", "computer:genius"], "invalid"),
        (["here", "computer:0"], "invalid"),
        (["here", "computer:11"], "invalid"),
        (["here", "computer:"], "invalid"),
        (["here", "computer"], "invalid"),
        (["here", "robot"], "invalid"),
        ([], "invalid"),
    ],
)
def test_seat_choices_that_do_not_fit_are_refused(client: TestClient, seats: list, code: str) -> None:
    response = client.post("/api/games", json={"game": "omny", "options": OMNY, "seats": seats})
    assert response.json()["code"] == code and response.status_code in (400, 422)
    assert client.app.state.store.recent_games() == []


# ----- rate limits -------------------------------------------------------------------------------


def test_a_socket_sending_too_fast_is_refused_then_closed(database: Path) -> None:
    settings = quick_settings(database, ws_rate=0.5, ws_burst=3, ws_strikes=2)
    with TestClient(create_app(settings)) as client:
        made = new_game(client)
        game_id, token = made["id"], made["tokens"]["0"]
        with client.websocket_connect(f"/ws/g/{game_id}") as ws:
            receive_state(ws)
            for _ in range(3):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "move", "move": "b2", "token": token, "version": 0})
            error = ws.receive_json()
            assert error["code"] == "rate-limited" and "too many messages" in error["message"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["code"] == "rate-limited"
            ws.send_json({"type": "ping"})  # a third refusal in a row: the connection ends
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 1008
        assert client.get(f"/api/games/{game_id}").json()["ply"] == 0 and stored(client, game_id) == 0


def test_an_api_client_sending_too_fast_is_told_to_wait(database: Path) -> None:
    with TestClient(create_app(quick_settings(database, api_rate=0.5, api_burst=3))) as client:
        made = new_game(client)
        assert client.get(f"/api/games/{made['id']}").status_code == 200
        assert move(client, made["id"], made["tokens"]["0"], 0, "b2").status_code == 200
        refused = move(client, made["id"], made["tokens"]["1"], 1, "a1")
        assert refused.status_code == 429 and refused.json()["code"] == "rate-limited"
        assert client.get("/").status_code == 200  # pages are not the API: still served
        assert stored(client, made["id"]) == 1
