"""A token acts only for its own seat, in its own game, when the rules let that seat act: every
board-game action (move, resign, undo, decline; over HTTP and a watcher's socket) and every
card-table action (act, resign) with a token of another seat, another game, a card table, an
open seat not yet taken or nobody's is refused, as are seats taken twice or never offered, and
actions before the signal, out of turn, after the end or sent again — and nothing stored changes.
The server runs as a process, driven over HTTP and WebSockets."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import Server, new_game, play, receive, running, wait_view

SMALL = {"width": 7, "height": 5}
NOBODYS = "N0b0dy5-t0ken-0f-f0rty-thr33-charact3rs-xyz"
SEQ = itertools.count(1)  # a card table's messages are numbered, growing, per seat: one count serves all


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("tokens")) as server:
        yield server


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, Any]:
    """A game between two people (the host to move), another game, a card table, and their tokens."""
    online = new_game(server, seats=["here", "invite"])
    host, guest = online["tokens"]["0"], online["invitations"]["1"]["token"]
    play(server, online["id"], host, "c3")
    play(server, online["id"], guest, "a1")
    other = new_game(server)
    status, table = server.call("/api/omiga", {"options": SMALL, "seats": [{"kind": "here"}, {"kind": "invite"}]})
    assert status == 201
    table_tokens = {0: table["tokens"]["0"], 1: table["invitations"]["1"].split("seats=1.")[1]}
    return {"id": online["id"], "host": host, "guest": guest, "other game": other["tokens"]["0"],
            "card table": table_tokens[0], "nobody's": NOBODYS, "table": table["id"], "table tokens": table_tokens}


def board_action(server: Server, game_id: str, action: str, token: str) -> tuple[int, dict[str, Any]]:
    version = server.call(f"/api/games/{game_id}")[1]["version"]
    bodies = {
        "move": ("moves", {"move": "b2", "token": token, "version": version}),
        "resign": ("resign", {"token": token, "version": version}),
        "undo": ("undo", {"token": token, "version": version}),
        "decline": ("undo", {"token": token, "version": version, "decline": True}),
    }
    route, body = bodies[action]
    return server.call(f"/api/games/{game_id}/{route}", body)


@pytest.mark.parametrize("action", ["move", "resign", "undo", "decline"])
@pytest.mark.parametrize("whose", ["other game", "card table", "nobody's"])
def test_a_token_of_no_seat_here_does_nothing(server: Server, games: dict, action: str, whose: str) -> None:
    before = server.stored(games["id"])
    status, said = board_action(server, games["id"], action, games[whose])
    assert status == 403 and said["code"] == "bad-token", said
    assert games[whose] not in json.dumps(said)  # a token is never sent back
    assert server.stored(games["id"]) == before


def test_the_other_seats_token_moves_only_on_its_turn_and_a_stale_action_is_refused(server: Server, games: dict) -> None:
    before = server.stored(games["id"])
    status, said = board_action(server, games["id"], "move", games["guest"])  # the host is to move
    assert status == 409 and said["code"] == "not-your-turn", said
    view = server.call(f"/api/games/{games['id']}")[1]
    for body in ({"move": "b2", "token": games["host"], "version": view["version"] - 1},
                 {"move": "b2", "token": games["host"], "version": view["version"] + 1}):
        status, said = server.call(f"/api/games/{games['id']}/moves", body)
        assert status == 409 and said["code"] == "stale", said
    assert server.stored(games["id"]) == before


def test_a_watchers_socket_acts_for_nobody(server: Server, games: dict) -> None:
    before = server.stored(games["id"])
    with server.socket(f"/ws/g/{games['id']}") as ws:
        view = receive(ws, lambda message: message["type"] == "state")
        ws.send(json.dumps({"type": "here", "tokens": [games["other game"], NOBODYS]}))  # claims no seat
        for whose in ("other game", "card table", "nobody's"):
            for message in ({"type": "move", "move": "b2"}, {"type": "resign"}, {"type": "undo"}):
                ws.send(json.dumps({**message, "token": games[whose], "version": view["version"]}))
                said = receive(ws, lambda message: message["type"] == "error")
                assert said["code"] == "bad-token", said
        ws.send(json.dumps({"type": "ping"}))
        receive(ws, lambda message: message["type"] == "pong")
    assert server.call(f"/api/games/{games['id']}")[1]["present"] == []
    assert server.stored(games["id"]) == before


def test_an_open_seat_is_taken_once_and_its_token_holds_only_it(server: Server, games: dict) -> None:
    made = new_game(server, seats=["here", "open"])
    game_id, host = made["id"], made["tokens"]["0"]
    assert set(made["tokens"]) == {"0"} and made["invitations"] == {}
    play(server, game_id, host, "c3")
    before = server.stored(game_id)
    assert board_action(server, game_id, "move", host)[1]["code"] == "not-your-turn"  # the open seat is to move
    for seat in (0, 2, 5):  # the host's seat; seats the game does not have
        status, said = server.call(f"/api/games/{game_id}/join", {"seat": seat})
        assert status == 409 and said["code"] == "seat-taken", said
    assert server.stored(game_id) == before
    status, joined = server.call(f"/api/games/{game_id}/join", {"seat": 1})
    assert status == 201 and joined["seat"] == 1
    taken = server.stored(game_id)
    status, said = server.call(f"/api/games/{game_id}/join", {"seat": 1})  # taken: once
    assert status == 409 and said["code"] == "seat-taken"
    for other in (games["id"], made["id"]):
        assert server.call(f"/api/games/{other}/join", {"seat": 0})[1]["code"] == "seat-taken"
    assert server.stored(game_id) == taken
    assert board_action(server, games["id"], "move", joined["token"])[1]["code"] == "bad-token"  # not in another game
    view = play(server, game_id, joined["token"], "a1")
    assert view["mover"] == 0 and board_action(server, game_id, "move", joined["token"])[1]["code"] == "not-your-turn"


def test_nothing_is_done_in_a_finished_game(server: Server) -> None:
    made = new_game(server, seats=["here", "open"])
    game_id, host = made["id"], made["tokens"]["0"]
    assert server.call(f"/api/games/{game_id}/resign", {"token": host, "version": 0})[0] == 200
    before = server.stored(game_id)
    for action in ("move", "resign"):
        status, said = board_action(server, game_id, action, host)
        assert status == 409 and said["code"] == "over", said
    status, said = server.call(f"/api/games/{game_id}/join", {"seat": 1})
    assert status == 409 and said["code"] == "over", said
    assert server.stored(game_id) == before


def test_a_computers_seat_has_no_token_and_is_never_joined(server: Server) -> None:
    made = new_game(server, seats=["here", "computer:1"])
    assert set(made["tokens"]) == {"0"}
    before = server.stored(made["id"])
    status, said = server.call(f"/api/games/{made['id']}/join", {"seat": 1})
    assert status == 409 and said["code"] == "seat-taken"
    assert server.stored(made["id"]) == before


# ----- card tables -------------------------------------------------------------------------------


def table_state(server: Server, table_id: str) -> dict[str, Any]:
    view = server.call(f"/api/omiga/{table_id}")[1]
    return {"stored": server.stored(table_id), "version": view["version"], "over": view["over"], "moves": view["moves"]}


def act(server: Server, table_id: str, token: str, action: str = "discard", seq: int | None = None) -> tuple[int, dict[str, Any]]:
    """A seat's action at a table (`seq`: the next number, unless given)."""
    seq = next(SEQ) if seq is None else seq
    if action == "resign":
        return server.call(f"/api/omiga/{table_id}/resign", {"token": token, "seq": seq})
    return server.call(f"/api/omiga/{table_id}/act", {"action": action, "token": token, "seq": seq})


