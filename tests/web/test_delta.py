"""What a page that takes deltas is sent (web/core/delta.py, web/core/common.py's Outbox): the deltas of a
game applied one after the other, from its first view, give every later view exactly; a page
that falls behind gets the delta from the view it holds, or the newest view whole; a socket that
asks for deltas gets a full view first and then only what changed, without the board's drawing."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import ogames
from conformance.cases import CASES
from ogames.rules import BOARD
from ogames.rules.protocol import State
from ogames.web.boards.board import Position, position_facts
from ogames.web.boards.game_view import view
from ogames.web.boards.live import LiveGame
from ogames.web.boards.recorder import new_entries
from ogames.web.boards.views import DeltaView, GameView
from ogames.web.core.common import Outbox
from ogames.web.core.delta import apply_delta, jsonable, make_delta, stamp, written

from .conftest import create, receive_state

# Every board game's conformance case (they follow the registry: a new variant has one).
BOARD_CASES = [case for case in CASES if case.load().played_on == BOARD]
GAMES = [(case.game, case.options) for case in BOARD_CASES]


def live_game(game: str, options: dict[str, Any]) -> LiveGame:
    state = ogames.load(game, **options).new_state()
    return LiveGame("g", "hotseat", ["human"] * state.game.seat_count, state, {}, time.time())


def step(live: LiveGame, rng: random.Random, undo_chance: float) -> None:
    """One action on a live game as the hub makes them: a random legal move, or an undo."""
    trial = live.state.clone()
    if trial.history and rng.random() < undo_chance:
        trial.undo()
    else:
        trial.play(rng.choice(trial.legal_moves()))
    live.state, live.version = trial, live.version + 1


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[case.id for case in BOARD_CASES])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), undo_chance=st.sampled_from([0.0, 0.15, 0.4]), language=st.sampled_from(["en", "ru"]))
def test_the_deltas_of_a_random_game_applied_from_its_start_give_every_view_of_its_declared_type(
    game: str, options: dict[str, Any], seed: int, undo_chance: float, language: str
) -> None:
    rng = random.Random(seed)
    live = live_game(game, options)
    shown = stamp(view(live, language))
    held = json.loads(written(shown))  # what the page has: its first view, whole
    while not live.state.is_over and live.version < 120:
        step(live, rng, undo_chance)
        new = stamp(view(live, language))
        labels = live.state.board.labels  # type: ignore[attr-defined]
        assert new.stones == {label: colour for label in labels if (colour := live.state.stone_at(label)) is not None}
        # Made from the position before (the live game's last facts), the facts are those made afresh.
        assert made_afresh(live.state, language) == new_position(live, language)
        delta = make_delta(shown, new)
        GameView.model_validate_json(written(new))  # every field declared and of its type
        DeltaView.model_validate_json(written(delta))
        wire = json.loads(written(delta))  # as the page receives it
        held = apply_delta(held, wire)
        assert held == json.loads(written(new)) == jsonable(new)
        shown = new
    assert live.version > 0


def made_afresh(state: State, language: str) -> dict[str, Any]:
    """A position's facts made from its state alone (a copy of it: nothing kept of it is used)."""
    return facts_json(position_facts(state.clone(), language))


def new_position(live: LiveGame, language: str) -> dict[str, Any]:
    return facts_json(live.positions[language][1])


def facts_json(position: Position) -> dict[str, Any]:
    return {name: jsonable(value) if isinstance(value, BaseModel) else
            [jsonable(item) for item in value] if name == "moves" else value
            for name, value in vars(position).items()}


def test_a_move_s_delta_is_what_changed_and_small() -> None:
    live = live_game("omny", {"variant": "y", "size": 9})
    first = stamp(view(live))
    live.state = live.state.clone()
    live.state.play("c3")
    live.version += 1
    delta = jsonable(make_delta(first, stamp(view(live))))
    assert delta["stones"] == {"c3": "black"}
    assert delta["lists"]["legal"] == {"drop": ["c3"], "add": []}
    assert delta["set"]["last"] == "c3" and delta["set"]["board"]["marked"] == ["c3"]
    assert delta["moves"] == {"keep": 0, "add": [{"n": 1, "by": "black", "move": "c3"}]}
    assert "svg" not in json.dumps(delta) and len(json.dumps(delta)) < 600


def test_a_delta_for_another_view_is_refused() -> None:
    live = live_game("omny", {"variant": "y", "size": 4})
    one, two = stamp(view(live)), stamp(view(live))
    with pytest.raises(ValueError, match="for view"):
        apply_delta(jsonable(one), jsonable(make_delta(two, stamp(view(live)))))


def drained(outbox: Outbox) -> list[dict[str, Any]]:
    """What an outbox sends, as the page receives it."""
    out = []
    while not outbox.empty():
        message = outbox.get_nowait()
        out.append(json.loads(written(message)) if isinstance(message, BaseModel) else message)
    return out


