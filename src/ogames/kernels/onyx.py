"""Onyx hot paths compiled with numba, each beside its plain-Python reference (`*_reference`).

Arrays come from `ogames.boards.onyx.onyx_lattice()`: `stones` holds 0 empty, 1 black, 2 white;
`table` is the board's padded neighbour table; `square_table[cell]` lists up to two squares the
cell is a corner of as [midpoint, opposite, other, other] (−1 padded); `midpoint_corners[cell]`
holds a midpoint's four corners (−1 for lattice points); `side_bits` marks West 1, East 2,
South 4, North 8. Black (1) connects West–East, White (2) South–North.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from ogames.kernels import leaf, reference
from ogames.kernels.flood import fill_group_sides
from ogames.kernels.layout import P_N, V_TURN, Array, BoardArrays
from ogames.kernels.stones import pie_open, playout_pie, with_swap

# The side bits each colour must touch: index by stone value (1 black, 2 white).
GOALS = np.array([0, 1 | 2, 4 | 8], dtype=np.int8)


# ----- connection: does the group of the stone just placed touch both of its colour's sides? ----
@leaf
def connects_into(
    stones: np.ndarray,
    table: np.ndarray,
    side_bits: np.ndarray,
    goal: int,
    start: int,
    queue: np.ndarray,
    mark: np.ndarray,
    stamp,
) -> bool:
    """`connects` without allocation, for playouts and the MCTS kernel: the group is
    `flood.fill_group_sides` (stamp `stamp` into `mark`, cells into `queue`), stopped as soon as
    it touches both sides."""
    touched = fill_group_sides(stones, table, start, mark, stamp, queue, side_bits, goal)
    return touched & goal == goal


@njit(cache=True)
def connects(stones: np.ndarray, table: np.ndarray, side_bits: np.ndarray, goal: int, start: int) -> bool:
    """Whether start's group (same value, connected) touches every side bit in `goal`."""
    n = stones.shape[0]
    return connects_into(stones, table, side_bits, goal, start, np.empty(n, dtype=np.int32), np.zeros(n, dtype=np.bool_), True)


def connects_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], sides: tuple[set[int], set[int]], start: int
) -> bool:
    """Plain reference: whether start's group holds a cell of both given sides."""
    group = reference.group_of(stones, neighbours, start)
    return bool(group & sides[0]) and bool(group & sides[1])


# ----- captures ------------------------------------------------------------------------------
@leaf
def find_captures(stones: np.ndarray, square_table: np.ndarray, cell: int, out: np.ndarray) -> int:
    """Write the enemy stones a stone on `cell` captures into `out` (room for 4); return how many.

    A capture square: the midpoint is empty, the opposite corner holds the mover's stone and the
    two other corners hold enemy stones. `stones[cell]` must already hold the mover's stone.
    """
    mine = stones[cell]
    enemy = 3 - mine
    count = 0
    for k in range(square_table.shape[1]):
        mid = square_table[cell, k, 0]
        if mid < 0:
            break
        a, b = square_table[cell, k, 2], square_table[cell, k, 3]
        if stones[mid] == 0 and stones[square_table[cell, k, 1]] == mine and stones[a] == enemy and stones[b] == enemy:
            out[count] = a
            out[count + 1] = b
            count += 2
    return count


def find_captures_reference(stones: Sequence[int], corner_of: Sequence[Sequence], cell: int) -> list[int]:
    """Plain reference of find_captures, over `OnyxLattice.corner_of`."""
    mine = stones[cell]
    enemy = 3 - mine
    found: list[int] = []
    for square in corner_of[cell]:
        a, b = square.others
        if stones[square.midpoint] == 0 and stones[square.opposite] == mine and stones[a] == enemy and stones[b] == enemy:
            found += [a, b]
    return found


# ----- whole random games --------------------------------------------------------------------
@leaf  # in every playout step
def midpoint_open(stones: np.ndarray, midpoint_corners: np.ndarray, cell: int) -> bool:
    """Whether a stone may go on an empty cell: lattice points always, midpoints only with four empty corners."""
    if midpoint_corners[cell, 0] < 0:
        return True
    for k in range(4):
        if stones[midpoint_corners[cell, k]] != 0:
            return False
    return True


# The empty cells of a playout as a bag with O(1) removal: empties[0:count], where[cell] the cell's
# position in it or −1. Captures put cells back, so the bag, not a shuffled order, serves Onyx
# (here and in the compiled MCTS's playouts, `step_playout` below).


@leaf
def empty_bag(stones: np.ndarray, empties: np.ndarray, where: np.ndarray) -> int:
    """Fill the bag with the empty cells of `stones`; return how many."""
    count = 0
    for c in range(stones.shape[0]):
        where[c] = -1
        if stones[c] == 0:
            empties[count] = c
            where[c] = count
            count += 1
    return count


@leaf  # in every playout step
def bag_remove(empties: np.ndarray, where: np.ndarray, count: int, cell: int) -> int:
    """Take `cell` out of the bag (the last entry fills its place); return the new count."""
    last = empties[count - 1]
    empties[where[cell]] = last
    where[last] = where[cell]
    where[cell] = -1
    return count - 1


@leaf
def bag_add(empties: np.ndarray, where: np.ndarray, count: int, cell: int) -> int:
    """Put `cell` (emptied by a capture) back into the bag; return the new count."""
    empties[count] = cell
    where[cell] = count
    return count + 1


