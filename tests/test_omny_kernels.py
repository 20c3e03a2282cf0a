"""Omny's compiled kernels against their plain-Python references and against the game itself."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from conformance.cases import variants_of
from ogames.kernels import omny as kernel
from ogames.rules.omny import Omny, OmnyState
from ogames.rules.protocol import State

CONFIGS = [
    {"variant": "y", "size": 5},
    {"variant": "y", "size": 8},
    {"variant": "sunder", "size": 3},
    {"variant": "sunder", "size": 4},
    {"variant": "gyre", "size": 4},
    {"variant": "free-y", "sides": (2, 3)},
    {"variant": "free-y", "sides": (3, 4)},
    {"variant": "custom", "shape": "triangle", "size": 4, "stars": "perimeter+centre"},
    {"variant": "custom", "shape": "rhombus", "size": 4, "stars": "corners"},
    {"variant": "custom", "cells": "a1 b1 c1 a2 b2 c2 d2 b3 c3", "stars": "a1 c1 d2 b3"},
]
GAMES = [ogames.load("omny", **options) for options in CONFIGS]


def test_the_boards_include_every_omny_variant() -> None:
    assert {options["variant"] for options in CONFIGS} == set(variants_of("omny"))


game_index = st.integers(0, len(GAMES) - 1)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Omny, np.ndarray, int, int]:
    """A game, any stones (not necessarily reachable), an occupied cell and a bound."""
    game = GAMES[draw(game_index)]
    n = len(game.board)
    stones = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), dtype=np.int8)
    cell = draw(st.integers(0, n - 1))
    if stones[cell] == 0:
        stones[cell] = draw(st.integers(1, 2))
    bound = draw(st.integers(0, 2 * game.total_stars))
    return game, stones, cell, bound


@settings(max_examples=300, deadline=None)
@given(positions())
def test_win_test_kernel_matches_reference(position: tuple[Omny, np.ndarray, int, int]) -> None:
    game, stones, cell, bound = position
    group = np.empty(len(game.board), dtype=np.int32)
    wins, count = kernel.group_wins(stones, game.board.neighbour_table, game.star_mask, game.total_stars, cell, bound, group)
    expected, members = kernel.group_wins_reference(stones.tolist(), game.board.neighbours, game.star_mask, cell, bound)
    assert wins == expected
    assert set(group[:count].tolist()) == members


def test_win_test_kernel_on_many_seeded_positions() -> None:
    rng = np.random.default_rng(7)
    group_buffer: dict[int, np.ndarray] = {}
    for trial in range(2000):
        game = GAMES[trial % len(GAMES)]
        n = len(game.board)
        stones = rng.integers(0, 3, n).astype(np.int8)
        cell = int(rng.integers(n))
        stones[cell] = 1 + trial % 2
        bound = int(rng.integers(0, 2 * game.total_stars + 1))
        group = group_buffer.setdefault(n, np.empty(n, dtype=np.int32))
        wins, count = kernel.group_wins(stones, game.board.neighbour_table, game.star_mask, game.total_stars, cell, bound, group)
        expected, members = kernel.group_wins_reference(stones.tolist(), game.board.neighbours, game.star_mask, cell, bound)
        assert (wins, set(group[:count].tolist())) == (expected, members)


def play_in_order(game: Omny, order: list[int]) -> OmnyState:
    """Play the cells in order through the rules until the game ends."""
    state = game.new_state()
    for cell in order:
        if state.is_over:
            break
        state.play(game.board.labels[cell])
    return state


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_playout_kernel_matches_game_and_reference(data: st.DataObject) -> None:
    game = GAMES[data.draw(game_index)]
    total = game.total_stars
    twice_komi = data.draw(st.integers(0, total))
    game = ogames.load("omny", **{**game.options, "komi": twice_komi / 2})
    order = data.draw(st.permutations(range(len(game.board))))
    state = play_in_order(game, order)
    assert state.is_over, "a full board always has a winner"
    stones = np.zeros(len(game.board), dtype=np.int8)
    black, white = total - twice_komi, total + twice_komi
    array = np.array(order, dtype=np.int32)
    winner = kernel.fill_winner(stones, game.board.neighbour_table, game.star_mask, total, 0, black, white, array)
    assert game.colours[winner] == state.winner
    assert kernel.fill_winner_reference(stones.tolist(), game.board.neighbours, game.star_mask, 0, black, white, order) == winner


def test_playout_kernel_from_a_position_skips_occupied_cells() -> None:
    game = GAMES[0]
    state = game.new_state()
    for move in ["c2", "a1", "b2"]:
        state.play(move)
    order = list(range(len(game.board)))
    empty_order = [c for c in order if state.stones[c] == 0]
    winner = kernel.fill_winner(
        state.stones, game.board.neighbour_table, game.star_mask, 3, 1, 3, 3, np.array(order, dtype=np.int32)
    )
    for cell in empty_order:
        if state.is_over:
            break
        state.play(game.board.labels[cell])
    assert game.colours[winner] == state.winner


def test_random_playout_uses_the_kernel_with_the_rngs_seed() -> None:
    game = ogames.load("omny", variant="sunder", size=3, komi=1.5)
    state = game.new_state(["ann", "bob"])
    state.play("c3")
    for seed in range(20):
        rewards = state.random_playout(random.Random(seed))
        kernel_seed = random.Random(seed).getrandbits(62)
        winner = kernel.random_playout(
            state.stones, game.board.neighbour_table, game.star_mask, 19, state.turn, 19 - 3, 19 + 3, kernel_seed
        )
        assert rewards == [1.0 if seat == winner else 0.0 for seat in range(2)]
    assert state.ply == 1 and state.result is None  # the state itself is untouched


def test_random_playout_rewards_follow_the_seats_after_a_swap() -> None:
    game = ogames.load("omny", variant="sunder", size=3, pie=True)
    state = game.new_state(["ann", "bob"])
    state.play("c3")
    state.play("swap")  # ann owns White now
    for seed in range(20):
        rewards = state.random_playout(random.Random(seed))
        winner = kernel.random_playout(
            state.stones, game.board.neighbour_table, game.star_mask, 19, 1, 19, 19, random.Random(seed).getrandbits(62)
        )
        winning_seat = state.owner[game.colours[winner]]
        assert rewards == [1.0 if seat == winning_seat else 0.0 for seat in range(2)]


def test_random_playout_after_the_game_ended_gives_the_result() -> None:
    state = ogames.load("omny", variant="y", size=5, komi=0.5).new_state()
    state.play("c2")
    state.play("a1")
    assert state.random_playout(random.Random(1)) == [0.0, 1.0]


@pytest.mark.parametrize(
    ("options", "moves"),
    [
        ({"variant": "y", "size": 4}, []),
        ({"variant": "y", "size": 4, "pie": True}, ["b2"]),  # White may swap: one choice among the moves
        ({"variant": "y", "size": 4, "komi_choice": True}, []),  # komi stage: the generic moves
        ({"variant": "y", "size": 4, "komi_choice": True}, ["komi=0"]),  # White may swap
        ({"variant": "y", "size": 4, "komi_choice": True, "pie": True}, ["komi=1"]),
    ],
)
def test_kernel_playouts_follow_the_generic_playout_distribution(options: dict, moves: list[str]) -> None:
    game = ogames.load("omny", **options)
    state = game.new_state()
    for move in moves:
        state.play(move)
    runs = 400
    rng_fast, rng_slow = random.Random(11), random.Random(12)
    fast = sum(state.random_playout(rng_fast)[0] for _ in range(4 * runs)) / (4 * runs)
    slow = sum(State.random_playout(state, rng_slow)[0] for _ in range(runs)) / runs
    # Seat 0's win rate: both estimate the same number; 0.1 is about four standard errors.
    assert abs(fast - slow) < 0.1, (fast, slow)
    assert state.ply == len(moves)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), komi=st.sampled_from([0, 1, 2]), size=st.integers(2, 5), pre=st.integers(0, 6))
def test_one_fill_and_one_judgement_give_the_stepwise_winner_when_no_race_is_possible(seed, komi, size, pre):
    # sunder (every cell a star) has S odd; whole komi keeps S + 2k odd, so no race is possible.
    from ogames.kernels.omny import fill_winner

    game = ogames.load("omny", variant="sunder", size=size, komi=min(komi, size))
    rng = np.random.default_rng(seed)
    state = game.new_state()
    for cell in rng.permutation(len(game.board))[:pre]:
        if state.is_over:
            break
        state.play(game.board.labels[int(cell)], t=0.0)
    if state.is_over:
        return
    order = np.flatnonzero(state.stones == 0).astype(np.int32)
    rng.shuffle(order)
    bounds = (state.bound(0), state.bound(1))
    args = (state.stones, game.board.neighbour_table, game.star_mask, game.total_stars, state.turn, *bounds)
    assert state.bound(1) % 2 == 1
    assert fill_winner(*args, order, True) == fill_winner(*args, order)
