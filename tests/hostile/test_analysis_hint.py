"""The computer's analysis is never a hint in a game against someone. A finished game against the
computer or a person is never taken back (resign, analyse, undo the resignation gave the best move
of a live game), and no route analyses a position that a live game against someone has been
through: not the game's own analysis, not a forged upload of its record with a resignation added
(moves in another order too), not a copy played on one screen (on a custom board made like it
too). The game page's position route and the replay page show nothing more than the game page.
Every refusal leaves the stored game as it was. The server runs as a process, driven over HTTP
and WebSockets."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import Server, new_game, play, receive, running, settled, with_resignation

import ogames

SECONDS = 0.2  # a short search: these tests are about who may ask, not what it finds


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("hints")) as server:
        yield server


def against(server: Server, who: str) -> tuple[str, dict[str, str]]:
    """A live game of four moves against the computer or a person; the first player (seat 0) is to move."""
    if who == "computer":
        made = new_game(server, seats=["here", "computer:1"])
        tokens = made["tokens"]
        for _ in range(2):
            view = settled(server, made["id"])
            play(server, made["id"], tokens["0"], next(cell for cell in ("c3", "b2", "d2") if cell in view["legal"]))
        settled(server, made["id"])
    else:
        made = new_game(server, seats=["here", "invite"])
        tokens = {"0": made["tokens"]["0"], "1": made["invitations"]["1"]["token"]}
        for seat, cell in (("0", "c3"), ("1", "a1"), ("0", "b2"), ("1", "e1")):
            play(server, made["id"], tokens[seat], cell)
    view = server.call(f"/api/games/{made['id']}")[1]
    assert view["ply"] == 4 and not view["over"]
    return made["id"], tokens


def analyse(server: Server, path: str, ply: int, record: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    body: dict[str, Any] = {"ply": ply, "seconds": SECONDS}
    if record is not None:
        body["record"] = record
    return server.call(path, body)


def assert_hint_refused(answer: tuple[int, dict[str, Any]]) -> None:
    status, said = answer
    assert status == 403 and said["code"] == "not-allowed", said


@pytest.mark.parametrize("who", ["computer", "person"])
def test_a_finished_game_against_someone_is_never_taken_back(server: Server, who: str) -> None:
    game_id, tokens = against(server, who)
    view = server.call(f"/api/games/{game_id}")[1]
    status, view = server.call(f"/api/games/{game_id}/resign", {"token": tokens["0"], "version": view["version"]})
    assert status == 200 and view["over"] and not view["undo"]
    status, found = analyse(server, f"/api/games/{game_id}/analysis", 4)  # over: analysed, as it may be
    assert status == 200 and found["move"], found
    before = server.stored(game_id)
    seats = tokens.values() if who == "person" else [tokens["0"]]
    for token in seats:  # the resignation, and any other move, stays: over HTTP …
        for decline in (False, True):
            asked = {"token": token, "version": view["version"], "decline": decline}
            status, said = server.call(f"/api/games/{game_id}/undo", asked)
            assert status == 409 and said["code"] == "no-undo" and "over" in said["error"], said
    with server.socket(f"/ws/g/{game_id}") as ws:  # … and over the game's socket
        receive(ws, lambda message: message["type"] == "state")
        ws.send(json.dumps({"type": "undo", "token": tokens["0"], "version": view["version"]}))
        said = receive(ws, lambda message: message["type"] == "error")
    assert said["code"] == "no-undo"
    assert server.stored(game_id) == before
    after = server.call(f"/api/games/{game_id}")[1]
    assert after["over"] and after["version"] == view["version"] and after["analysis"]


@pytest.mark.parametrize("who", ["computer", "person"])
def test_no_route_analyses_a_position_of_a_live_game_against_someone(server: Server, who: str) -> None:
    game_id, tokens = against(server, who)
    before = server.stored(game_id)
    record = server.call(f"/g/{game_id}/record.json")[1]
    for ply in range(5):  # the game's own analysis, at every position it has been through
        assert_hint_refused(analyse(server, f"/api/games/{game_id}/analysis", ply))
    forged = with_resignation(record)  # the record of a finished game, as the rules accept it
    for ply in range(5):
        assert_hint_refused(analyse(server, "/api/analysis", ply, forged))
    transposed = copy.deepcopy(record)  # Black's two stones in the other order: the same position
    moves = transposed["moves"]
    moves[0]["move"], moves[2]["move"] = moves[2]["move"], moves[0]["move"]
    assert_hint_refused(analyse(server, "/api/analysis", 4, with_resignation(transposed)))
    copied = new_game(server)  # the moves copied into a game on one screen (analysed at any time)
    for entry in record["moves"]:
        play(server, copied["id"], copied["tokens"]["0" if entry["by"] == "black" else "1"], entry["move"])
    for ply in range(5):
        assert_hint_refused(analyse(server, f"/api/games/{copied['id']}/analysis", ply))
    cells = " ".join(ogames.load("omny", variant="y", size=5).board.labels)  # … or on a custom board made like it
    custom = new_game(server, options={"variant": "custom", "cells": cells})
    for entry in record["moves"]:
        play(server, custom["id"], custom["tokens"]["0" if entry["by"] == "black" else "1"], entry["move"])
    assert_hint_refused(analyse(server, f"/api/games/{custom['id']}/analysis", 4))
    # What the replay page and the position route show of the live game: no analysis, no more than the game page.
    status, text, _ = server.page(f"/g/{game_id}/replay")
    assert status == 200 and 'data-analysis="off"' in text
    for ply in range(5):
        status, position = server.call(f"/api/games/{game_id}/position/{ply}")
        assert status == 200 and set(position) == {"type", "k", "of", "to_move", "scores", "result", "board"}
    assert server.stored(game_id) == before
    # Once the game is over, the same positions are analysed: the refusals were about the live game.
    view = server.call(f"/api/games/{game_id}")[1]
    assert server.call(f"/api/games/{game_id}/resign", {"token": tokens["0"], "version": view["version"]})[0] == 200
    status, found = analyse(server, f"/api/games/{copied['id']}/analysis", 4)
    assert status == 200 and found["move"] in server.call(f"/api/games/{copied['id']}")[1]["legal"]
    assert analyse(server, "/api/analysis", 3, forged)[0] == 200


def test_a_game_on_one_screen_may_be_taken_back_and_analysed_after_its_end(server: Server) -> None:
    """The rule's other side: both seats at one screen have nobody to hide a move from."""
    made = new_game(server)
    game_id, tokens = made["id"], made["tokens"]
    play(server, game_id, tokens["0"], "c3")
    status, view = server.call(f"/api/games/{game_id}/resign", {"token": tokens["1"], "version": 1})
    assert status == 200 and view["over"] and view["undo"] and view["analysis"]
    assert analyse(server, f"/api/games/{game_id}/analysis", 1)[0] == 200
    status, view = server.call(f"/api/games/{game_id}/undo", {"token": tokens["1"], "version": 2})
    assert status == 200 and not view["over"] and view["ply"] == 1
