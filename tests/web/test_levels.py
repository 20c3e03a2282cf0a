"""The computer's levels 1–10 on the web: what the protocol accepts (and the old names it still
reads), the spec a level becomes, games against the weakest and the strongest level played to the
end, and a game stored before levels (`mcts:think=…`) still playing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

import ogames
from ogames.players import player
from ogames.players.levels import LEVELS, omiga_spec
from ogames.web.boards.hub import seating
from ogames.web.boards.protocol import NewGame
from ogames.web.core.computer import board_spec, level_shown

from .conftest import QUICK, receive_state

TINY = {"variant": "y", "size": 3}


@pytest.mark.parametrize(("given", "level"), [(1, 1), (10, 10), ("7", 7), ("easy", 3), ("medium", 6), ("hard", 9)])
def test_the_levels_and_the_old_names_are_accepted(given: Any, level: int) -> None:
    request = NewGame.model_validate({"game": "omny", "mode": "ai", "level": given})
    assert request.level == level
    seats = NewGame.model_validate({"game": "omny", "seats": ["here", f"computer:{given}"]}).seats
    assert seats == ["here", f"computer:{level}"]  # one spelling, whatever the page sent


@pytest.mark.parametrize("given", [0, 11, -1, "x", "0", "11", "", 5.5, True, None, [5]])
def test_levels_out_of_range_are_refused(given: Any) -> None:
    with pytest.raises(ValidationError, match="level"):
        NewGame.model_validate({"game": "omny", "mode": "ai", "level": given})


@pytest.mark.parametrize("choice", ["computer:0", "computer:11", "computer:x", "computer:", "computer", "robot", "computer:5:5"])
def test_seat_choices_out_of_range_are_refused(choice: str) -> None:
    with pytest.raises(ValidationError):
        NewGame.model_validate({"game": "omny", "seats": ["here", choice]})


def test_the_default_level_is_5() -> None:
    assert NewGame.model_validate({"game": "omny", "mode": "ai"}).level == 5


def test_a_level_becomes_its_budget_under_the_time_cap() -> None:
    seats = ["here", "computer:10", "computer:hard"]
    request = NewGame.model_validate({"game": "omega", "options": {"players": 3}, "seats": seats})
    omega3 = ogames.load("omega", players=3)
    mode, kinds, names = seating(request, omega3, 7.5)
    assert mode == "ai" and names == ["player 1", "computer (level 10)", "computer (level 9)"]
    # three-player Omega's own ladder (levels.ladder), not the common one
    assert kinds[1:] == ["mcts:level=10,iterations=25000,think=7.5", "mcts:level=9,iterations=8000,think=7.5"]
    omny = ogames.load("omny")
    for level in (1, 9, 10):
        searcher = player(board_spec(level, 7.5, omny))
        # Every level keeps its iteration budget under the cap: level 10 too (given `think` alone, a
        # level-10 search would take the whole time as its budget).
        assert (searcher.iterations, searcher.think, searcher.level) == (LEVELS[level].iterations, 7.5, level)
        assert level_shown(board_spec(level, 7.5, omny)) == level
    assert level_shown("mcts:think=1") is None and level_shown("human") is None and level_shown("mcts:level=99") is None
    assert level_shown("rollout:reaction=champion") == 9 and level_shown("racer:reaction=0.3") is None  # a former level 9
    assert [level_shown(omiga_spec(level)) for level in range(1, 11)] == list(range(1, 11))


def play_out(client: TestClient, game_id: str, token: str, person: int = 0, limit: int = 30) -> dict[str, Any]:
    """Play the person's first legal move each turn until the game is over: its last view."""
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        view = receive_state(ws)
        for _ in range(limit):
            if view["over"]:
                return view
            if view["mover"] == person and not view["thinking"]:
                ws.send_json({"type": "move", "move": view["legal"][0], "token": token, "version": view["version"]})
            view = receive_state(ws, lambda v, seen=view["version"]: v["version"] > seen or v["over"])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("level", [1, 10])
def test_a_game_against_the_weakest_and_the_strongest_level_ends(client: TestClient, level: int) -> None:
    made = client.post("/api/games", json={"game": "omny", "options": TINY, "mode": "ai", "seat": 0, "level": level})
    assert made.status_code == 201, made.text
    body = made.json()
    seat = body["view"]["seats"][1]
    assert (seat["computer"], seat["level"], seat["name"]) == (True, level, f"computer (level {level})")
    kind = client.app.state.store.load_game(body["id"]).seat_kinds[1]
    assert kind == f"mcts:level={level},iterations={LEVELS[level].iterations},think={QUICK:g}"
    view = play_out(client, body["id"], body["tokens"]["0"])
    assert view["over"] and view["result"] and not view["problem"]
    assert any(move["by"] == "white" for move in view["moves"])  # the computer played its share


def test_a_game_stored_before_levels_still_plays(client: TestClient) -> None:
    """A game stored with the old spec (`mcts:think=SECONDS`, named "computer (medium)") loads,
    is shown without a level, and its computer answers."""
    store = client.app.state.store
    state = ogames.load("omny", **TINY).new_state(["player", "computer (medium)"])
    store.create_game("oldgame1", "omny", "ai", ["human", "mcts:think=0.02"], state.record(), {0: "t" * 43})
    view = client.get("/api/games/oldgame1").json()
    assert view["seats"][1]["computer"] and view["seats"][1]["level"] is None
    assert view["seats"][1]["name"] == "computer (medium)"
    final = play_out(client, "oldgame1", "t" * 43)
    assert final["over"] and not final["problem"] and len(final["moves"]) >= 2


def test_an_omiga_bot_by_level(client: TestClient) -> None:
    seats = [{"kind": "here"}, {"kind": "bot", "level": 8}]
    made = client.post("/api/omiga", json={"options": {"variant": "base"}, "seats": seats})
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    assert client.app.state.store.load_game(table).seat_kinds == ["human", omiga_spec(8)]
    seat = client.get(f"/api/omiga/{table}").json()["seats"][1]
    assert (seat["computer"], seat["level"]) == (True, 8)
    # A bot chosen as before levels (strategy and speed) is shown by them, without a level.
    old = client.post("/api/omiga", json={"seats": [{"kind": "here"}, {"kind": "bot", "strategy": "greedy", "speed": 0.3}]})
    assert client.get(f"/api/omiga/{old.json()['id']}").json()["seats"][1]["level"] is None
