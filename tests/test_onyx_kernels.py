"""Onyx kernels against their plain references, the playout kernel against the Python game, and
rule invariants over random games (hypothesis)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ogames
from ogames.boards.onyx import onyx_lattice
from ogames.kernels import onyx as kernels
from ogames.rules.onyx import OnyxState

L = onyx_lattice()
B = L.board
SIDES = {1: (set(B.cells("west")), set(B.cells("east"))), 2: (set(B.cells("south")), set(B.cells("north")))}


def random_stones(rng: random.Random, fill: float) -> np.ndarray:
    return np.array([rng.choice((1, 2)) if rng.random() < fill else 0 for _ in range(len(B))], dtype=np.int8)


def expected_captures(stones: np.ndarray, cell: int) -> set[int]:
    """The capture rule read straight from RULES.md over the squares' corner lists (not corner_of)."""
    mine = stones[cell]
    found: set[int] = set()
    for mid, corners in L.square_corners.items():
        if cell not in corners:
            continue
        k = corners.index(cell)
        opposite, others = corners[(k + 2) % 4], (corners[(k + 1) % 4], corners[(k + 3) % 4])
        if stones[mid] == 0 and stones[opposite] == mine and all(stones[o] == 3 - mine for o in others):
            found |= set(others)
    return found


# ----- kernels against references ----------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.floats(0.2, 0.9))
def test_connects_matches_reference(rng: random.Random, fill: float) -> None:
    stones = random_stones(rng, fill)
    for start in rng.sample(range(len(B)), 20):
        if stones[start] == 0:
            continue
        value = int(stones[start])
        fast = kernels.connects(stones, B.neighbour_table, L.side_bits, kernels.GOALS[value], start)
        assert fast == kernels.connects_reference(stones.tolist(), B.neighbours, SIDES[value], start)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.floats(0.2, 0.9))
def test_connects_into_matches_reference(rng: random.Random, fill: float) -> None:
    """The stamped test of playouts and the MCTS kernel, on one reused mark array, against the reference."""
    stones = random_stones(rng, fill)
    queue, mark = np.empty(len(B), dtype=np.int32), np.zeros(len(B), dtype=np.int64)
    for stamp, start in enumerate(rng.sample(range(len(B)), 20), start=1):
        if stones[start] == 0:
            continue
        value = int(stones[start])
        fast = kernels.connects_into(stones, B.neighbour_table, L.side_bits, kernels.GOALS[value], start, queue, mark, stamp)
        assert fast == kernels.connects_reference(stones.tolist(), B.neighbours, SIDES[value], start)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.floats(0.3, 1.0))
def test_find_captures_matches_reference_and_rule(rng: random.Random, fill: float) -> None:
    stones = random_stones(rng, fill)
    out = np.empty(4, dtype=np.int32)
    for cell in range(144):  # lattice points; the placed stone must be on the cell
        stones[cell] = rng.choice((1, 2))
        count = kernels.find_captures(stones, L.square_table, cell, out)
        fast = sorted(out[:count].tolist())
        assert fast == sorted(kernels.find_captures_reference(stones.tolist(), L.corner_of, cell))
        assert set(fast) == expected_captures(stones, cell)
        assert count in (0, 2, 4)


def test_connects_examples() -> None:
    stones = np.zeros(len(B), dtype=np.int8)
    row = [B.index(f"{c}2") for c in "abcdefghijkl"]
    stones[row] = 1
    assert kernels.connects(stones, B.neighbour_table, L.side_bits, kernels.GOALS[1], row[5])
    assert not kernels.connects(stones, B.neighbour_table, L.side_bits, kernels.GOALS[2], row[5])
    stones[row[6]] = 0
    assert not kernels.connects(stones, B.neighbour_table, L.side_bits, kernels.GOALS[1], row[0])


# ----- the playout kernel against the Python game ------------------------------------------------
def _state_after(moves: list[str], pie: bool = False) -> OnyxState:
    state = ogames.load("onyx", pie=pie).new_state()
    for move in moves:
        state.play(move, t=0.0)
    return state


