"""Flood fills over a padded neighbour table (see `Board.neighbour_table`), compiled with numba.

`stones` holds 0 for empty and k + 1 for colour k; `table[c]` lists c's neighbours, −1 padded.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def group_of(stones: np.ndarray, table: np.ndarray, start: int, out: np.ndarray) -> int:
    """Write the cells of start's group (same value, connected) into `out`; return how many."""
    value = stones[start]
    seen = np.zeros(stones.shape[0], dtype=np.bool_)
    seen[start] = True
    out[0] = start
    count = 1
    head = 0
    while head < count:
        cell = out[head]
        head += 1
        for k in range(table.shape[1]):
            other = table[cell, k]
            if other < 0:
                break
            if not seen[other] and stones[other] == value:
                seen[other] = True
                out[count] = other
                count += 1
    return count


@njit(cache=True)
def components(blocked: np.ndarray, table: np.ndarray, labels: np.ndarray) -> int:
    """Label the connected components of the cells not `blocked` (labels 0, 1, …; −1 on blocked
    cells); return the number of components."""
    n = blocked.shape[0]
    for c in range(n):
        labels[c] = -1
    queue = np.empty(n, dtype=np.int32)
    found = 0
    for seed in range(n):
        if blocked[seed] or labels[seed] >= 0:
            continue
        labels[seed] = found
        queue[0] = seed
        head, tail = 0, 1
        while head < tail:
            cell = queue[head]
            head += 1
            for k in range(table.shape[1]):
                other = table[cell, k]
                if other < 0:
                    break
                if not blocked[other] and labels[other] < 0:
                    labels[other] = found
                    queue[tail] = other
                    tail += 1
        found += 1
    return found
