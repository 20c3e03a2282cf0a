"""The learned move policy of three-player Omega (`kernels/omega_policy.py`, setting `policy`): the
compiled features and chances against their plain references, the shipped weights, and the search
that seeds a new node's children with the policy's prior."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadOption
from ogames.kernels import layout as P
from ogames.kernels.omega_policy import (
    F_SWAP,
    NB,
    NF,
    chances_into,
    chances_reference,
    feature_names,
    features_into,
    move_features,
    move_features_reference,
)
from ogames.players import player
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.omega_weights import policy_weights


def _board(size: int) -> tuple[object, np.ndarray, list[list[int]]]:
    game = ogames.load("omega", players=3, size=size)
    return game, adapter_for(game.new_state()).table, [list(ns) for ns in game.board.neighbours]


def _compiled(stones: list[int], table: np.ndarray, colour: int, own: bool, phase: float, moves: list[int]) -> np.ndarray:
    n = len(stones)
    out = np.zeros((len(moves), NF))
    scratch = np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32)
    features_into(np.array(stones, dtype=np.int8), table, colour, own, phase, np.array(moves, dtype=np.int32), len(moves),
                  *scratch, np.zeros(n, dtype=np.int64), 1, out)
    return out


@settings(max_examples=80, deadline=None)
@given(size=st.integers(4, 6), data=st.data())
def test_the_compiled_features_match_the_reference(size, data):
    _, table, neighbours = _board(size)
    n = len(neighbours)
    stones = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    colour, own = data.draw(st.integers(0, 2)), data.draw(st.booleans())
    phase = data.draw(st.floats(0, 1))
    moves = [c for c in range(n) if stones[c] == 0] + data.draw(st.lists(st.integers(n, n + 2), max_size=2))
    got = _compiled(stones, table, colour, own, phase, moves)
    assert got == pytest.approx(np.array(move_features_reference(stones, neighbours, colour, own, phase, moves)).reshape(
        len(moves), NF), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 12), data=st.data())
def test_the_compiled_chances_match_the_reference(count, data):
    weights = data.draw(st.lists(st.floats(-5, 5), min_size=NF, max_size=NF))
    rows = [data.draw(st.lists(st.floats(0, 6), min_size=NF, max_size=NF)) for _ in range(count)]
    got = np.zeros(count)
    chances_into(np.array(rows), count, np.array(weights), got)
    assert got == pytest.approx(chances_reference(rows, weights), abs=1e-9)
    assert got.sum() == pytest.approx(1.0)


def test_the_features_of_a_stone_by_hand():
    # Hexagon 4: White a pair (d1 e1) and a single stone two cells away; a White stone between
    # them joins both into a group of four, its owner's score going from 2 × 1 to 4.
    game, table, neighbours = _board(4)
    label = {c: i for i, c in enumerate(game.board.labels)}
    pair = [label["d1"], label["e1"]]
    stones = [0] * len(neighbours)
    for cell in pair:
        stones[cell] = 1
    between = next(c for c in neighbours[pair[1]] if stones[c] == 0 and any(
        stones[d] == 0 and d not in neighbours[pair[1]] and d not in pair for d in neighbours[c]))
    single = next(d for d in neighbours[between] if stones[d] == 0 and d not in neighbours[pair[1]] and d not in pair)
    stones[single] = 1
    row = _compiled(stones, table, 0, True, 0.5, [between])[0]
    assert row[0] == pytest.approx(math.log(4) - math.log(2))  # the gain to White's log score
    assert row[1] == pytest.approx(math.log(4)) and row[2] == 2 and row[3] == 2
    assert row[2 * NB] == pytest.approx(0.5 * row[0])  # × phase
    assert not row[NB : 2 * NB].any()  # the other-colour block is empty for an own stone
    other = _compiled(stones, table, 0, False, 0.5, [between])[0]
    assert other[NB : 2 * NB] == pytest.approx(row[:NB]) and not other[:NB].any()
    swap = _compiled(stones, table, 0, True, 0.5, [len(stones)])[0]
    assert swap[F_SWAP] == 1 and swap.sum() == 1


def test_the_shipped_weights_fit_the_features():
    weights = policy_weights()
    assert weights.shape == (NF,) == (len(feature_names()),) and np.isfinite(weights).all()


def test_the_prior_values_children_by_their_chance_over_the_favourites():
    ints = np.zeros((5, K.NI), dtype=np.int32)
    floats = np.zeros((5, K.F_W + 3))
    ints[0, K.I_FIRST], ints[0, K.I_NCHILD], ints[0, K.I_SEAT] = 1, 4, 2
    chances = np.array([0.1, 0.5, 0.25, 0.15])
    K.give_prior(ints, floats, 0, chances, 4, 10.0, 3)  # no visit yet: around the even share
    values = floats[1:5, K.F_RW] / floats[1:5, K.F_RN]
    assert floats[1:5, K.F_RN].tolist() == [10.0] * 4
    assert values == pytest.approx([1 / 3 + 0.2 * (c / 0.5 - 0.5) for c in chances])
    floats[1:5] = 0.0
    floats[0, K.F_N], floats[0, K.F_W + 2] = 8.0, 6.0  # the side to move has won three in four
    K.give_prior(ints, floats, 0, chances, 4, 10.0, 3)
    assert floats[1:5, K.F_RW] / floats[1:5, K.F_RN] == pytest.approx([0.75 + 0.2 * (c / 0.5 - 0.5) for c in chances])


def _root_after(spec: str, iterations: int, players: int = 3) -> tuple[np.ndarray, np.ndarray, object]:
    state = ogames.load("omega", players=players, size=4).new_state()
    for move in state.legal_moves()[:6:2]:
        state.play(move, t=0.0)
    bot = player(f"mcts:{spec}", iterations=iterations, seed=3, reuse=False, nodes=20_000)
    bot.choose(state)
    ints, floats = bot._root
    used = bot.info().nodes  # the rows past it are the tables' unused space
    return ints[:used], floats[:used], state


def test_a_new_root_is_seeded_from_the_policy_and_visits_its_favourite_first():
    ints, floats, state = _root_after("policy=30", 1)
    first, count = int(ints[0, K.I_FIRST]), int(ints[0, K.I_NCHILD])
    kids = range(first, first + count)
    adapter = adapter_for(state)
    stones, var, owner = adapter.encode(state)
    moves = [int(ints[c, K.I_MOVE]) for c in kids]
    colour = int(var[P.V_TURN])
    own = state.owner[state.game.colours[colour]] == state.mover
    placed = sum(1 for s in stones if s)
    phase = min(placed / (len(stones) - state.game.end_empty), 1.0)
    rows = move_features_reference([int(s) for s in stones], state.game.board.neighbours, colour, own, phase, moves)
    assert move_features(stones, var, owner, adapter.params, adapter.table, np.array(moves)) == pytest.approx(np.array(rows))
    chances = chances_reference(rows, list(policy_weights()))
    top = max(chances)
    for child, chance in zip(kids, chances, strict=True):
        real = floats[child, K.F_RN] - 30.0  # the one iteration's own AMAF visit, if any
        assert real in (0.0, 1.0)
        prior = 30.0 * (1 / 3 + K.PRIOR_SPREAD * (chance / top - 0.5))
        assert prior - 1e-9 <= floats[child, K.F_RW] <= prior + real + 1e-9
    visited = [c for c in kids if floats[c, K.F_N] > 0]
    assert len(visited) == 1 and chances[visited[0] - first] == pytest.approx(top)


def test_the_policy_changes_the_search_and_repeats_with_its_seed():
    plain, seeded = _root_after("policy=0", 400)[1], _root_after("policy=30", 400)[1]
    assert not np.array_equal(plain[:, K.F_N], seeded[:, K.F_N])
    assert np.array_equal(_root_after("policy=30", 400)[1], seeded)


def test_the_policy_needs_rave_and_three_players():
    assert np.array_equal(_root_after("rave=off,policy=0", 300)[1], _root_after("rave=off,policy=30", 300)[1])
    assert np.array_equal(_root_after("policy=0", 300, players=4)[1], _root_after("policy=30", 300, players=4)[1])


@pytest.mark.parametrize("value", ["-1", "20000", "x", "nan"])
def test_a_bad_policy_is_refused(value: str) -> None:
    with pytest.raises(BadOption, match="policy"):
        player(f"mcts:policy={value}")
