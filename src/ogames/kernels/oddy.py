"""Odd-Y kernels (numba) beside their plain-Python references (the `*_reference` functions).

Conventions: `stones` holds 0 for empty, 1 for black, 2 for white; `table` is the board's padded
neighbour table; `cell_sides[c]` is the bitmask of the sides cell c lies on (a corner has two
bits); `runs` holds, for each j, the mask of the (m+1)/2 consecutive sides j, j+1, … (mod m).
A set T of touched sides wins iff it is not contained in any of those runs (RULES.md §2).

Why a whole random game can be decided by filling the board once and testing once:
  1. Winning is monotone: stones never leave the board, so a group only grows, the sides it
     touches only grow, and a superset of a winning T is winning (a superset of T is contained in
     no run if T is contained in none).
  2. A placement changes only the mover's groups, and the game ends at the first winning group,
     so before the end nobody has a winning group, and the first winning group belongs to the
     player whose placement made it, who then wins.
  3. On a full board exactly one player has a winning group (the Odd-Y theorem, tested on random
     fills in tests/test_oddy_kernels.py).
  Play the same random order past the end of the game: by (1) the winner's group still wins on
  the full board, so by (3) the full board's unique winner is the game's winner.
`playout_fill` uses this; `playout_stepwise` tests after every placement (union-find) and also
returns the ply at which the game ended; the tests check that both agree with the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from numba import njit

from ogames.kernels import leaf, reference
from ogames.kernels.flood import fill_group_sides, group_of
from ogames.kernels.layout import Array, BoardArrays
from ogames.kernels.stones import shuffled_empties


def run_masks(m: int) -> np.ndarray:
    """Masks of the m runs of (m+1)/2 cyclically consecutive sides, as int64."""
    k = (m + 1) // 2
    runs = np.zeros(m, dtype=np.int64)
    for j in range(m):
        for d in range(k):
            runs[j] |= 1 << ((j + d) % m)
    return runs


def cell_side_masks(side_sets: Sequence[frozenset[int] | set[int]], cells: int) -> np.ndarray:
    """Per cell, the bitmask of the sides it lies on (side s is bit s)."""
    masks = np.zeros(cells, dtype=np.int64)
    for s, side in enumerate(side_sets):
        for c in side:
            masks[c] |= 1 << s
    return masks


# ----- the win test --------------------------------------------------------------------------


@leaf
def wins(touched: np.int64, runs: np.ndarray) -> bool:
    """Whether a set of touched sides is contained in no run of (m+1)/2 consecutive sides."""
    for j in range(runs.shape[0]):
        if touched & ~runs[j] == 0:
            return False
    return True


def wins_reference(touched: int, m: int) -> bool:
    """Reference: the touched sides are not all among sides j … j+(m+1)/2−1 for any j."""
    sides = {s for s in range(m) if touched >> s & 1}
    k = (m + 1) // 2
    return all(not sides <= {(j + d) % m for d in range(k)} for j in range(m))


# ----- sides touched by a group --------------------------------------------------------------


@njit(cache=True)
def group_sides(stones: np.ndarray, table: np.ndarray, cell_sides: np.ndarray, start: int, out: np.ndarray) -> tuple:
    """Write start's group into `out`; return (group size, mask of the sides the group touches)."""
    count = group_of(stones, table, start, out)
    touched = np.int64(0)
    for k in range(count):
        touched |= cell_sides[out[k]]
    return count, touched


def group_sides_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], cell_sides: Sequence[int], start: int
) -> tuple[set[int], int]:
    """Reference: start's group and the mask of the sides it touches."""
    group = reference.group_of(stones, neighbours, start)
    touched = 0
    for cell in group:
        touched |= int(cell_sides[cell])
    return group, touched


# ----- whether a group wins ------------------------------------------------------------------


@leaf
def group_wins_into(
    stones: np.ndarray,
    table: np.ndarray,
    cell_sides: np.ndarray,
    runs: np.ndarray,
    start: int,
    queue: np.ndarray,
    mark: np.ndarray,
    stamp,
) -> bool:
    """Whether start's group touches a winning set of sides, without allocation: the group is
    `flood.fill_group_sides` (stamp `stamp` into `mark`, cells into `queue`). The win test of
    the players' kernels (MCTS, connection solver) and of `winning_group_counts`."""
    return wins(np.int64(fill_group_sides(stones, table, start, mark, stamp, queue, cell_sides, 0)), runs)


def group_wins_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], cell_sides: Sequence[int], m: int, start: int
) -> bool:
    """Reference: whether start's group touches a winning set of sides."""
    return wins_reference(group_sides_reference(stones, neighbours, cell_sides, start)[1], m)


# ----- winning groups on a board -------------------------------------------------------------