@pytest.mark.parametrize("opening", [[], ["b1", "c1", "d10", "b2", "c2"], ["f6", "f7"]])
@pytest.mark.parametrize("seed", range(6))
def test_playout_kernel_matches_python_game(opening: list[str], seed: int) -> None:
    start = _state_after(opening)
    stones = start.stones.copy()
    moves = np.empty(4 * len(B), dtype=np.int32)
    value, played = kernels.playout(
        stones, start.turn, B.neighbour_table, L.square_table, L.midpoint_corners, L.side_bits, seed, moves
    )
    assert value in (1, 2) and 0 < played <= len(moves)
    game = start.clone()
    for cell in moves[:played]:
        label = B.labels[cell]
        assert label in game.legal_moves()  # the kernel only plays legal moves
        game.play(label, t=0.0)
    assert game.winner == ("black", "white")[value - 1]
    assert np.array_equal(game.stones, stones)  # same captures, same final board
    assert game.history[-1]["by"] == game.winner  # the game ended on the winner's move
    # The state's wrapper reports the same game.
    assert start.kernel_playout(seed) == (game.winner, [B.labels[c] for c in moves[:played]])


def test_playouts_see_captures() -> None:
    total = 0
    state = _state_after([])
    for seed in range(20):
        _, moves = state.kernel_playout(seed)
        replayed = state.clone()
        for move in moves:
            replayed.play(move, t=0.0)
        total += sum(replayed.captured.values())
    assert total > 0  # random games capture, so the comparison above exercises the capture path


class _FixedRng(random.Random):
    """randrange always gives 0 (so a pie swap is taken when offered); seeds are fixed."""

    def randrange(self, *args, **kwargs):  # type: ignore[override]
        return 0


def test_random_playout_rewards_follow_owners(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state_after(["f6"], pie=True)
    monkeypatch.setattr(OnyxState, "kernel_playout", lambda self, seed: ("black", []))
    assert state.random_playout(_FixedRng()) == [0.0, 1.0]  # the swap makes seat 1 Black
    state.play("swap")
    assert state.random_playout(random.Random(3)) == [0.0, 1.0]  # seat 1 owns black after the swap
    monkeypatch.setattr(OnyxState, "kernel_playout", lambda self, seed: ("white", []))
    assert state.random_playout(random.Random(3)) == [1.0, 0.0]


def test_random_playout_from_finished_and_live_states() -> None:
    state = _state_after([])
    rng = random.Random(7)
    results = [state.random_playout(rng) for _ in range(40)]
    assert all(r in ([1.0, 0.0], [0.0, 1.0]) for r in results)
    assert {tuple(r) for r in results} == {(1.0, 0.0), (0.0, 1.0)}  # both colours win sometimes
    assert state.ply == 0 and state.result is None  # the state itself is untouched
    state.resign()
    assert state.random_playout(rng) == [0.0, 1.0]


# ----- rule invariants over random games -------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.booleans())
def test_random_games_keep_the_invariants(rng: random.Random, pie: bool) -> None:
    state = ogames.load("onyx", pie=pie).new_state()
    placed = {"black": 4, "white": 4}
    while not state.is_over and state.ply < 400:
        legal = state.legal_moves()
        empty = {B.labels[c] for c in range(len(B)) if state.stones[c] == 0}
        open_mids = {B.labels[m] for m, corners in L.square_corners.items() if all(state.stones[c] == 0 for c in corners)}
        expected = (empty - {B.labels[m] for m in L.square_corners}) | (open_mids & empty)
        assert set(legal) - {"swap"} == expected  # no legal move on a stone; midpoints per the rule
        assert ("swap" in legal) == (pie and state.ply == 1)
        move = rng.choice(legal)
        mover = state.to_move
        before = state.stones.copy()
        state.play(move, t=0.0)
        if move == "swap":
            continue
        cell = B.index(move)
        placed[mover] += 1
        after_place = before.copy()
        after_place[cell] = state.game.colours.index(mover) + 1
        captured = {B.index(x) for x in state.history[-1]["captures"]}
        assert captured == expected_captures(after_place, cell)
        assert {B.labels[c] for c in captured} == set(state.last_captures)
        for colour, value in (("black", 1), ("white", 2)):
            assert int((state.stones == value).sum()) == placed[colour] - state.captured[colour]
        won = kernels.connects_reference(state.stones.tolist(), B.neighbours, SIDES[after_place[cell]], cell)
        assert state.is_over == won
        if won:
            assert state.winner == mover
    assert state.is_over
    again = ogames.replay(state.record())
    assert np.array_equal(again.stones, state.stones) and again.captured == state.captured and again.winner == state.winner
