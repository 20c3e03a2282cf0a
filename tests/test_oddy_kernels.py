"""Odd-Y kernels against their plain-Python references and against the rules played move by move;
the no-draw theorem on random full boards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.kernels import oddy as k

BOARDS = [
    {"sides": 3, "size": 6},
    {"sides": 3, "size": 4, "board": "polar"},
    {"sides": 5, "size": 4},
    {"sides": 7, "size": 4},
    {"sides": 9, "size": 3},
]
GAMES = {i: ogames.load("oddy", pie=False, **options) for i, options in enumerate(BOARDS)}
seeds = st.integers(0, 2**32 - 1)
boards = st.sampled_from(sorted(GAMES))


def random_position(game, rng: random.Random, full: bool) -> np.ndarray:
    """Stones at random: every cell black or white if `full`, else some cells left empty."""
    values = (1, 2) if full else (0, 1, 2)
    return np.array([rng.choice(values) for _ in range(len(game.board))], dtype=np.int8)


@pytest.mark.parametrize("m", [3, 5, 7, 9, 11, 13])
def test_win_test_matches_reference_on_every_mask(m):
    runs = k.run_masks(m)
    for mask in range(1 << m):
        assert k.wins(np.int64(mask), runs) == k.wins_reference(mask, m)


def test_win_test_matches_reference_on_25_sides():
    runs, rng = k.run_masks(25), random.Random(5)
    for _ in range(3000):
        mask = rng.getrandbits(25) & rng.getrandbits(25) & rng.getrandbits(25)  # sparse masks: both answers occur
        assert k.wins(np.int64(mask), runs) == k.wins_reference(mask, 25)
    assert k.wins(np.int64((1 << 25) - 1), runs) and not k.wins(np.int64((1 << 13) - 1), runs)


def test_run_masks_and_cell_sides():
    assert k.run_masks(5).tolist() == [0b00111, 0b01110, 0b11100, 0b11001, 0b10011]
    game = GAMES[2]
    corners = {game.board.index(f"{chr(97 + s)}3-0") for s in range(5)}
    for cell in range(len(game.board)):
        bits = bin(int(game.cell_sides[cell])).count("1")
        assert bits == (2 if cell in corners else 1 if cell in game.board.cells("perimeter") else 0)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=boards)
def test_group_sides_matches_reference(seed, which):
    game, rng = GAMES[which], random.Random(seed)
    stones = random_position(game, rng, full=False)
    out = np.empty(len(stones), dtype=np.int32)
    for start in rng.sample(range(len(stones)), 8):
        if stones[start] == 0:
            continue
        count, touched = k.group_sides(stones, game.table, game.cell_sides, start, out)
        group, expected = k.group_sides_reference(stones.tolist(), game.board.neighbours, game.cell_sides.tolist(), start)
        assert set(out[:count].tolist()) == group and int(touched) == expected


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=boards, full=st.booleans())
def test_winning_group_counts_match_reference(seed, which, full):
    game = GAMES[which]
    stones = random_position(game, random.Random(seed), full)
    sides = game.cell_sides.tolist()
    expected = k.winning_group_counts_reference(stones.tolist(), game.board.neighbours, sides, game.options["sides"])
    assert k.winning_group_counts(stones, game.table, game.cell_sides, game.runs).tolist() == expected


@settings(max_examples=60, deadline=None)
@given(seed=seeds, which=boards)
def test_a_full_board_has_exactly_one_winning_group(seed, which):
    game = GAMES[which]
    stones = random_position(game, random.Random(seed), full=True)
    sides = game.cell_sides.tolist()
    counts = k.winning_group_counts_reference(stones.tolist(), game.board.neighbours, sides, game.options["sides"])
    assert sum(counts) == 1


@pytest.mark.parametrize("options", [{"sides": 11, "size": 5}, {"sides": 25, "size": 3}, {"sides": 3, "size": 15}])
def test_large_full_boards_have_exactly_one_winning_group(options):
    game, rng = ogames.load("oddy", **options), random.Random(11)
    for _ in range(30):
        stones = random_position(game, rng, full=True)
        assert sum(k.winning_group_counts(stones, game.table, game.cell_sides, game.runs)) == 1


def started(game, rng: random.Random) -> ogames.State:
    """A game with a few random moves made and still going."""
    state = game.new_state()
    for _ in range(rng.randrange(len(game.board) // 3)):
        state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            state.undo()
            break
    return state


def play_order(state: ogames.State, order: np.ndarray) -> ogames.State:
    """Play the cells of `order` move by move through the rules until the game ends."""
    for cell in order:
        if state.is_over:
            break
        state.play(state.board.labels[cell])
    return state


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=boards)
def test_fill_playout_winner_is_the_move_by_move_winner(seed, which):
    game, rng = GAMES[which], random.Random(seed)
    state = started(game, rng)
    before = state.stones.copy()
    order = np.empty(len(game.board), dtype=np.int32)
    value = k.playout_fill(state.stones, game.table, game.cell_sides, game.runs, state.turn + 1, seed, order)
    assert np.array_equal(state.stones, before)  # the kernel works on a copy
    assert play_order(state, order).winner == game.colours[value - 1]


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=boards)
def test_stepwise_playout_ends_where_the_rules_end(seed, which):
    game, rng = GAMES[which], random.Random(seed)
    state = started(game, rng)
    ply, start, first = state.ply, state.stones.copy(), state.turn + 1
    order = np.empty(len(game.board), dtype=np.int32)
    value, placed = k.playout_stepwise(start, game.table, game.cell_sides, game.runs, first, seed, order)
    play_order(state, order)
    assert (state.winner, state.ply - ply) == (game.colours[value - 1], placed)
    # With the same seed the fill kernel shuffles the same way and names the same winner.
    again = np.empty_like(order)
    assert k.playout_fill(start, game.table, game.cell_sides, game.runs, first, seed, again) == value
    empties = int(np.count_nonzero(start == 0))
    assert np.array_equal(again[:empties], order[:empties])


@settings(max_examples=30, deadline=None)
@given(seed=seeds, which=boards)
def test_stepwise_reference_ends_where_the_rules_end(seed, which):
    game, rng = GAMES[which], random.Random(seed)
    state = started(game, rng)
    ply = state.ply
    value, placed, order = k.playout_stepwise_reference(
        state.stones.tolist(), game.board.neighbours, game.cell_sides.tolist(), game.options["sides"], state.turn + 1, rng
    )
    play_order(state, np.array(order))
    assert (state.winner, state.ply - ply) == (game.colours[value - 1], placed)


# ----- the state's random_playout ------------------------------------------------------------


def test_random_playout_honours_the_swap():
    # On the triangle of side 2 Black's first stone always wins: every pair of cells touches all sides.
    state = ogames.load("oddy", size=2).new_state()
    state.play("a1")
    state.play("swap")
    rng = random.Random(3)
    assert all(state.random_playout(rng) == [0.0, 1.0] for _ in range(50))


def test_random_playout_counts_swap_among_the_legal_moves():
    state = ogames.load("oddy", size=2).new_state()
    state.play("a1")  # now: swap, a2, b1 — seat 1 wins only by swapping (one chance in three)
    rng = random.Random(4)
    outcomes = [state.random_playout(rng) for _ in range(600)]
    share = sum(o == [0.0, 1.0] for o in outcomes) / len(outcomes)
    assert 0.27 < share < 0.40 and state.ply == 1 and state.seats["black"] == "player 1"


def test_random_playout_agrees_with_the_generic_playout_in_distribution():
    game = ogames.load("oddy", size=4)
    state = game.new_state()
    state.play("b2")
    rng = random.Random(8)
    fast = sum(state.random_playout(rng)[0] for _ in range(1500)) / 1500
    slow = sum(ogames.State.random_playout(state, rng)[0] for _ in range(1500)) / 1500
    assert abs(fast - slow) < 0.07


def test_random_playout_of_a_finished_game():
    state = ogames.load("oddy", size=2, pie=False).new_state()
    for move in ["a1", "b1", "a2"]:
        state.play(move)
    assert state.is_over and state.random_playout(random.Random(1)) == [1.0, 0.0]


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=boards)
def test_group_wins_into_matches_reference(seed, which):
    """The stamped win test of the players' kernels, on one reused mark array, against the reference."""
    game, rng = GAMES[which], random.Random(seed)
    stones = random_position(game, rng, full=rng.random() < 0.5)
    n, m = len(stones), game.options["sides"]
    queue, mark = np.empty(n, dtype=np.int32), np.zeros(n, dtype=np.int64)
    sides = game.cell_sides.tolist()
    for stamp, start in enumerate(rng.sample(range(n), 10), start=1):
        if stones[start] == 0:
            continue
        fast = k.group_wins_into(stones, game.table, game.cell_sides, game.runs, start, queue, mark, stamp)
        assert fast == k.group_wins_reference(stones.tolist(), game.board.neighbours, sides, m, start)
