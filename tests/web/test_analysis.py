"""The computer's analysis of any position of a game: its best move (marked on the board), its
estimate of the mover's chance and the line it expects — bounded (the quotas and caps have their
own tests: test_analysis_desk.py), and only when the game is over or played on one screen."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ogames
from ogames.web.boards import replaying
from ogames.web.boards.hub import Refusal

from .conftest import create
from .test_replay import finished_record


def play(client: TestClient, game_id: str, tokens: dict[str, str], moves: list[str]) -> None:
    for ply, move in enumerate(moves):
        answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
        assert answer.status_code == 200, answer.text


def finished_game(client: TestClient) -> str:
    game_id, tokens = create(client, options={"variant": "y", "size": 4})
    play(client, game_id, tokens, ["a1", "d1", "a2", "c2", "a3", "b3", "a4"])
    return game_id


def analyse(client: TestClient, game_id: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/analysis", json=body)


def test_the_analysis_of_a_finished_game_gives_a_legal_best_move_and_its_line(client: TestClient) -> None:
    game_id = finished_game(client)
    answer = analyse(client, game_id, ply=2, seconds=0.2)
    assert answer.status_code == 200, answer.text
    found = answer.json()
    record = client.get(f"/g/{game_id}/record.json").json()
    state = ogames.replay(record, upto=2)
    assert found["ply"] == 2 and found["to_move"] == "black"
    assert found["move"] in state.legal_moves()
    assert found["pv"][0] == found["move"]
    assert found["value"] is None or 0.0 <= found["value"] <= 1.0
    assert found["iterations"] > 0 and 0 < found["seconds"] < 5
    assert found["cells"] == [found["move"]]
    marked = found["svg"].split(f'data-cell="{found["move"]}"')
    assert len(marked) >= 3  # the cell, and the marks on it: the outline and the ghost stone
    assert 'class="preview"' in found["svg"] and "highlight" in found["svg"]


def test_a_hotseat_game_may_be_analysed_while_it_goes_on_but_not_a_game_against_the_computer(client: TestClient) -> None:
    game_id, tokens = create(client)
    play(client, game_id, tokens, ["b2"])
    assert analyse(client, game_id, ply=1, seconds=0.1).status_code == 200
    against, _ = create(client, mode="ai", seat=0, level="easy")
    refused = analyse(client, against, ply=0, seconds=0.1)
    assert refused.status_code == 403 and refused.json()["code"] == "not-allowed"


def test_a_game_against_a_person_is_analysed_once_it_is_over_and_its_view_says_when(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3},
                                           "seats": ["here", "invite"]}).json()
    game_id, mine = made["id"], made["tokens"]["0"]
    assert made["view"]["analysis"] is False  # the game page hides its analysis panel
    assert 'id="analysis-panel" class="analysis-panel" hidden' in client.get(f"/g/{game_id}").text
    play(client, game_id, {"0": mine}, ["b2"])
    refused = analyse(client, game_id, ply=1, seconds=0.1)
    assert refused.status_code == 403 and refused.json()["code"] == "not-allowed"
    assert 'id="analyse"' not in client.get(f"/g/{game_id}/replay").text  # nor does the replay page
    over = client.post(f"/api/games/{game_id}/resign", json={"token": mine, "version": 1})
    assert over.status_code == 200 and over.json()["analysis"] is True
    assert 'id="analyse"' in client.get(f"/g/{game_id}/replay").text
    assert analyse(client, game_id, ply=1, seconds=0.1).status_code == 200
    hotseat, _ = create(client)
    assert client.get(f"/api/games/{hotseat}").json()["analysis"] is True  # one screen: at any time


def test_hostile_analysis_requests_are_refused_clearly(client: TestClient) -> None:
    game_id = finished_game(client)
    limit = client.app.state.settings.max_analysis_seconds
    cases = [
        ({"ply": 99, "seconds": 0.1}, 422, "bad-ply"),
        ({"ply": -1, "seconds": 0.1}, 422, "invalid"),
        ({"ply": "1", "seconds": 0.1}, 422, "invalid"),
        ({"ply": 1, "seconds": limit + 1}, 422, "too-long"),
        ({"ply": 1, "seconds": 0}, 422, "invalid"),
        ({"ply": 1, "seconds": 1e9}, 422, "invalid"),
        ({"ply": 1, "seconds": 0.1, "token": "x"}, 422, "invalid"),
        ({"ply": 7, "seconds": 0.1}, 422, "over"),  # the position after the winning move
    ]
    for body, status, code in cases:
        answer = analyse(client, game_id, **body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
        assert "Traceback" not in answer.text
    unknown = analyse(client, "no-such-game", ply=0, seconds=0.1)
    assert unknown.status_code == 404 and unknown.json()["code"] == "not-found"
    assert client.post(f"/api/games/{game_id}/analysis", content=b"[").status_code == 422
    assert client.post(f"/api/games/{game_id}/analysis", content=b"x" * 70_000).status_code == 413


def test_two_analyses_at_a_time_per_client_then_busy_with_when_to_retry(client: TestClient) -> None:
    game_id = finished_game(client)
    desk = client.app.state.analyses
    answers: list[int] = []

    def ask(seconds: float) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.append(analyse(client, game_id, ply=0, seconds=seconds).status_code))
        thread.start()
        return thread

    def until(condition: Any) -> None:
        deadline = time.monotonic() + 20
        while not condition() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert condition()

    first = ask(1.5)
    until(lambda: desk.running == 1)  # searching (one worker)
    second = ask(0.1)
    until(lambda: desk.waiting == 1)  # waiting for the worker
    third = analyse(client, game_id, ply=1, seconds=0.1)
    assert third.status_code == 429 and third.json()["code"] == "busy"
    assert int(third.headers["retry-after"]) >= 1 and third.json()["retry_after"] >= 1
    first.join(30)
    second.join(30)
    assert answers == [200, 200]
    assert analyse(client, game_id, ply=1, seconds=0.1).status_code == 200  # free again


def test_an_uploaded_finished_record_may_be_analysed_but_not_an_unfinished_one(client: TestClient) -> None:
    record = finished_record(seed=3, size=4)
    answer = client.post("/api/analysis", json={"record": record, "ply": 1, "seconds": 0.1})
    assert answer.status_code == 200, answer.text
    assert answer.json()["move"] in ogames.replay(record, upto=1).legal_moves()
    going = {**record, "moves": record["moves"][:2], "result": None}
    refused = client.post("/api/analysis", json={"record": going, "ply": 1, "seconds": 0.1})
    assert refused.status_code == 403 and refused.json()["code"] == "not-allowed"
    bad = client.post("/api/analysis", json={"record": {**record, "game": "chess"}, "ply": 1, "seconds": 0.1})
    assert bad.status_code == 422 and bad.json()["code"] == "bad-record"


def test_real_time_games_are_not_analysed_and_zen_forms_are() -> None:
    real_time = ogames.load("omiga").new_state()
    with pytest.raises(Refusal, match="real time"):
        replaying.analysable(real_time)
    zen = ogames.load("omiga", variant="zen", seed=3).new_state()
    replaying.analysable(zen)  # a one-player puzzle, turn by turn: the search can look at it


def test_an_omiga_zen_record_is_analysed_with_its_card_marked(client: TestClient) -> None:
    state = ogames.load("omiga", variant="zen", seed=3).new_state()
    while not state.is_over:
        state.play(state.legal_moves()[0])
    answer = client.post("/api/analysis", json={"record": state.record(), "ply": 0, "seconds": 0.1})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["move"] in ogames.replay(state.record(), upto=0).legal_moves()


def test_an_analysis_models_the_opponent_strong(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worth shown is the position's own: the default search turns to a weak model of the
    opponent when it is behind, which an analysis must not (it would flatter the losing side)."""
    from ogames.web.boards import ai

    made: list[dict[str, Any]] = []
    real = ai.player

    def spy(kind: str, **options: Any) -> Any:
        made.append(options)
        return real(kind, **options)

    monkeypatch.setattr(ai, "player", spy)
    state = ogames.load("oddy", sides=3, size=5, pie=False).new_state()
    for move in ("b2", "a1", "b3", "e1", "c2"):
        state.play(move, t=0.0)
    found = ai.analyse(state.record(), 5, 0.2)
    assert made and all(options.get("opponent") == "strong" for options in made)
    assert found["value"] is not None and found["value"] < 0.45  # White's lost position, not flattered
