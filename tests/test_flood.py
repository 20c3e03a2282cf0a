"""The shared compiled group fills against their plain references."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.boards.hexes import hexagon, triangle
from ogames.kernels import reference
from ogames.kernels.flood import components, fill_group_sides, fill_group_stamped, group_of

BOARDS = [triangle(6), hexagon(4)]


def _partition(labels) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for cell, label in enumerate(labels):
        if label >= 0:
            groups.setdefault(int(label), set()).add(cell)
    return {frozenset(g) for g in groups.values()}


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(range(len(BOARDS))), seed=st.integers(0, 10**6), density=st.floats(0.0, 1.0))
def test_components_match_the_reference(which, seed, density):
    board = BOARDS[which]
    blocked = np.random.default_rng(seed).random(len(board)) < density
    labels = np.empty(len(board), dtype=np.int32)
    count = components(blocked, board.neighbour_table, labels)
    expected = reference.components(blocked.tolist(), board.neighbours)
    assert count == len(expected)
    assert _partition(labels) == {frozenset(region) for region in expected}
    assert all(labels[c] == -1 for c in np.flatnonzero(blocked))


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(range(len(BOARDS))), seed=st.integers(0, 10**6))
def test_group_of_is_the_same_coloured_connected_set(which, seed):
    board = BOARDS[which]
    stones = np.random.default_rng(seed).integers(0, 3, len(board)).astype(np.int8)
    start = int(seed % len(board))
    out = np.empty(len(board), dtype=np.int32)
    got = set(out[: group_of(stones, board.neighbour_table, start, out)].tolist())
    assert got == set(reference.group_of(stones.tolist(), board.neighbours, start))


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(range(len(BOARDS))), seed=st.integers(0, 10**6), stamp=st.integers(1, 10**9))
def test_stamped_fill_is_the_group_and_marks_only_it(which, seed, stamp):
    """The stamped fill on a reused mark array (older stamps left in it) finds the
    same group as the reference, stamps exactly its cells and leaves every other mark alone."""
    board = BOARDS[which]
    rng = np.random.default_rng(seed)
    n = len(board)
    stones = rng.integers(0, 3, n).astype(np.int8)
    start = int(seed % n)
    mark = rng.integers(0, stamp, n).astype(np.int64)  # older stamps only: none equals `stamp`
    before = mark.copy()
    queue = np.full(n, -1, dtype=np.int32)
    size = fill_group_stamped(stones, board.neighbour_table, start, mark, stamp, queue)
    expected = set(reference.group_of(stones.tolist(), board.neighbours, start))
    assert size == len(expected) and set(queue[:size].tolist()) == expected
    assert set(np.flatnonzero(mark == stamp).tolist()) == expected
    outside = [c for c in range(n) if c not in expected]
    assert (mark[outside] == before[outside]).all()


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(range(len(BOARDS))), seed=st.integers(0, 10**6), goal=st.integers(0, 15))
def test_sides_fill_ors_the_bits_of_the_group(which, seed, goal):
    """With bits, the fill returns their OR over the reference group (goal 0), or, stopping early
    for a goal, a part of it that covers the goal exactly when the whole OR does."""
    board = BOARDS[which]
    rng = np.random.default_rng(seed)
    n = len(board)
    stones = rng.integers(0, 3, n).astype(np.int8)
    bits = (rng.integers(0, 16, n) * (rng.random(n) < 0.2)).astype(np.int64)
    start = int(seed % n)
    expected = 0
    for cell in reference.group_of(stones.tolist(), board.neighbours, start):
        expected |= int(bits[cell])
    queue, mark = np.empty(n, dtype=np.int32), np.zeros(n, dtype=np.int64)
    assert fill_group_sides(stones, board.neighbour_table, start, mark, 1, queue, bits, 0) == expected
    got = fill_group_sides(stones, board.neighbour_table, start, mark, 2, queue, bits, goal)
    assert got & ~expected == 0
    assert (got & goal == goal) == (expected & goal == goal)
