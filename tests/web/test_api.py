"""The web server through its JSON API and WebSockets: games are created, moves are checked by the
rules and stored before anyone sees them, refusals change nothing, and games outlive the server."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ogames
from ogames.web import create_app

from .conftest import create, quick_settings, receive_state


def stored_moves(client: TestClient, game_id: str) -> int:
    return client.app.state.store.move_count(game_id)


def test_create_and_play_over_the_socket(client: TestClient) -> None:
    game_id, tokens = create(client)
    assert set(tokens) == {"0", "1"}
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        first = receive_state(ws)
        assert (first["to_move"], first["mover"], first["ply"]) == ("black", 0, 0)
        assert set(first["legal"]) == {"a1", "b1", "c1", "a2", "b2", "a3"}
        ws.send_json({"type": "move", "move": "b2", "token": tokens["0"], "version": 0})
        after = receive_state(ws)
        assert (after["to_move"], after["mover"], after["ply"]) == ("white", 1, 1)
        assert after["stones"] == {"b2": "black"} and after["last"] == "b2"
        assert after["moves"] == [{"n": 1, "by": "black", "move": "b2"}]
    assert stored_moves(client, game_id) == 1


def test_a_finished_game_shows_its_result_and_winning_group(client: TestClient) -> None:
    game_id, tokens = create(client)
    for ply, move in enumerate(["a1", "b1", "a2", "c1", "a3"]):
        response = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
        assert response.status_code == 200, response.text
    view = response.json()
    assert view["over"] and view["result"]["winner"] == "black"
    assert sorted(view["winning"]) == ["a1", "a2", "a3"]
    assert view["to_move"] is None and view["legal"] == []
    refused = client.post(f"/api/games/{game_id}/moves", json={"move": "b2", "token": tokens["1"], "version": 5})
    assert refused.status_code == 409 and "the game is over" in refused.json()["error"]
    recent = client.app.state.store.recent_games()
    assert recent[0]["id"] == game_id and recent[0]["status"] == "over"


def test_an_illegal_move_is_refused_with_the_reason_and_nothing_is_stored(client: TestClient) -> None:
    game_id, tokens = create(client)
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "b2", "token": tokens["0"], "version": 0})
        receive_state(ws)
        for move in ("b2", "z9", "swap"):
            ws.send_json({"type": "move", "move": move, "token": tokens["1"], "version": 1})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "illegal"
            assert move in error["message"]
        ws.send_json({"type": "move", "move": "b2", "token": tokens["1"], "version": 1})
        assert "occupied" in ws.receive_json()["message"]
    assert stored_moves(client, game_id) == 1
    view = client.get(f"/api/games/{game_id}").json()
    assert view["ply"] == 1 and view["stones"] == {"b2": "black"}


def test_a_move_needs_the_token_of_the_seat_to_move(client: TestClient) -> None:
    game_id, tokens = create(client)
    other_id, other_tokens = create(client)
    cases = [
        (tokens["1"], "not-your-turn", "not your turn"),  # a real seat, but not the one to move
        (other_tokens["0"], "bad-token", "no seat"),  # another game's token
        ("A" * 43, "bad-token", "no seat"),
    ]
    for token, code, words in cases:
        response = client.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": token, "version": 0})
        assert response.status_code in (403, 409)
        assert response.json()["code"] == code and words in response.json()["error"]
    assert stored_moves(client, game_id) == 0 and stored_moves(client, other_id) == 0
    resign = client.post(f"/api/games/{game_id}/resign", json={"token": other_tokens["1"], "version": 0})
    assert resign.json()["code"] == "bad-token"
    assert client.get(f"/api/games/{game_id}").json()["over"] is False


def test_an_old_message_sent_again_is_refused(client: TestClient) -> None:
    game_id, tokens = create(client)
    move = {"move": "a1", "token": tokens["0"], "version": 0}
    assert client.post(f"/api/games/{game_id}/moves", json=move).status_code == 200
    again = client.post(f"/api/games/{game_id}/moves", json=move)
    assert again.status_code == 409 and again.json()["code"] == "stale"
    assert stored_moves(client, game_id) == 1


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "move", "move": "a1", "token": "T", "version": 0, "extra": 1}, "unknown field 'extra'"),
        ({"type": "move", "move": "a1", "token": "T", "version": "0"}, "version"),
        ({"type": "move", "move": "a1", "token": "T", "version": True}, "version"),
        ({"type": "move", "move": "a1", "token": "T", "version": -1}, "version"),
        ({"type": "move", "move": 7, "token": "T", "version": 0}, "move"),
        ({"type": "move", "move": "a1", "version": 0}, "'token' is missing"),
        ({"type": "move", "move": "a1", "token": "no spaces allowed", "version": 0}, "token"),
        ({"type": "move", "move": "a1" * 200, "token": "T", "version": 0}, "move"),
        ({"type": "teleport"}, "message type"),
        ({"move": "a1"}, "type"),
        ([1, 2, 3], "valid"),
    ],
)
def test_malformed_messages_are_refused_and_change_nothing(client: TestClient, message: object, words: str) -> None:
    game_id, tokens = create(client)
    text = json.dumps(message).replace('"T"', json.dumps(tokens["0"]))
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_text(text)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "invalid", error
        assert words in error["message"]
        assert tokens["0"] not in error["message"]
        # The connection still works after a refusal.
        ws.send_json({"type": "move", "move": "a1", "token": tokens["0"], "version": 0})
        assert receive_state(ws)["ply"] == 1
    assert stored_moves(client, game_id) == 1


def test_oversize_binary_and_broken_messages_are_refused(client: TestClient) -> None:
    game_id, tokens = create(client)
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_text(json.dumps({"type": "move", "move": "a1", "token": tokens["0"], "version": 0, "pad": "x" * 5000}))
        assert ws.receive_json()["code"] == "too-large"
        ws.send_bytes(b'{"type": "ping"}')
        assert "not binary" in ws.receive_json()["message"]
        ws.send_text("{not json")
        assert ws.receive_json()["message"] == "the message is not JSON"
        ws.send_text("[" * 5000 + "]" * 5000)
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert stored_moves(client, game_id) == 0


def test_http_requests_are_validated_too(client: TestClient) -> None:
    game_id, tokens = create(client)
    big = client.post(f"/api/games/{game_id}/moves", content=b"x" * 70000, headers={"content-type": "application/json"})
    assert big.status_code == 413
    junk = client.post(f"/api/games/{game_id}/moves", content=b"{", headers={"content-type": "application/json"})
    assert junk.status_code == 422 and junk.json()["code"] == "invalid"
    extra = client.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": tokens["0"], "version": 0, "seat": 1})
    assert extra.status_code == 422 and "unknown field 'seat'" in extra.json()["error"]
    assert tokens["0"] not in extra.text
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games", json={"game": "chess"}).json()["code"] == "bad-game"
    bad = client.post("/api/games", json={"game": "omny", "options": {"size": 99}})
    assert bad.status_code == 400 and "size" in bad.json()["error"]
    omiga = client.post("/api/games", json={"game": "omiga", "options": {"variant": "zen"}})
    assert omiga.status_code == 400 and "terminal" in omiga.json()["error"]
    seat = client.post("/api/games", json={"game": "onyx", "mode": "ai", "seat": 3})
    assert seat.status_code == 400 and "seat 4" in seat.json()["error"]
    assert stored_moves(client, game_id) == 0


def test_resigning_ends_the_game_for_the_seat_that_resigns(client: TestClient) -> None:
    game_id, tokens = create(client)
    assert client.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": tokens["0"], "version": 0}).status_code == 200
    # Black resigns while it is White's turn.
    view = client.post(f"/api/games/{game_id}/resign", json={"token": tokens["0"], "version": 1}).json()
    assert view["over"] and view["result"]["winner"] == "white" and "black resigned" in view["result"]["reason"]
    assert stored_moves(client, game_id) == 2


def test_the_pie_swap_is_offered_and_played(client: TestClient) -> None:
    game_id, tokens = create(client, "omny", {"variant": "y", "size": 3, "pie": True})
    client.post(f"/api/games/{game_id}/moves", json={"move": "b2", "token": tokens["0"], "version": 0})
    view = client.get(f"/api/games/{game_id}").json()
    assert view["specials"] == ["swap"]
    view = client.post(f"/api/games/{game_id}/moves", json={"move": "swap", "token": tokens["1"], "version": 1}).json()
    # Seat 2 now owns Black; White (seat 1's colour now) is to move.
    assert view["seats"][1]["colours"] == ["black"] and view["seats"][0]["colours"] == ["white"]
    assert view["to_move"] == "white" and view["mover"] == 0


@pytest.mark.parametrize(("game", "options", "moves"), [("oddy", {"size": 3}, ["a1", "b1"]), ("onyx", {}, ["a1", "b1"])])
def test_the_other_two_player_board_games_play(client: TestClient, game: str, options: dict, moves: list[str]) -> None:
    game_id, tokens = create(client, game, options)
    for ply, move in enumerate(moves):
        response = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
        assert response.status_code == 200, response.text
    stones = response.json()["stones"]
    assert (stones[moves[0]], stones[moves[1]]) == ("black", "white")


def test_omega_places_every_colour_in_a_turn_and_keeps_scores(database: Path) -> None:
    settings = quick_settings(database)
    with TestClient(create_app(settings)) as client:
        game_id, tokens = create(client, "omega", {"players": 2, "size": 4})
        view = client.get(f"/api/games/{game_id}").json()
        assert view["to_move"] == "white" and view["mover"] == 0
        view = client.post(f"/api/games/{game_id}/moves", json={"move": "d1", "token": tokens["0"], "version": 0}).json()
        assert view["to_move"] == "black" and view["mover"] == 0  # the same seat places Black's stone too
        # One record entry per turn: the second placement extends it, and a new version says so.
        assert (view["ply"], view["version"]) == (1, 1)
        again = client.post(f"/api/games/{game_id}/moves", json={"move": "e1", "token": tokens["0"], "version": 0})
        assert again.json()["code"] == "stale"  # the first message sent again
        view = client.post(f"/api/games/{game_id}/moves", json={"move": "e1", "token": tokens["0"], "version": 1}).json()
        assert view["mover"] == 1 and view["scores"] == {"white": 1, "black": 1}
        assert view["moves"] == [{"n": 1, "by": "white", "move": "d1 e1"}]
        view = client.post(f"/api/games/{game_id}/moves", json={"move": "f1", "token": tokens["1"], "version": 2}).json()
        assert [m["move"] for m in view["moves"]] == ["d1 e1", "f1"]
        assert client.app.state.store.move_count(game_id) == 2
    with TestClient(create_app(settings)) as client:
        after = client.get(f"/api/games/{game_id}").json()
        assert [m["move"] for m in after["moves"]] == ["d1 e1", "f1"] and after["version"] == 3
        view = client.post(f"/api/games/{game_id}/moves", json={"move": "g1", "token": tokens["1"], "version": 3}).json()
        assert [m["move"] for m in view["moves"]] == ["d1 e1", "f1 g1"] and view["mover"] == 0


def test_omega_with_three_seats_against_the_computer(client: TestClient) -> None:
    game_id, tokens = create(client, "omega", {"players": 3, "size": 4}, mode="ai", seat=1)
    assert set(tokens) == {"1"}
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        view = receive_state(ws, lambda view: view["mover"] == 1 and not view["thinking"])
        assert view["moves"][0]["move"].count(" ") == 2  # the computer placed all three colours
        for _ in range(3):
            version = view["version"]
            ws.send_json({"type": "move", "move": view["legal"][0], "token": tokens["1"], "version": version})
            view = receive_state(ws, lambda view, version=version: view["version"] == version + 1)
        view = receive_state(ws, lambda view: view["mover"] == 1 and not view["thinking"])
        assert len(view["moves"]) == 4  # the two computers played a turn each
        ws.send_json({"type": "resign", "token": tokens["1"], "version": view["version"]})
        view = receive_state(ws, lambda view: view["over"])
    assert "resigned" in view["result"]["reason"]


def test_the_computer_replies(client: TestClient) -> None:
    game_id, tokens = create(client, mode="ai", seat=0, level=4)
    assert set(tokens) == {"0"}  # the computer's seat has no token
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "b2", "token": tokens["0"], "version": 0})
        thinking = receive_state(ws, lambda view: view["thinking"])
        assert thinking["ply"] == 1 and thinking["legal"] == []  # nothing to click while it thinks
        reply = receive_state(ws, lambda view: view["ply"] == 2 and not view["thinking"])
    assert reply["moves"][1]["by"] == "white" and reply["to_move"] == "black"
    assert stored_moves(client, game_id) == 2


def test_the_computer_opens_when_it_has_the_first_seat(client: TestClient) -> None:
    game_id, tokens = create(client, "onyx", {}, mode="ai", seat=1, level=2)
    assert set(tokens) == {"1"}
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        view = receive_state(ws, lambda view: view["ply"] == 1 and not view["thinking"])
    assert view["mover"] == 1 and view["moves"][0]["by"] == "black"


def test_the_computer_thinks_in_a_worker_process(tmp_path: Path) -> None:
    settings = quick_settings(tmp_path / "g.sqlite3", ai_executor="process")
    with TestClient(create_app(settings)) as client:
        game_id, tokens = create(client, mode="ai", seat=0)
        with client.websocket_connect(f"/ws/g/{game_id}") as ws:
            receive_state(ws)
            ws.send_json({"type": "move", "move": "a1", "token": tokens["0"], "version": 0})
            reply = receive_state(ws, lambda view: view["ply"] == 2 and not view["thinking"], limit=10)
        assert reply["to_move"] == "black" and not reply["problem"]


def test_the_record_downloads_and_replays(client: TestClient) -> None:
    game_id, tokens = create(client, "omny", {"variant": "y", "size": 3, "pie": True})
    for ply, (seat, move) in enumerate([("0", "b2"), ("1", "swap"), ("0", "a1")]):
        client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[seat], "version": ply})
    response = client.get(f"/g/{game_id}/record.json")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="ogames-omny-{game_id}.json"'
    state = ogames.replay(response.text)
    assert [entry["move"] for entry in state.record()["moves"]] == ["b2", "swap", "a1"]
    assert state.seats == {"black": "player 2", "white": "player 1"}
    assert tokens["0"] not in response.text and tokens["1"] not in response.text


def test_the_record_downloads_as_sgf_where_sgf_has_the_board(client: TestClient) -> None:
    from ogames import sgf

    game_id, tokens = create(client, "omny", {"variant": "y", "size": 3, "pie": True})
    for ply, (seat, move) in enumerate([("0", "b2"), ("1", "swap"), ("0", "a1")]):
        client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[seat], "version": ply})
    response = client.get(f"/g/{game_id}/record.sgf")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="ogames-omny-{game_id}.sgf"'
    json_record = ogames.replay(client.get(f"/g/{game_id}/record.json").text)
    assert response.text == sgf.to_sgf(json_record)  # the terminal's SGF of the same record
    read_back = sgf.from_sgf(response.text)
    assert [entry["move"] for entry in read_back["moves"]] == ["b2", "swap", "a1"]
    assert f'href="/g/{game_id}/record.sgf"' in client.get(f"/g/{game_id}").text
    # Onyx has no SGF board: a clear refusal (in the page's language), and no link on its page.
    onyx_id, _ = create(client, "onyx", {})
    refused = client.get(f"/g/{onyx_id}/record.sgf?lang=ru")
    assert refused.status_code == 404 and refused.json()["code"] == "no-sgf"
    assert "Odd-Y" in refused.json()["error"] and "SGF пишется" in refused.json()["error"]
    assert "record.sgf" not in client.get(f"/g/{onyx_id}").text
    assert client.get("/g/nothing-here/record.sgf").status_code == 404


def test_games_resume_after_a_restart(database: Path) -> None:
    settings = quick_settings(database)
    with TestClient(create_app(settings)) as client:
        game_id, tokens = create(client, "omny", {"variant": "y", "size": 5, "pie": True})
        for ply, (seat, move) in enumerate([("0", "c3"), ("1", "swap"), ("0", "a1"), ("1", "b4")]):
            made = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[seat], "version": ply})
            assert made.status_code == 200
        before = client.get(f"/api/games/{game_id}").json()
    with TestClient(create_app(settings)) as client:
        after = client.get(f"/api/games/{game_id}").json()
        assert after == before
        assert [m["move"] for m in after["moves"]] == ["c3", "swap", "a1", "b4"]
        # The same tokens still hold their seats: seat 1 (now White after the swap) moves on.
        assert after["to_move"] == "white" and after["mover"] == 0
        view = client.post(f"/api/games/{game_id}/moves", json={"move": "e1", "token": tokens["0"], "version": 4}).json()
        assert view["ply"] == 5
        assert client.app.state.store.move_count(game_id) == 5


def test_the_computer_moves_after_a_restart_when_it_is_its_turn(database: Path) -> None:
    settings = quick_settings(database)
    with TestClient(create_app(settings)) as client:
        game_id, _ = create(client, mode="ai", seat=0)
        store = client.app.state.store
        # Store a person's move behind the server's back, as if it crashed before the computer replied.
        state = ogames.replay(store.load_game(game_id).record())
        state.play("b2")
        store.add_action(game_id, 0, state.record(), 0)
    with TestClient(create_app(settings)) as client, client.websocket_connect(f"/ws/g/{game_id}") as ws:
        view = receive_state(ws, lambda view: view["ply"] == 2 and not view["thinking"])
    assert view["moves"][1]["by"] == "white"


def test_no_token_reaches_a_watcher_or_the_logs(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    game_id, tokens = create(client)
    with client.websocket_connect(f"/ws/g/{game_id}") as watcher, client.websocket_connect(f"/ws/g/{game_id}") as player:
        seen = [json.dumps(receive_state(watcher))]
        receive_state(player)
        player.send_json({"type": "move", "move": "a1", "token": tokens["0"], "version": 0})
        seen.append(json.dumps(receive_state(watcher)))
        player.send_json({"type": "move", "move": "a1", "token": tokens["0"], "version": 1})  # refused: only the sender hears
        receive_state(player)
        assert player.receive_json()["type"] == "error"
        player.send_json({"type": "ping"})
        assert player.receive_json()["type"] == "pong"
    page = client.get(f"/g/{game_id}").text
    for token in tokens.values():
        assert all(token not in text for text in seen)
        assert token not in page
        assert token not in caplog.text
    assert "move 1" in caplog.text  # the moves themselves are logged


def test_the_database_url_can_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ogames.web.core.settings import Settings

    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    monkeypatch.setenv("OGAMES_DATABASE_URL", url)
    assert Settings().database_url == url
    monkeypatch.delenv("OGAMES_DATABASE_URL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert Settings().database_url == f"sqlite:///{tmp_path / 'data' / 'ogames' / 'ogames.sqlite3'}"


def test_a_missing_game_is_refused_on_the_socket(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/ws/g/no-such-game") as ws:
        assert ws.receive_json() == {"type": "error", "message": "there is no such game", "code": "not-found"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4404


def test_a_failing_computer_is_reported_and_tries_again_later(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from ogames.web.boards import ai

    real = ai.choose_move
    monkeypatch.setattr(ai, "choose_move", lambda record, spec, **kept: (_ for _ in ()).throw(RuntimeError("boom")))
    game_id, tokens = create(client, mode="ai", seat=0)
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "b2", "token": tokens["0"], "version": 0})
        view = receive_state(ws, lambda view: view["problem"])
    assert "could not move" in view["problem"] and not view["thinking"] and view["ply"] == 1
    monkeypatch.setattr(ai, "choose_move", real)
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:  # rebuilt from the database: the computer tries again
        view = receive_state(ws, lambda view: view["ply"] == 2 and not view["thinking"])
    assert view["problem"] is None and client.app.state.store.move_count(game_id) == 2


def test_idle_games_leave_memory_and_come_back_from_the_database(database: Path) -> None:
    with TestClient(create_app(quick_settings(database, max_live_games=2))) as client:
        games = [create(client) for _ in range(3)]
        hub = client.app.state.hub
        assert games[0][0] not in hub.live and len(hub.live) == 2
        game_id, tokens = games[0]
        view = client.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": tokens["0"], "version": 0}).json()
        assert view["ply"] == 1 and game_id in hub.live and len(hub.live) == 2
