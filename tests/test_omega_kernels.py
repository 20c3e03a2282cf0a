"""Omega's compiled kernels against their plain-Python references, and rule invariants of random games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.boards import hexagon
from ogames.kernels import omega as kernel
from ogames.rules.omega import COLOURS, best_colour
from test_omega_helpers import random_game


def random_position(rng: random.Random, size: int, colours: int, fill: float) -> np.ndarray:
    board = hexagon(size)
    return np.array([rng.randint(1, colours) if rng.random() < fill else 0 for _ in range(len(board))], dtype=np.int8)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(4, 9), colours=st.integers(2, 4), fill=st.floats(0, 1))
def test_histogram_kernel_matches_reference(seed, size, colours, fill):
    board = hexagon(size)
    stones = random_position(random.Random(seed), size, colours, fill)
    hist = kernel.new_histogram(colours, len(board))
    kernel.size_histogram(stones, board.neighbour_table, colours, hist)
    assert np.array_equal(hist, kernel.size_histogram_reference(list(stones), board.neighbours, colours))
    assert kernel.scores_from_histogram(hist) == kernel.scores_reference(list(stones), board.neighbours, colours)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(4, 7), colours=st.integers(2, 4), fill=st.floats(0, 1))
def test_histogram_winner_is_exact_or_abstains(seed, size, colours, fill):
    board = hexagon(size)
    stones = random_position(random.Random(seed), size, colours, fill)
    hist = kernel.size_histogram_reference(list(stones), board.neighbours, colours)
    scores = dict(zip(COLOURS, kernel.scores_from_histogram(hist), strict=False))
    exact = COLOURS.index(best_colour(scores, COLOURS[:colours]))
    found = kernel.histogram_winner(hist, colours)
    assert found in (exact, -1)
    ordered = sorted(scores.values())
    if ordered[-1] != ordered[-2]:
        assert found == exact  # distinct small products are always told apart


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        ([[2, 3], [6]], -1),  # 6 = 6: a tie is left to exact integers
        ([[4], [2, 2], [3]], -1),
        ([[5], [2, 2]], 0),
        ([[], [1, 1]], -1),  # 1 = 1
        ([[2], [3], [2]], 1),
        ([[3], [2], [3, 1]], -1),
    ],
)
def test_histogram_winner_cases(sizes, expected):
    hist = kernel.new_histogram(len(sizes), 10)
    for k, groups in enumerate(sizes):
        for size in groups:
            hist[k, size] += 1
    assert kernel.histogram_winner(hist, len(sizes)) == expected


def test_histogram_is_overwritten_not_accumulated():
    board = hexagon(4)
    stones = np.ones(len(board), dtype=np.int8)
    hist = kernel.new_histogram(2, len(board)) + 7
    kernel.size_histogram(stones, board.neighbour_table, 2, hist)
    assert hist[0, len(board)] == 1 and hist.sum() == 1
    assert kernel.scores_from_histogram(hist) == [len(board), 1]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), size=st.integers(4, 8), colours=st.integers(2, 4), next_colour=st.integers(0, 3))
def test_random_fill_keeps_stones_and_follows_colour_order(seed, size, colours, next_colour):
    next_colour %= colours
    board = hexagon(size)
    before = random_position(random.Random(seed), size, colours, 0.3)
    keep = len(board) % colours**2
    after = before.copy()
    placed = kernel.random_fill(after, colours, next_colour, keep, seed)
    occupied = before != 0
    assert np.array_equal(after[occupied], before[occupied])
    assert int(np.count_nonzero(after == 0)) == min(keep, int(np.count_nonzero(before == 0)))
    added = [int(np.count_nonzero((after == k + 1) & ~occupied)) for k in range(colours)]
    assert sum(added) == placed
    expected = [0] * colours
    for i in range(placed):
        expected[(next_colour + i) % colours] += 1
    assert added == expected
    # The reference fill obeys the same contract with its own random stream.
    plain = list(before)
    assert kernel.random_fill_reference(plain, colours, next_colour, keep, random.Random(seed)) == placed
    assert [sum(1 for v, b in zip(plain, before, strict=True) if v == k + 1 and b == 0) for k in range(colours)] == expected


def test_playout_kernel_equals_fill_then_histogram_and_is_seeded():
    board = hexagon(6)
    stones = random_position(random.Random(1), 6, 3, 0.2)
    keep = len(board) % 9
    hist = kernel.new_histogram(3, len(board))
    kernel.playout_histogram(stones, board.neighbour_table, 3, 1, keep, 99, hist)
    filled = stones.copy()
    kernel.random_fill(filled, 3, 1, keep, 99)
    assert np.array_equal(hist, kernel.size_histogram_reference(list(filled), board.neighbours, 3))
    assert np.count_nonzero(stones) == np.count_nonzero(random_position(random.Random(1), 6, 3, 0.2))  # input untouched


def test_playout_reference_scores_are_products():
    board = hexagon(5)
    scores = kernel.playout_reference([0] * len(board), board.neighbours, 2, 0, 1, random.Random(3))
    assert len(scores) == 2 and all(s >= 1 for s in scores)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_state_random_playout_matches_the_kernel_with_the_same_seed(players):
    state = random_game(7, stop=10, players=players)
    rewards = state.random_playout(random.Random(5))
    seed = random.Random(5).getrandbits(31)
    filled = state.stones.copy()
    kernel.random_fill(filled, players, state.stone_index, state.game.end_empty, seed)
    colours = state.game.colours
    scores = dict(zip(colours, kernel.scores_reference(list(filled), state.board.neighbours, players), strict=True))
    winner_seat = state.owner[best_colour(scores, colours)]
    assert rewards == [1.0 if seat == winner_seat else 0.0 for seat in range(players)]


def test_random_playout_decides_exactly_when_the_kernel_abstains(monkeypatch):
    state = random_game(9, stop=12, players=3)
    expected = state.random_playout(random.Random(6))
    compiled = kernel.playout_histogram

    def abstaining(*args):
        compiled(*args)
        return -1

    monkeypatch.setattr(kernel, "playout_histogram", abstaining)
    assert state.random_playout(random.Random(6)) == expected


def test_random_playout_of_a_finished_game_is_its_rewards():
    state = random_game(8, players=3, size=4)
    assert state.random_playout(random.Random(0)) == state.rewards()


# ----- invariants of random games -----------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 4), size=st.integers(4, 5), pie=st.booleans())
def test_random_games_keep_the_invariants(seed, players, size, pie):
    rng = random.Random(seed)
    state = ogames.load("omega", players=players, size=size, pie=pie).new_state()
    cells, p2 = len(state.board), players * players
    turns = 0
    while not state.is_over:
        legal = state.legal_moves()
        labels = [m for m in legal if not m.startswith("swap")]
        assert all(state.stone_at(m) is None for m in labels)
        assert len(labels) == state.empty_count
        move = rng.choice(legal)
        state.play(move, t=0)
        if move.startswith("swap"):
            continue
        # Stone counts: equal after every full turn; within a turn the earlier colours lead by one.
        counts = [int(np.count_nonzero(state.stones == k + 1)) for k in range(players)]
        turns = counts[-1]
        assert counts == [turns + (1 if k < state.stone_index else 0) for k in range(players)]
        # The end comes exactly at a round start with fewer than p² empty cells, never earlier.
        at_round_start = state.stone_index == 0 and state.pie_seat is None and state.turn_colour == 0
        assert state.is_over == (at_round_start and state.empty_count < p2)
    assert state.empty_count == cells % p2
    expected = kernel.scores_reference(list(state.stones), state.board.neighbours, players)
    assert list(state.scores.values()) == expected
    assert state.winner == best_colour(state.scores, state.game.colours)
    assert ogames.replay(state.record()).record() == state.record()