@pytest.mark.parametrize("action", ["discard", "resign"])
def test_a_card_table_refuses_tokens_of_no_seat_there_and_anything_before_the_signal(
        server: Server, games: dict, action: str) -> None:
    table_id, tokens = games["table"], games["table tokens"]
    before = table_state(server, table_id)
    for whose in ("host", "other game", "nobody's"):  # a board game's seat, or nobody's
        status, said = act(server, table_id, games[whose], action)
        assert status == 403 and said["code"] == "bad-token", said
    for token in tokens.values():  # the table's own seats: wait for the signal
        status, said = act(server, table_id, token, action)
        assert status == 422 and said["code"] == "early" and not said["accepted"], said
    with server.socket(f"/ws/o/{table_id}") as ws:  # a watcher's socket
        receive(ws, lambda message: message["type"] == "state")
        ws.send(json.dumps({"type": "act", "action": action, "token": NOBODYS, "seq": 1}))
        said = receive(ws, lambda message: message["type"] == "verdict")
        assert not said["accepted"] and said["code"] == "bad-token"
    assert table_state(server, table_id) == before


def test_a_turn_based_table_takes_a_seats_card_only_in_its_turn_once_and_nothing_after_the_end(server: Server) -> None:
    options = {"variant": "kids", "pace": "turns", "width": 7, "height": 5}
    status, table = server.call("/api/omiga", {"options": options, "seats": [{"kind": "here"}, {"kind": "invite"}]})
    assert status == 201
    table_id = table["id"]
    tokens = {0: table["tokens"]["0"], 1: table["invitations"]["1"].split("seats=1.")[1]}
    view = server.call(f"/api/omiga/{table_id}")[1]
    waiting = 1 - view["mover"]
    before = table_state(server, table_id)
    seq = next(SEQ)
    status, said = act(server, table_id, tokens[waiting], seq=seq)  # not its turn
    assert status == 422 and said["code"] == "illegal" and "turn" in said["reason"], said
    status, said = act(server, table_id, tokens[waiting], seq=seq)  # the same message again
    assert status == 409 and said["code"] == "stale", said
    assert table_state(server, table_id) == before
    status, said = act(server, table_id, tokens[waiting], "resign")  # a seat may give up at any turn
    assert status == 200 and said["accepted"]
    wait_view(server, f"/api/omiga/{table_id}", lambda view: view["over"])
    finished = table_state(server, table_id)
    for token in tokens.values():
        for action in ("discard", "resign"):
            status, said = act(server, table_id, token, action)
            assert status == 422 and said["code"] == "over", said
    assert table_state(server, table_id) == finished