def test_an_outbox_sends_the_delta_from_the_view_its_page_holds_and_a_full_view_to_a_page_far_behind() -> None:
    live = live_game("omny", {"variant": "y", "size": 9})
    rng = random.Random(3)
    outbox = Outbox(deltas=True)
    views = [stamp(view(live))]
    outbox.show(views[0], make_delta)
    page = drained(outbox)[0]
    assert page["type"] == "state" and page == jsonable(views[0])
    for _ in range(3):  # three views while the page reads nothing: one delta, from the view it holds
        step(live, rng, 0.0)
        views.append(stamp(view(live)))
        outbox.show(views[-1], make_delta)
    (message,) = drained(outbox)
    assert message["type"] == "delta" and message["base"] == page["seq"]
    page = apply_delta(page, message)
    assert page == jsonable(views[-1])
    for _ in range(Outbox.FULL_AFTER + 1):  # far behind: the newest view whole
        step(live, rng, 0.0)
        outbox.show(stamp(view(live)), make_delta)
    (message,) = drained(outbox)
    assert message["type"] == "state" and message["version"] == live.version


def test_a_socket_that_asks_for_deltas_gets_a_full_view_then_deltas_and_one_that_does_not_gets_views(client) -> None:
    game_id, tokens = create(client, options={"variant": "y", "size": 5})
    with client.websocket_connect(f"/ws/g/{game_id}?deltas=1") as page, client.websocket_connect(f"/ws/g/{game_id}") as program:
        held = receive_state(page)
        assert "svg" not in held["board"] and "seq" in held
        assert "svg" in receive_state(program)["board"]
        page.send_json({"type": "move", "move": "c3", "token": tokens["0"], "version": 0})
        while held["version"] < 1:
            message = page.receive_json()
            if message["type"] == "delta":
                held = apply_delta(held, message)
            elif message["type"] == "state":
                held = message
        assert held["stones"] == {"c3": "black"} and held["mover"] == 1
        GameView.model_validate(held)
        whole = receive_state(program, lambda view: view["version"] == 1)
        assert whole["stones"] == held["stones"] and GameView.model_validate(whole).board.svg
        assert client.get(f"/api/games/{game_id}").json()["stones"] == held["stones"]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[case.id for case in BOARD_CASES])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), undo_chance=st.sampled_from([0.0, 0.3]))
def test_what_an_action_wrote_in_the_record_keeps_the_stored_record_the_rules_own(
    game: str, options: dict[str, Any], seed: int, undo_chance: float
) -> None:
    """`_commit` stores only the entries an action wrote (`new_entries`) and the record's head:
    put together as the store does, they are the record the rules write whole."""
    rng = random.Random(seed)
    live = live_game(game, options)
    stored = live.state.record()["moves"]
    while not live.state.is_over and live.version < 80:
        before = live.state
        step(live, rng, undo_chance)
        first, entries = new_entries(before, live.state)
        stored = [*stored[:first], *entries]
        assert stored == live.state.record()["moves"]
        assert {**live.state.record_head(), "moves": stored} == live.state.record()


def test_a_card_table_s_socket_asking_for_deltas_gets_the_table_in_parts_and_a_bad_flag_is_no_flag(client) -> None:
    """Omiga's table page takes deltas too: its first view has the table's drawing in parts (the
    frame and each cell) rather than whole; anything but `deltas=1` is a socket without deltas."""
    made = client.post("/api/omiga", json={"options": {"variant": "zen"}, "seats": [{"kind": "here"}]})
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    with client.websocket_connect(f"/ws/o/{table_id}?deltas=1") as table:
        first = table.receive_json()
        assert first["type"] == "state" and "table" not in first and isinstance(first["seq"], int)
        assert first["cells"] and all(f'data-cell="{label}"' in cell for label, cell in first["cells"].items())
        table.send_json({"type": "ping"})
        assert any(table.receive_json()["type"] == "pong" for _ in range(5))
    with client.websocket_connect(f"/ws/o/{table_id}?deltas=yes") as table:
        first = table.receive_json()
        assert "<svg" in first["table"] and "cells" not in first and "seq" not in first
    game_id, _ = create(client, options={"variant": "y", "size": 4})
    for flag in ("yes", "2", "true", "", "%00"):
        with client.websocket_connect(f"/ws/g/{game_id}?deltas={flag}") as page:
            assert "svg" in receive_state(page)["board"]


def test_a_timed_game_with_invited_people_has_a_view_of_its_declared_type(client) -> None:
    game_id, tokens = create(client, game="onyx", options={}, seats=["here", "invite"], clock={"minutes": 1, "increment": 2})
    view = client.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": tokens["0"], "version": 0}).json()
    shown = GameView.model_validate(view)
    assert shown.clock is not None and shown.clock.base == 60 and shown.board.open and shown.mode == "online"
    with pytest.raises(ValueError, match="extra"):
        GameView.model_validate({**view, "secret": "a field nobody declared"})