@leaf  # in every playout step
def random_open_cell(stones: np.ndarray, midpoint_corners: np.ndarray, empties: np.ndarray, count: int, tries: int) -> int:
    """A uniformly random legal cell of the bag: uniform over the empty cells, rejecting closed
    midpoints (so uniform over the legal moves); −1 after `tries` rejections. An empty lattice
    point always exists while nobody has connected, so with enough tries this finds one."""
    for _ in range(tries):
        pick = empties[np.random.randint(count)]
        if midpoint_open(stones, midpoint_corners, pick):
            return pick
    return -1


@njit(cache=True)
def playout(
    stones: np.ndarray,
    turn: int,
    table: np.ndarray,
    square_table: np.ndarray,
    midpoint_corners: np.ndarray,
    side_bits: np.ndarray,
    seed: int,
    moves: np.ndarray,
) -> tuple[int, int]:
    """Play uniformly random legal moves on `stones` (changed in place) from colour `turn` (0 black,
    1 white) until someone connects; write the cells played into `moves` (as many as fit); return (winner stone
    value, moves played), winner 0 if no legal move is left (which the rules never allow)."""
    np.random.seed(seed)
    n = stones.shape[0]
    empties = np.empty(n, dtype=np.int32)
    where = np.empty(n, dtype=np.int32)
    count = empty_bag(stones, empties, where)
    captured = np.empty(4, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    mark = np.zeros(n, dtype=np.int64)  # connection tests: one fresh stamp per move, no clearing
    played = 0
    while count > 0:
        cell = random_open_cell(stones, midpoint_corners, empties, count, 64 * n)
        if cell < 0:
            return 0, played
        value = turn + 1
        stones[cell] = value
        count = bag_remove(empties, where, count, cell)
        if played < moves.shape[0]:  # a game longer than the buffer still plays on, unrecorded
            moves[played] = cell
        played += 1
        taken = find_captures(stones, square_table, cell, captured)
        for k in range(taken):
            stones[captured[k]] = 0
            count = bag_add(empties, where, count, captured[k])
        if connects_into(stones, table, side_bits, GOALS[value], cell, queue, mark, played):
            return value, played
        turn = 1 - turn
    return 0, played


# ----- the compiled search's pieces (`kernels/stones.py` has the turn; `kernels/layout.py` the arrays) --


@leaf
def step_moves(stones: Array, var: Array, params: Array, midpoint_corners: Array, out: Array) -> int:
    """Onyx's legal move codes into `out`: the empty points open to play, then the swap; how many."""
    count = 0
    for c in range(params[P_N]):
        if stones[c] == 0 and midpoint_open(stones, midpoint_corners, c):
            out[count] = c
            count += 1
    return with_swap(var, params, out, count)


@leaf
def step_captures(stones: Array, arrays: BoardArrays, cell: int, work: Array) -> None:
    """Take off the stones that a stone on `cell` captures."""
    captured = work[2]
    for k in range(find_captures(stones, arrays.square_table, cell, captured)):
        stones[captured[k]] = 0


@leaf
def step_wins(
    stones: Array, var: Array, params: Array, arrays: BoardArrays, cell: int, work: Array, mark: Array, stamp: int
) -> bool:
    """Whether the group of the stone on `cell` connects its colour's two sides."""
    return connects_into(stones, arrays.table, arrays.side_bits, GOALS[stones[cell]], cell, work[1], mark, stamp)


@njit(cache=True)
def step_playout(
    stones: Array,
    var: Array,
    owner: Array,
    params: Array,
    arrays: BoardArrays,
    midpoint_corners: Array,
    work: Array,
    mark: Array,
    stamp: int,
    moves_out: Array,
) -> tuple[int, int, int]:
    """Onyx's playout, move by move: the pie drawn like any move, then random open points, captures
    reopening points, until a connection. The moves go to `moves_out` (cell * 4 + colour) for AMAF."""
    n = params[P_N]
    # Read out of the tuple once: in a function with reference counting (not a leaf) each read of
    # a field in the loop would count the array in and out again.
    table, square_table, side_bits = arrays.table, arrays.square_table, arrays.side_bits
    if pie_open(var, params):
        legal = 0
        for c in range(n):
            if stones[c] == 0 and midpoint_open(stones, midpoint_corners, c):
                legal += 1
        playout_pie(var, owner, legal)
    turn = var[V_TURN]
    empties, where, captured = work[3], work[4], work[2]
    count = empty_bag(stones, empties, where)
    recorded = 0
    while count > 0:
        cell = random_open_cell(stones, midpoint_corners, empties, count, 64 * n)
        if cell < 0:
            break
        stones[cell] = turn + 1
        count = bag_remove(empties, where, count, cell)
        if recorded < moves_out.shape[0]:
            moves_out[recorded] = cell * 4 + turn
            recorded += 1
        taken = find_captures(stones, square_table, cell, captured)
        for k in range(taken):
            stones[captured[k]] = 0
            count = bag_add(empties, where, count, captured[k])
        if connects_into(stones, table, side_bits, GOALS[stones[cell]], cell, work[1], mark, stamp):
            return owner[turn], stamp + 1, recorded
        stamp += 1
        turn = 1 - turn
    return -1, stamp, recorded  # no legal move left (the rules never allow it): a shared result
