"""The board games' views are typed at runtime (web/boards/views.py): the JSON API answers the
declared models and says so in its schema, and a live game's views are made from the position
before, keeping what a move did not change (each move listed is made once)."""

from __future__ import annotations

import json
import random
import time

from fastapi.testclient import TestClient

import ogames
from ogames.web.boards.game_view import view
from ogames.web.boards.live import LiveGame
from ogames.web.boards.views import CreatedGame, GameView, JoinedSeat, PositionView
from ogames.web.core.delta import Stones, jsonable, make_delta, stamp

from .conftest import create


def test_the_api_answers_its_declared_models_and_its_schema_names_them(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 4}, "seats": ["here", "open"]})
    assert made.status_code == 201, made.text
    created = CreatedGame.model_validate_json(made.text)  # strictly: every field declared and of its type
    assert created.view.board.svg and created.tokens.keys() == {"0"} and created.url == f"/g/{created.id}"
    moved = client.post(f"/api/games/{created.id}/moves", json={"move": "a1", "token": created.tokens["0"], "version": 0})
    assert GameView.model_validate_json(moved.text).stones == {"a1": "black"}
    joined = client.post(f"/api/games/{created.id}/join", json={"seat": 1})
    assert joined.status_code == 201, joined.text
    assert JoinedSeat.model_validate_json(joined.text).view.seats[1].kind == "invited"
    position = PositionView.model_validate_json(client.get(f"/api/games/{created.id}/position/0").text)
    assert (position.k, position.of, position.board.svg is not None) == (0, 1, True)
    answers = {path: {method: spec["responses"] for method, spec in methods.items()}
               for path, methods in client.app.openapi()["paths"].items()}  # type: ignore[attr-defined]  # (not served)
    schema = json.dumps(answers)
    for model in ("CreatedGame", "JoinedSeat", "PositionView", "GameView"):
        assert f"#/components/schemas/{model}" in schema


def test_a_view_keeps_the_moves_and_stones_a_move_did_not_change(client: TestClient) -> None:
    state = ogames.load("omny", variant="y", size=6).new_state()
    live = LiveGame("g", "hotseat", ["human"] * 2, state, {}, time.time())
    rng = random.Random(5)
    before = stamp(view(live, "ru"))
    for _ in range(12):
        trial = live.state.clone()
        trial.play(rng.choice(trial.legal_moves()))
        live.state, live.version = trial, live.version + 1
        after = stamp(view(live, "ru"))
        assert all(old is new for old, new in zip(before.moves, after.moves, strict=False))  # each move made once
        assert len(after.moves) == len(before.moves) + 1 and after.moves[-1].text  # the new one, in Russian
        assert isinstance(after.stones, Stones) and after.stones.origin is before.stones  # what changed, known
        assert jsonable(make_delta(before, after))["stones"] == {trial.history[-1]["move"]: trial.history[-1]["by"]}
        assert after.seats is before.seats  # nobody changed seats
        before = after


def test_a_game_page_holds_its_view_as_json(client: TestClient) -> None:
    game_id, _ = create(client, options={"variant": "y", "size": 4})
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200
    start = page.text.index('id="view"')
    body = page.text[page.text.index(">", start) + 1: page.text.index("</script>", start)]
    shown = GameView.model_validate_json(body)
    assert shown.id == game_id and shown.board.svg is None and shown.seq is not None
