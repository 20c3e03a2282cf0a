"""Root parallelism (`workers`): independent trees searched at once in threads, their roots'
statistics merged move by move before the move is chosen.

Each worker has its own tree, parameters and scratch buffers (the kernel allocates those per call)
and its own seed (numba's random generator is per thread); the kernel's `run` releases the GIL.
With an iteration budget each worker runs its share of the total, so the result depends on the
seed only; with a time budget, on the clock.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import Array
from ogames.players.mcts.report import Root
from ogames.players.mcts.tree import Budget, Floats, Search, Tree, run_batches


def shares(limit: int | None, count: int) -> list[int | None]:
    """Each worker's share of an iteration budget (None: no limit).

    >>> shares(10, 3)
    [4, 3, 3]
    """
    return [None if limit is None else limit // count + (w < limit % count) for w in range(count)]


def search_trees(trees: Sequence[Tree], seeds: Sequence[int], search: Search, budget: Budget) -> list[int]:
    """Search every tree in its own thread from its own seed (the budget's iterations are the
    total over them) until the budget is spent or one proves a win; return each one's iterations."""
    parts = shares(budget.limit, len(trees))
    stop = threading.Event()

    def work(w: int) -> int:
        K.seed_rng(seeds[w])  # this thread's generator
        share = Budget(parts[w], budget.deadline, budget.think)
        return run_batches(trees[w], search, share, search.params.copy(), stop)

    with ThreadPoolExecutor(max_workers=len(trees), thread_name_prefix="mcts-worker") as pool:
        return list(pool.map(work, range(len(trees))))


def merged_root(roots: Sequence[Root]) -> Root:
    """The workers' roots as one root with its children, in the tree's columns: per move, the sums
    of visits, AMAF figures and reward sums, and a proof if any worker found one (a proven win
    for the seat to move wins over the others; proofs are exact, so workers do not disagree).
    Children are ordered by move code, so that the merge does not depend on expansion order."""
    ints0, floats0 = roots[0]
    columns = floats0.shape[1]
    rows: dict[int, tuple[Array, Floats]] = {}
    root_i = ints0[0].copy()
    root_f = np.zeros(columns)
    seat = int(root_i[K.I_SEAT])
    for ints, floats in roots:
        root_f += floats[0]
        proven = int(ints[0, K.I_PROVEN])
        if proven >= 0 and (root_i[K.I_PROVEN] < 0 or proven == seat):
            root_i[K.I_PROVEN] = proven
        first = int(ints[0, K.I_FIRST])
        if first < 0:
            continue
        for child in range(first, first + int(ints[0, K.I_NCHILD])):
            code = int(ints[child, K.I_MOVE])
            if code not in rows:
                row = ints[child].copy()
                row[K.I_PROVEN] = -1
                rows[code] = (row, np.zeros(columns))
            row, sums = rows[code]
            sums += floats[child]
            for column in (K.I_SEAT, K.I_COLOUR, K.I_TERM, K.I_FLAGS):
                row[column] = max(row[column], ints[child, column])
            proven = int(ints[child, K.I_PROVEN])
            if proven >= 0 and (row[K.I_PROVEN] < 0 or proven == seat):
                row[K.I_PROVEN] = proven
    codes = sorted(rows)
    merged_i = np.empty((1 + len(codes), K.NI), dtype=np.int32)
    merged_f = np.empty((1 + len(codes), columns), dtype=np.float64)
    merged_i[0], merged_f[0] = root_i, root_f
    merged_i[0, K.I_FIRST] = 1 if codes else -1
    merged_i[0, K.I_NCHILD] = len(codes)
    for k, code in enumerate(codes, start=1):
        merged_i[k], merged_f[k] = rows[code]
        merged_i[k, K.I_PARENT] = 0
        merged_i[k, K.I_FIRST] = -1
        merged_i[k, K.I_NCHILD] = 0
    return merged_i, merged_f
