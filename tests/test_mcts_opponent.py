"""How the playouts of Odd-Y and Omny model the opponent (`mcts:opponent=strong|weak|auto`): the
colours whose stones save their bridges, what a weak model changes in a search, and `auto`'s
switch once a search finds itself behind, kept for the rest of that game only."""

from __future__ import annotations

import numpy as np
import pytest

import ogames
from ogames.errors import BadOption
from ogames.kernels import layout as P
from ogames.kernels.stones import answering_colours
from ogames.players import player
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.search import BEHIND, PROBE
from ogames.players.mcts.tree import Budget

Y9 = {"sides": 3, "size": 9, "board": "triangle", "pie": False}


def answering(bridge: int, seat: int, owner: tuple[int, int]) -> int:
    params = np.zeros(P.NPARAMS, dtype=np.int64)
    params[P.P_BRIDGE], params[P.P_BRIDGE_SEAT] = bridge, seat
    return int(answering_colours(np.array([*owner, 0, 0], dtype=np.int64), params))


def test_the_answering_colours_follow_the_seat_through_a_swap() -> None:
    assert answering(0, -1, (0, 1)) == 0  # bridges off: nobody answers
    assert answering(1, -1, (0, 1)) == 0b11  # strong: both colours
    assert answering(1, 0, (0, 1)) == 0b01  # weak, seat 0 searching: Black only
    assert answering(1, 1, (0, 1)) == 0b10
    assert answering(1, 0, (1, 0)) == 0b10  # after a swap seat 0 plays White
    assert answering(0, 0, (0, 1)) == 0


@pytest.mark.parametrize("opponent", ["strong", "weak", "auto"])
def test_the_search_parameters_name_the_seat_that_answers(opponent: str) -> None:
    state = ogames.load("oddy", **Y9).new_state()
    state.play("d4", t=0.0)
    bot = player(f"mcts:opponent={opponent},iterations=10")
    params, _ = bot._search_params(state, adapter_for(state))
    assert params[P.P_BRIDGE] == 1
    assert params[P.P_BRIDGE_SEAT] == (state.mover if opponent == "weak" else -1)


@pytest.mark.parametrize(("name", "options"), [("onyx", {}), ("omega", {"size": 4})])
def test_games_without_bridge_answers_keep_one_model(name: str, options: dict) -> None:
    state = ogames.load(name, **options).new_state()
    params, _ = player("mcts:opponent=weak,iterations=10")._search_params(state, adapter_for(state))
    assert params[P.P_BRIDGE_SEAT] == -1


@pytest.mark.parametrize(("name", "options", "first"), [("oddy", Y9, "d4"), ("omny", {"variant": "y", "size": 9}, "e3")])
def test_a_weak_opponent_makes_the_side_to_move_hope_for_more(name: str, options: dict, first: str) -> None:
    """After a strong first stone, the reply is worth more to the side to move when the playouts'
    opponent leaves its bridges unsaved than when it saves them like the searcher."""
    state = ogames.load(name, **options).new_state()
    if state.legal_moves()[0].startswith("komi"):
        state.play("komi=0.5", t=0.0)
    state.play(first, t=0.0)
    worth = {}
    for opponent in ("strong", "weak"):
        bot = player(f"mcts:opponent={opponent},iterations=20000,seed=3")
        bot.choose(state)
        worth[opponent] = bot.info()["value"]
    assert worth["weak"] > worth["strong"] + 0.04


def lost_for_white() -> ogames.rules.protocol.State:
    """Y 5 with Black's three centre stones against White's two corners, White to move: a loss
    (the connection solver proves it; `test_solver` checks the solver)."""
    state = ogames.load("oddy", sides=3, size=5, board="triangle", pie=False).new_state()
    for move in ("b2", "a1", "b3", "e1", "c2"):
        state.play(move, t=0.0)
    return state


