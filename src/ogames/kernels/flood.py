"""Flood fills over a padded neighbour table (see `Board.neighbour_table`), compiled with numba.

`stones` holds 0 for empty and k + 1 for colour k; `table[c]` lists c's neighbours, −1 padded.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ogames.kernels import leaf


@leaf
def fill_group_sides(
    stones: np.ndarray, table: np.ndarray, start: int, mark: np.ndarray, stamp, queue: np.ndarray, bits, goal: int
) -> int:
    """The one same-colour group fill of the compiled code: the rule kernels and the players'
    kernels (the search's turn kernels `step_*`, `players/solvers/connection_kernels.py`) all call it, or
    `fill_group_stamped` / `fill_group`, which are it without bits.

    Mark start's group (same value, connected) with `stamp` in `mark` and write it into `queue` in
    breadth-first order. Nothing is allocated: a caller that fills often keeps an int64 `mark` and
    takes a fresh stamp per fill instead of clearing it (a cell counts as seen when
    `mark[cell] == stamp`); a bool `mark` with stamp True works too.
    `bits` None: return the group's size. Otherwise return the OR of `bits[c]` over its cells (the
    sides it touches), stopping as soon as that covers a nonzero `goal` (a connection test need
    not see the rest of the group; `queue` then holds only part of it: Onyx's MCTS tests after
    every move, and stopping early there kept it as fast as its own written-out fill).
    (numba's cache does not notice a change in a callee's module: after editing this file, clear
    the `*.nbi` / `*.nbc` files of the callers' `__pycache__` before measuring.)"""
    value = stones[start]
    mark[start] = stamp
    queue[0] = start
    head, tail = 0, 1
    touched = 0
    while head < tail:
        cell = queue[head]
        head += 1
        if bits is not None:
            touched |= bits[cell]
            if goal != 0 and touched & goal == goal:
                return touched
        for k in range(table.shape[1]):
            other = table[cell, k]
            if other < 0:
                break
            if mark[other] != stamp and stones[other] == value:
                mark[other] = stamp
                queue[tail] = other
                tail += 1
    if bits is None:
        return tail
    return touched


@leaf
def fill_group_stamped(stones: np.ndarray, table: np.ndarray, start: int, mark: np.ndarray, stamp, queue: np.ndarray) -> int:
    """`fill_group_sides` without bits: mark start's group with `stamp` in `mark`, write it into
    `queue` and return its size."""
    return fill_group_sides(stones, table, start, mark, stamp, queue, None, 0)


@leaf
def fill_group(stones: np.ndarray, table: np.ndarray, start: int, seen: np.ndarray, queue: np.ndarray) -> int:
    """Mark start's group (same value, connected) in `seen` and write it into `queue`; return its
    size. Callers that sweep every group pass the same `seen` each time, so no cell is filled twice."""
    return fill_group_stamped(stones, table, start, seen, True, queue)


@njit(cache=True)
def group_of(stones: np.ndarray, table: np.ndarray, start: int, out: np.ndarray) -> int:
    """Write the cells of start's group (same value, connected) into `out`; return how many."""
    return fill_group(stones, table, start, np.zeros(stones.shape[0], dtype=np.bool_), out)


@njit(cache=True)
def components(blocked: np.ndarray, table: np.ndarray, labels: np.ndarray) -> int:
    """Label the connected components of the cells not `blocked` (labels 0, 1, …; −1 on blocked
    cells); return the number of components (each is one `fill_group` over the open cells)."""
    n = blocked.shape[0]
    open_cells = np.empty(n, dtype=np.int8)
    for c in range(n):
        labels[c] = -1
        open_cells[c] = 0 if blocked[c] else 1
    seen = blocked.copy()  # blocked cells are never entered
    queue = np.empty(n, dtype=np.int32)
    found = 0
    for seed in range(n):
        if seen[seed]:
            continue
        for i in range(fill_group(open_cells, table, seed, seen, queue)):
            labels[queue[i]] = found
        found += 1
    return found