@njit(cache=True)
def winning_group_counts(stones: np.ndarray, table: np.ndarray, cell_sides: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """Number of winning groups of each colour: [0, black's, white's]."""
    n = stones.shape[0]
    counts = np.zeros(3, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int32)
    for seed in range(n):
        value = stones[seed]
        if value == 0 or seen[seed]:
            continue
        if group_wins_into(stones, table, cell_sides, runs, seed, queue, seen, True):
            counts[value] += 1
    return counts


def winning_group_counts_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], cell_sides: Sequence[int], m: int
) -> list[int]:
    """Reference: number of winning groups of each colour, [0, black's, white's]."""
    counts = [0, 0, 0]
    seen: set[int] = set()
    for seed in range(len(stones)):
        if stones[seed] == 0 or seed in seen:
            continue
        group, touched = group_sides_reference(stones, neighbours, cell_sides, seed)
        seen |= group
        if wins_reference(touched, m):
            counts[stones[seed]] += 1
    return counts


# ----- whole random games --------------------------------------------------------------------


@njit(cache=True)
def playout_fill(
    stones: np.ndarray, table: np.ndarray, cell_sides: np.ndarray, runs: np.ndarray, first: int, seed: int, order: np.ndarray
) -> int:
    """Fill the empty cells in a random order, colours alternating from `first` (1 or 2), then
    return the colour value with the winning group (see the module note for why that is the
    winner of the game played move by move). `order` receives the fill order; `stones` is kept."""
    np.random.seed(seed)
    count = shuffled_empties(stones, order)
    board = stones.copy()
    value = first
    for k in range(count):
        board[order[k]] = value
        value = 3 - value
    counts = winning_group_counts(board, table, cell_sides, runs)
    return 1 if counts[1] > 0 else 2


@leaf
def find_root(parent: np.ndarray, cell: int) -> int:
    """The root of `cell`'s group in the union-find `parent` (compressing the path to it)."""
    root = cell
    while parent[root] != root:
        root = parent[root]
    while parent[cell] != root:  # path compression
        up = parent[cell]
        parent[cell] = root
        cell = up
    return root


@leaf
def _place(
    stones: np.ndarray, table: np.ndarray, parent: np.ndarray, mask: np.ndarray, cell: int, value: int, cell_sides: np.ndarray
) -> np.int64:
    """Put a stone, join it to its same-coloured neighbours; return the touched sides of its group."""
    stones[cell] = value
    parent[cell] = cell
    mask[cell] = cell_sides[cell]
    root = cell
    for k in range(table.shape[1]):
        other = table[cell, k]
        if other < 0:
            break
        if stones[other] == value:
            r = find_root(parent, other)
            if r != root:
                parent[r] = root
                mask[root] |= mask[r]
    return mask[root]


@njit(cache=True)
def playout_stepwise(
    stones: np.ndarray, table: np.ndarray, cell_sides: np.ndarray, runs: np.ndarray, first: int, seed: int, order: np.ndarray
) -> tuple:
    """Play random placements, colours alternating from `first`, testing for a win after each;
    return (winning colour value, placements made). `order` receives the order; `stones` is kept."""
    np.random.seed(seed)
    count = shuffled_empties(stones, order)
    n = stones.shape[0]
    board = np.zeros(n, dtype=stones.dtype)
    parent = np.arange(n)
    mask = np.zeros(n, dtype=np.int64)
    for c in range(n):  # the stones already on the board, joined into groups
        if stones[c] != 0:
            _place(board, table, parent, mask, c, stones[c], cell_sides)
    value = first
    for k in range(count):
        if wins(_place(board, table, parent, mask, order[k], value, cell_sides), runs):
            return value, k + 1
        value = 3 - value
    return 0, count  # unreachable on a position nobody has won (no draws)


def playout_stepwise_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], cell_sides: Sequence[int], m: int, first: int, rng: random.Random
) -> tuple[int, int, list[int]]:
    """Reference: random placements with a win test after each; (winner value, placements, order)."""
    board = list(stones)
    order = [c for c in range(len(board)) if board[c] == 0]
    rng.shuffle(order)
    value = first
    for k, cell in enumerate(order):
        board[cell] = value
        if group_wins_reference(board, neighbours, cell_sides, m, cell):
            return value, k + 1, order
        value = 3 - value
    return 0, len(order), order


# ----- the compiled search's pieces (`kernels/stones.py` has the turn; `kernels/layout.py` the arrays) --


@leaf
def step_wins(
    stones: Array, var: Array, params: Array, arrays: BoardArrays, cell: int, work: Array, mark: Array, stamp: int
) -> bool:
    """Whether the stone on `cell` made a group touching a winning set of sides."""
    return group_wins_into(stones, arrays.table, arrays.cell_sides, arrays.runs, cell, work[1], mark, stamp)


@leaf
def step_judge(
    stones: Array, var: Array, params: Array, arrays: BoardArrays, work: Array, mark: Array, stamp: int
) -> tuple[int, int]:
    """The full board's winning colour (exactly one has winning groups: see `playout_fill`)."""
    table, cell_sides, runs = arrays.table, arrays.cell_sides, arrays.runs
    for seed in range(stones.shape[0]):
        if mark[seed] != stamp and group_wins_into(stones, table, cell_sides, runs, seed, work[1], mark, stamp):
            return stones[seed] - 1, stamp + 1
    return -1, stamp + 1  # unreachable: Odd-Y has no draws