def test_auto_turns_weak_once_behind_for_the_rest_of_that_game_only() -> None:
    state = lost_for_white()
    bot = player("mcts:opponent=auto,iterations=8000,seed=1")  # a probe of 2,000: a reliable worth
    adapter = adapter_for(state)
    assert not bot._weak_opponent(state, adapter)
    move = bot.choose(state)
    probe = bot.info()["probe"]
    assert probe.value < BEHIND and probe.iterations == 2000 and bot.info()["iterations"] == 8000
    assert bot._weak_opponent(state, adapter)  # the move itself was searched with the weak model
    assert bot.info()["reused"] == 0  # in a new tree
    later = state.clone()
    later.play(move, t=0.0)
    if not later.is_over:
        later.play(later.legal_moves()[0], t=0.0)
    assert bot._weak_opponent(later, adapter)  # the same game, moves on: weak
    other = ogames.load("oddy", sides=3, size=5, board="triangle", pie=False).new_state()
    assert not bot._weak_opponent(other, adapter_for(other))  # another game: strong again
    bot.reset()
    assert not bot._weak_opponent(later, adapter)


def test_strong_and_weak_never_switch() -> None:
    state = lost_for_white()
    for opponent, weak in (("strong", False), ("weak", True)):
        bot = player(f"mcts:opponent={opponent},iterations=2000,seed=1")
        bot.choose(state)
        assert bot._weak_opponent(state, adapter_for(state)) is weak


def test_a_search_ahead_stays_strong_and_is_the_search_without_a_probe() -> None:
    """Not behind, `auto` searches on after its probe exactly as `strong` searches at once: the
    same move, visits, worth and line for a seed."""
    state = ogames.load("oddy", sides=3, size=5, board="triangle", pie=False).new_state()
    state.play("a1", t=0.0)  # a weak first stone in the corner: White, to move, is ahead
    infos = {}
    for opponent in ("auto", "strong"):
        bot = player(f"mcts:opponent={opponent},iterations=8000,seed=1")
        bot.choose(state)
        infos[opponent] = bot.info()
        assert not bot._weak_opponent(state, adapter_for(state))
    probe = infos["auto"].probe
    assert probe is not None and infos["strong"].probe is None
    assert probe.iterations == 2000 and probe.value >= BEHIND
    for key in ("move", "visits", "value", "pv", "nodes", "iterations"):
        assert infos["auto"][key] == infos["strong"][key]


def test_a_timed_probe_takes_its_share_of_the_time() -> None:
    state = lost_for_white()
    bot = player("mcts:opponent=auto,think=0.4,seed=1")
    bot.choose(state)
    info = bot.info()
    assert 0 < info["probe"].iterations < info["iterations"]
    # One budget, not a probe plus a whole one: the probe ends a quarter into the search's own
    # deadline (checked without a clock), and the search as a whole stops near its budget (timed
    # with room for a loaded machine).
    assert bot._probe_budget(0.4, 100.0) == Budget(None, 100.0 + 0.4 * PROBE, 0.4)
    assert info["seconds"] < 0.4 + 2.0


def test_a_bad_model_is_refused() -> None:
    with pytest.raises(BadOption, match="opponent='clever' is not valid: choose one of strong, weak, auto"):
        player("mcts:opponent=clever")


def test_two_workers_probe_and_turn_weak_too() -> None:
    state = lost_for_white()
    bot = player("mcts:opponent=auto,iterations=8000,workers=2,seed=1")
    bot.choose(state)
    info = bot.info()
    assert info["probe"].value < BEHIND and info["iterations"] == 8000
    assert bot._weak_opponent(state, adapter_for(state))


def test_the_default_is_auto_and_the_levels_keep_the_strong_model() -> None:
    assert player("mcts").settings["opponent"] == "auto"
    assert player("mcts:level=9").settings["opponent"] == "strong"
    assert player("mcts:level=9,opponent=auto").settings["opponent"] == "auto"
