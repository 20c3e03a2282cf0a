"""The computer's search is kept in the move worker from move to move of a live game (web/boards/ai.py):
its tree is reused, yet the record stays the truth — a lost, evicted or stale search is rebuilt."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ogames
from ogames.players import player
from ogames.web.boards import ai
from ogames.web.boards.ai import Kept, KeptSearches

from .conftest import create, receive_state

SPEC = "mcts:level=5,iterations=400,seed=7"  # an iteration budget: the same moves on every run


@pytest.fixture(autouse=True)
def no_kept_searches() -> Any:
    ai.kept_searches.clear()
    yield
    ai.kept_searches.clear()


def opening() -> ogames.State:
    return ogames.load("oddy", sides=3, size=5, pie=False).new_state()


def computer_then_reply(game: str) -> tuple[ogames.State, Kept]:
    """The computer (seat 0) moves in a new game, the person answers with the reply the computer
    expected (so that its tree holds the position): the state after both, and the kept search."""
    state = opening()
    move = ai.choose_move(state.record(), SPEC, game=game)
    kept = ai.kept_searches.peek((game, 0))
    assert kept is not None
    state.play(move, t=0.0)
    expected = kept.player.info()["pv"]
    reply = expected[1] if len(expected) > 1 else state.legal_moves()[0]
    state.play(reply, t=0.0)
    return state, kept


def fresh_choice(state: ogames.State) -> str:
    move: str = player(SPEC).choose(ogames.replay(state.record()))
    return move


def test_successive_moves_of_a_game_reuse_one_search() -> None:
    state, first = computer_then_reply("g1")
    move = ai.choose_move(state.record(), SPEC, game="g1")
    second = ai.kept_searches.peek(("g1", 0))
    assert second is first  # the same player, its state grown by the two moves
    assert first.player.info()["reused"] > 0  # the tree it searched already held visits
    assert move in state.legal_moves()


def test_a_lost_search_is_rebuilt_from_the_record() -> None:
    state, first = computer_then_reply("g2")
    ai.kept_searches.clear()  # a restarted worker, or another one, or an eviction
    move = ai.choose_move(state.record(), SPEC, game="g2")
    rebuilt = ai.kept_searches.peek(("g2", 0))
    assert rebuilt is not None and rebuilt is not first and rebuilt.player.info()["reused"] == 0
    assert move == fresh_choice(state)  # what the computer played before searches were kept


def test_an_undo_never_lets_a_stale_tree_play() -> None:
    state, first = computer_then_reply("g3")
    ai.choose_move(state.record(), SPEC, game="g3")
    # The person takes back the reply and plays another: the record no longer continues the kept position.
    undone = ogames.replay(state.record(), upto=1)
    reply = state.history[1]["move"]
    undone.play(next(move for move in undone.legal_moves() if move != reply), t=0.0)
    move = ai.choose_move(undone.record(), SPEC, game="g3")
    rebuilt = ai.kept_searches.peek(("g3", 0))
    assert rebuilt is not None and rebuilt is not first
    assert move == fresh_choice(undone)


def test_another_spec_is_a_new_search() -> None:
    state, first = computer_then_reply("g4")
    other = "mcts:level=3,iterations=200,seed=7"
    ai.choose_move(state.record(), other, game="g4")
    kept = ai.kept_searches.peek(("g4", 0))
    assert kept is not None and kept is not first and kept.spec == other


def test_a_move_that_ends_the_game_keeps_nothing() -> None:
    state = opening()
    while True:  # play on until the computer's move can end the game
        move = ai.choose_move(state.record(), SPEC, game="g5")
        state.play(move, t=0.0)
        if state.is_over:
            break
        state.play(state.legal_moves()[0], t=0.0)
        assert not state.is_over  # the person's filler moves do not win: the computer's last move ends it
    assert ai.kept_searches.peek(("g5", 0)) is None


def test_the_cache_is_bounded_and_drops_idle_searches() -> None:
    now = [0.0]
    searches = KeptSearches(size=2, idle=10.0, clock=lambda: now[0])
    entry = {name: Kept(SPEC, player(SPEC), opening(), 0.0) for name in "abc"}
    for name in "abc":
        searches.put((name, 0), entry[name])
    assert searches.keys() == [("b", 0), ("c", 0)]  # the least recently used went first
    now[0] = 5.0
    assert searches.take(("b", 0)) is entry["b"]
    searches.put(("b", 0), entry["b"])  # used at 5
    now[0] = 12.0  # "c" idle since 0, "b" since 5
    assert searches.take(("nothing", 0)) is None
    assert searches.keys() == [("b", 0)]
    searches.forget("b")
    assert searches.keys() == []


def test_a_finished_game_is_dropped_from_the_worker(client: TestClient) -> None:
    game_id, tokens = create(client, mode="ai", seat=0, level=4)
    with client.websocket_connect(f"/ws/g/{game_id}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "b2", "token": tokens["0"], "version": 0})
        view = receive_state(ws, lambda view: view["ply"] == 2 and not view["thinking"])
        assert any(key[0] == game_id for key in ai.kept_searches.keys())  # the computer's search is kept
        ws.send_json({"type": "resign", "token": tokens["0"], "version": view["version"]})
        receive_state(ws, lambda view: view["over"])
    deadline = time.monotonic() + 30  # the worker drops it when it comes to the call (it may be busy)
    while any(key[0] == game_id for key in ai.kept_searches.keys()):
        assert time.monotonic() < deadline, "the finished game's search was not dropped"
        time.sleep(0.01)
    assert client.app.state.hub.computer.workers.home_of(game_id) is None  # and the game left its worker
