"""The learned evaluation of Omega positions (`kernels/omega_eval.py`, setting `evaluate`): the
compiled features and chances against their plain references, the shipped weights, and the search
that mixes them into its leaves' rewards (three and four players only)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadOption
from ogames.kernels.omega_eval import (
    F_G1,
    F_LOG,
    F_MERGES,
    F_NEXT,
    F_PLACING,
    F_TO_PLACE,
    NF,
    PHASES,
    chances_into,
    chances_reference,
    features,
    features_reference,
    phase_of,
)
from ogames.players import player
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.omega_weights import omega_weights
from test_omega_helpers import last_turn


def _board(players: int, size: int) -> tuple[object, np.ndarray, list[list[int]]]:
    game = ogames.load("omega", players=players, size=size)
    return game, adapter_for(game.new_state()).table, [list(ns) for ns in game.board.neighbours]


@settings(max_examples=80, deadline=None)
@given(players=st.integers(3, 4), size=st.integers(4, 6), data=st.data())
def test_the_compiled_features_match_the_reference(players, size, data):
    game, table, neighbours = _board(players, size)
    n = len(neighbours)
    stones = data.draw(st.lists(st.integers(0, players), min_size=n, max_size=n))
    nxt, turn = data.draw(st.integers(0, players - 1)), data.draw(st.integers(0, players - 1))
    got = features(np.array(stones, dtype=np.int8), table, players, game.end_empty, nxt, turn)
    expected = features_reference(stones, neighbours, players, game.end_empty, nxt, turn)
    assert got == pytest.approx(np.array(expected), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(colours=st.integers(3, 4), phase=st.integers(0, PHASES - 1), data=st.data())
def test_the_compiled_chances_match_the_reference(colours, phase, data):
    weights = data.draw(st.lists(st.floats(-5, 5), min_size=PHASES * NF, max_size=PHASES * NF))
    rows = [data.draw(st.lists(st.floats(0, 60), min_size=NF, max_size=NF)) for _ in range(colours)]
    got = np.zeros(4)
    feats = np.zeros((4, NF))
    feats[:colours] = rows
    chances_into(feats, colours, np.array(weights), phase, got)
    assert got[:colours] == pytest.approx(chances_reference(rows, weights, phase), abs=1e-9)
    assert sum(got[:colours]) == pytest.approx(1.0)


def test_the_features_of_a_small_position_by_hand():
    # Hexagon 4 with three players: White a pair (d1 e1) and a single (b3), Black one stone (d4);
    # Red to place next, in Black's turn.
    game, table, neighbours = _board(3, 4)
    label = {c: i for i, c in enumerate(game.board.labels)}
    stones = [0] * len(neighbours)
    for cell, colour in (("d1", 1), ("e1", 1), ("b3", 1), ("d4", 2)):
        stones[label[cell]] = colour
    rows = features(np.array(stones, dtype=np.int8), table, 3, game.end_empty, 2, 1)
    white, black, red = rows
    assert white[F_LOG] == pytest.approx(math.log(2)) and white[F_G1] == 1 and white[F_G1 + 1] == 1
    assert black[F_LOG] == 0 and black[F_G1] == 1 and red[F_NEXT] == 0
    expected_next = {c for s in ("d1", "e1", "b3") for c in neighbours[label[s]] if stones[c] == 0}
    assert white[F_NEXT] == len(expected_next)
    assert white[F_MERGES] == 1  # c2 touches both of White's groups, and no other empty cell does
    to_place = len(stones) - 4 - game.end_empty  # Red first, then White, Black, Red…
    assert [rows[k][F_TO_PLACE] for k in (2, 0, 1)] == [len(range(k, to_place, 3)) for k in range(3)]
    assert [r[F_PLACING] for r in rows] == [0, 1, 0]


def test_phases_cover_the_game_in_sixths():
    assert [phase_of(placed, 61, 7) for placed in (0, 8, 9, 53, 54, 61)] == [0, 0, 1, 5, 5, 5]


@pytest.mark.parametrize("players", [3, 4])
def test_the_shipped_weights_fit_the_features(players):
    weights = omega_weights(players)
    assert weights.shape == (PHASES * NF,) and np.isfinite(weights).all() and weights.any()


def _search(players: int, evaluate: float, seed: int = 3) -> tuple[str, object]:
    state = ogames.load("omega", players=players, size=4).new_state()
    bot = player("mcts", iterations=400, seed=seed, evaluate=evaluate, reuse=False, nodes=20_000)
    move = bot.choose(state)
    return move, (bot.info().visits, bot.info().value)


def test_two_players_ignore_the_setting():
    assert _search(2, 0.0) == _search(2, 0.7)


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_search_with_it(players):
    plain, evaluated = _search(players, 0.0), _search(players, 0.7)
    assert plain[1] != evaluated[1] and _search(players, 0.7) == evaluated  # other rewards, still seeded
    assert _search(players, 1.0)[1] != evaluated[1]


def test_a_search_without_playouts_still_finds_a_last_turn_win():
    """With evaluate=1 no playout is run; the ends of the game the tree reaches are scored exactly."""
    for seed in range(40):
        state = last_turn(seed)
        seat = state.mover
        colour = next(c for c, owner in state.owner.items() if owner == seat)
        winning = set()
        for first in state.legal_moves():
            for second in state.legal_moves():
                for third in state.legal_moves():
                    if len({first, second, third}) < 3:
                        continue
                    end = state.clone()
                    for move in (first, second, third):
                        end.play(move, t=0.0)
                    if end.winner == colour:
                        winning.add(first)
        if winning and len(winning) < len(state.legal_moves()):
            break
    else:
        pytest.fail("no last turn with a win among other moves")
    bot = player("mcts", iterations=3000, seed=1, evaluate=1.0, reuse=False, nodes=20_000)
    assert bot.choose(state) in winning


@pytest.mark.parametrize("value", ["-0.1", "1.5", "x"])
def test_out_of_range_is_refused(value):
    with pytest.raises(BadOption, match="evaluate"):
        player(f"mcts:evaluate={value}")
