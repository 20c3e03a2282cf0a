"""The replay page: a record uploaded (checked whole by the rules; a bad one is refused with the
rules' reason and nothing is stored) or a stored game, stepped through position by position."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

import ogames

from .conftest import create


def finished_record(seed: int = 1, **options: Any) -> dict[str, Any]:
    """A record of a finished random game of Omny (variant y, size 3 unless told)."""
    state = ogames.load("omny", **({"variant": "y", "size": 3} | options)).new_state(["ann", "bob"])
    rng = random.Random(seed)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return state.record()


def upload(client: TestClient, data: bytes, name: str = "game.json") -> Any:
    return client.post("/replay", files={"record": (name, data, "application/json")})


def games_stored(client: TestClient) -> int:
    return len(client.app.state.store.recent_games(100))


def test_an_uploaded_record_is_shown_from_its_end_with_every_move(client: TestClient) -> None:
    record = finished_record()
    page = upload(client, json.dumps(record).encode())
    assert page.status_code == 200, page.text
    moves = record["moves"]
    assert f'max="{len(moves)}" value="{len(moves)}"' in page.text  # the slider, at the end
    assert page.text.count("data-ply=") == len(moves)
    assert ogames.replay(record).result.describe() in page.text
    assert 'data-cell="a1"' in page.text and "data-stone=" in page.text  # drawn by ogames.draw
    assert games_stored(client) == 0  # an upload is shown, never stored


def test_every_position_of_a_record_is_drawn_by_the_rules(client: TestClient) -> None:
    record = finished_record(seed=4)
    for ply in range(len(record["moves"]) + 1):
        answer = client.post("/api/replay/position", json={"record": record, "ply": ply})
        assert answer.status_code == 200, answer.text
        shown = answer.json()
        expected = ogames.replay(record, upto=ply)
        assert shown["svg"].count("data-stone=") == sum(1 for label in expected.board.labels if expected.stone_at(label))
        assert shown["move"] == (record["moves"][ply - 1]["move"] if ply else None)
        assert shown["over"] == (ply == len(record["moves"]))
    assert shown["result"]["winner"] == record["result"]["winner"]


def test_position_requests_with_bad_input_are_refused(client: TestClient) -> None:
    record = finished_record()
    count = len(record["moves"])
    cases = [
        ({"record": record, "ply": count + 1}, 422, "bad-ply"),
        ({"record": record, "ply": -1}, 422, "invalid"),
        ({"record": record, "ply": "3"}, 422, "invalid"),
        ({"record": record, "ply": 1, "extra": 1}, 422, "invalid"),
        ({"record": {**record, "game": "chess"}, "ply": 0}, 422, "bad-record"),
        ({"record": {**record, "moves": [{"move": "zz9", "by": "black"}]}, "ply": 1}, 422, "bad-record"),
    ]
    for body, status, code in cases:
        answer = client.post("/api/replay/position", json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    assert client.post("/api/replay/position", content=b"{not json").status_code == 422
    huge = client.post("/api/replay/position", content=b" " * (client.app.state.settings.max_record_bytes + 10_000))
    assert huge.status_code == 413


def test_hostile_uploads_are_refused_with_the_reason_and_nothing_is_stored(client: TestClient) -> None:
    record = finished_record()
    tampered = json.loads(json.dumps(record))
    tampered["moves"][1]["move"] = tampered["moves"][0]["move"]  # a stone on an occupied cell
    wrong_result = {**record, "result": {"winner": "white" if record["result"]["winner"] == "black" else "black",
                                         "reason": "made up"}}
    cases = [
        (b"this is not JSON", "not valid JSON"),
        (b"", "empty"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (json.dumps({**record, "game": "chess"}).encode(), "chess"),
        (json.dumps(tampered).encode(), "move 2"),
        (json.dumps(wrong_result).encode(), "result"),
        (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
        (json.dumps([1, 2, 3]).encode(), "record"),
    ]
    for data, reason in cases:
        page = upload(client, data)
        assert page.status_code == 422, (data[:40], page.status_code)
        assert 'role="alert"' in page.text and reason in page.text, (data[:40], reason)
        assert "Traceback" not in page.text
    assert games_stored(client) == 0


def test_uploads_that_are_too_large_or_not_a_form_are_refused(client: TestClient) -> None:
    limit = client.app.state.settings.max_record_bytes
    big = upload(client, b" " * (limit + 1))
    assert big.status_code == 413 and "too large" in big.text and 'role="alert"' in big.text
    huge = upload(client, b" " * (limit + 100_000))  # refused before the body is read
    assert huge.status_code == 413
    assert client.post("/replay", content=b"{}", headers={"content-type": "application/json"}).status_code == 415
    assert client.post("/replay", data={"other": "x"}).status_code in (400, 415)
    no_file = client.post("/replay", files={"other": ("a.json", b"{}", "application/json")})
    assert no_file.status_code == 400 and "choose a record file" in no_file.text
    assert games_stored(client) == 0


def test_a_stored_game_opens_on_the_replay_page(client: TestClient) -> None:
    game_id, tokens = create(client)
    for ply, move in enumerate(["a1", "b1", "a2"]):
        client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
    page = client.get(f"/g/{game_id}/replay?ply=1")
    assert page.status_code == 200
    assert 'max="3" value="1"' in page.text and f'data-game-id="{game_id}"' in page.text
    assert 'data-analysis="on"' in page.text  # a hotseat game may be analysed while it goes on
    assert f'href="/g/{game_id}"' in page.text
    opened = client.get("/replay/open", params={"game": f"http://example.org/g/{game_id}#seats=x"}, follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/g/{game_id}/replay"
    assert client.get("/replay/open", params={"game": "../../etc"}).status_code == 400
    assert client.get("/g/nonexistent/replay").status_code == 404


def test_the_replay_pages_in_russian(client: TestClient) -> None:
    assert "Просмотр записи партии" in client.get("/replay?lang=ru").text
    page = upload(client, json.dumps(finished_record()).encode())
    assert "Анализировать позицию" in page.text and "Клавиши ← и →" in page.text


def test_the_position_names_the_player_to_move_apart_from_the_stone(client: TestClient) -> None:
    """In Omega a seat places a stone of every colour: after White's turn Black's seat is to move
    though its first stone is white, and the page says "Black to move". Elsewhere the two agree."""
    state = ogames.load("omega", players=3, size=4).new_state()
    for _ in range(3):  # White's whole turn: a white, a black and a red stone
        state.play(state.legal_moves()[0])
    record = state.record()
    shown = client.post("/api/replay/position", json={"record": record, "ply": 1}).json()
    assert (shown["to_move"], shown["player"]) == ("white", "black")
    page = upload(client, json.dumps(record).encode())
    assert page.status_code == 200 and "Black to move" in page.text and "White to move" not in page.text
    omny = finished_record(seed=2)
    for ply in range(len(omny["moves"])):
        shown = client.post("/api/replay/position", json={"record": omny, "ply": ply}).json()
        assert shown["player"] == shown["to_move"] is not None
