"""The board games as OpenSpiel games (ogames.envs.openspiel): OpenSpiel's random-simulation test
on every board game case, its MCTS bot playing every game to the end through the adapter, its
exhaustive state enumeration on tiny boards equal to our own, and the same game as the rules.
Skipped without the optional extra `openspiel`."""

from __future__ import annotations

import random

import numpy as np
import pytest

from conformance.cases import BOARD_CASES

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import get_all_states, mcts  # noqa: E402

import ogames  # noqa: E402
import ogames.envs.openspiel as adapter  # noqa: E402
from ogames.envs import encoding  # noqa: E402


def spiel_params(options: dict) -> dict:
    """OpenSpiel parameters of ogames options (a pair of side lengths is written "AxB")."""
    return {k: "x".join(map(str, v)) if isinstance(v, tuple) else v for k, v in options.items()}


@pytest.mark.parametrize(("case_id", "name", "options"), BOARD_CASES, ids=[c[0] for c in BOARD_CASES])
def test_openspiel_random_simulation_test_passes(case_id, name, options):
    game = pyspiel.load_game(f"ogames_{name}", spiel_params(options))
    assert game.num_distinct_actions() == encoding(ogames.load(name, **options)).num_actions
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_omega_scores_as_returns_with_three_and_four_players():
    for players in (3, 4):
        game = pyspiel.load_game("ogames_omega", {"players": players, "size": 4, "returns": "score"})
        assert game.num_players() == players
        assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
        state = game.new_initial_state()
        rng = random.Random(players)
        while not state.is_terminal():
            assert state.returns() == [0.0] * players
            state.apply_action(rng.choice(state.legal_actions()))
        rules = state.rules_state
        expected = [0.0] * players
        for colour, seat in rules.owner.items():
            expected[seat] = float(rules.scores[colour])
        assert state.returns() == expected
        assert all(game.min_utility() <= r <= game.max_utility() for r in expected)


def test_win_returns_of_three_players_sum_to_zero():
    game = pyspiel.load_game("ogames_omega", {"players": 3, "size": 4})
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [-0.5, -0.5, 1.0]
    assert state.returns()[state.rules_state.owner[state.rules_state.winner]] == 1.0


@pytest.mark.parametrize(
    ("name", "params", "simulations"),
    [
        ("omny", {"variant": "sunder", "size": 3, "pie": True}, 12),
        ("oddy", {"size": 4}, 12),
        ("omega", {"players": 2, "size": 4}, 6),
        ("omega", {"players": 3, "size": 4, "pie": True}, 4),
        ("onyx", {}, 2),
    ],
)
def test_openspiel_mcts_plays_each_game_to_the_end(name, params, simulations):
    game = pyspiel.load_game(f"ogames_{name}", params)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng) for _ in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    rules = state.rules_state
    assert rules.is_over and rules.winner is not None
    # The adapter's history is a game the rules accept from the start.
    replayed = ogames.replay(rules.record())
    assert replayed.winner == rules.winner and replayed.ply == rules.ply
    assert sum(state.returns()) == pytest.approx(0.0)


def our_enumeration(state) -> tuple[int, int]:
    """Every node of the game tree from a state (moves made and taken back by the rules), and how
    many distinct positions they hold (stones, whose turn, who holds which colour, the komi, the
    result, the legal moves)."""
    nodes, positions = 0, set()

    def walk() -> None:
        nonlocal nodes
        nodes += 1
        moves = state.legal_moves()
        labels = state.game.board.labels
        stones = tuple(state.stone_at(label) for label in labels)
        komi = getattr(state, "komi", None)
        positions.add((stones, state.to_move, state.mover, tuple(state.owner.items()), komi, state.winner, tuple(moves)))
        for move in moves:
            state.play(move, t=0.0)
            walk()
            state.undo()

    walk()
    return nodes, len(positions)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("oddy", {"size": 2}),
        ("oddy", {"size": 3, "pie": False}),
        ("omny", {"variant": "y", "size": 2, "pie": True}),
        ("omny", {"variant": "custom", "cells": "a1 b1 a2 b2", "stars": "all", "komi_choice": True}),
        ("omny", {"variant": "sunder", "size": 2}),
    ],
)
def test_get_all_states_counts_what_our_own_enumeration_counts(name, options):
    game = pyspiel.load_game(f"ogames_{name}", options)
    by_history = get_all_states.get_all_states(game, to_string=lambda s: s.history_str())
    by_position = get_all_states.get_all_states(game, to_string=str)
    nodes, positions = our_enumeration(ogames.load(name, **options).new_state())
    assert len(by_history) == nodes
    assert len(by_position) == positions
    assert positions < nodes  # transpositions exist, so the two counts test different things


def test_the_openspiel_game_is_the_rules_game_move_for_move():
    game = pyspiel.load_game("ogames_omny", {"variant": "y", "size": 4, "komi_choice": True, "pie": True})
    rules = ogames.load("omny", variant="y", size=4, komi_choice=True, pie=True)
    enc = encoding(rules)
    for seed in range(10):
        rng = random.Random(seed)
        state, reference = game.new_initial_state(), rules.new_state()
        while not state.is_terminal():
            assert state.current_player() == reference.mover
            listed = [state.action_to_string(a) for a in state.legal_actions()]
            assert listed == [enc.move(a) for a in enc.legal_actions(reference)]
            assert np.array_equal(np.asarray(state.observation_tensor()), enc.observation(reference).ravel())
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            reference.play(enc.move(action), t=0.0)
        assert reference.is_over
        assert state.returns()[reference.owner[reference.winner]] == 1.0


def test_clones_are_independent_and_serialised_states_come_back():
    game = pyspiel.load_game("ogames_onyx", {"pie": True})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[5])
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history()) == 1 and len(copy.history()) == 2
    assert copy.rules_state is not state.rules_state
    back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, copy))[1]
    assert str(back) == str(copy) and back.history() == copy.history()


def test_bad_parameters_are_refused_with_the_rules_message():
    with pytest.raises(Exception, match="size"):
        pyspiel.load_game("ogames_omny", {"variant": "sunder", "size": 99})
    with pytest.raises(Exception, match="returns"):
        pyspiel.load_game("ogames_omega", {"returns": "money"})
    assert adapter.ogames_options("oddy", {"sides": 5, "size": 0, "board": "", "pie": True}) == {"sides": 5, "pie": True}
