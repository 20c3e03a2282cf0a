"""One search tree of the compiled search: its tables, kept between moves and re-rooted where the
game went on (`kept_or_new`), and searched in batches so that the clock is read between the
kernel's calls (`run_batches`)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ogames.kernels import layout as P
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import Adapter, Array, Ints
from ogames.rules.protocol import State

BATCH = 256  # iterations per kernel call at most: the clock is read between calls
FIRST_BATCH = 16  # the first call, to measure the rate on this board
SLICE = 0.02  # with a time budget, a call lasts about this share of the budget (or less)

Floats = npt.NDArray[np.float64]
Position = tuple[Array, Ints, Ints]  # stones, var, owner (`Adapter.encode`)


@dataclass(frozen=True)
class Search:
    """What a search runs on: the game's adapter, the root position and the kernel's parameters
    for this player's settings (`params` may be changed by a search: each worker copies them)."""

    adapter: Adapter
    position: Position
    params: Ints
    fparams: Floats


@dataclass(frozen=True)
class Budget:
    """A search's budget: at most `limit` iterations (None: no limit) and until `deadline` (a
    `time.perf_counter()` value; None: no clock) of a `think` time (what the batches are sized by)."""

    limit: int | None
    deadline: float | None
    think: float | None


@dataclass
class Tree:
    """A tree's tables (`ints`, `floats`, `meta`: see `kernel.py`), the game and the moves
    (`path`, one a tree level) of the position at its root, and the visits it held when it was
    reused for this search."""

    game: Any
    players: int
    path: list[str]
    ints: npt.NDArray[np.int32]
    floats: Floats
    meta: Ints
    reused: int = 0

    @property
    def nodes(self) -> int:
        """Nodes in use."""
        return int(self.meta[K.M_COUNT])

    @property
    def root(self) -> tuple[npt.NDArray[np.int32], Floats]:
        return self.ints, self.floats


def kept_or_new(state: State, adapter: Adapter, kept: Tree | None, params: Ints, capacity: int, reuse: bool) -> Tree:
    """`kept` re-rooted at this state when it continues the position it searched (and `reuse`),
    else a new tree (in `kept`'s tables when they fit) of `capacity` nodes for the search's
    `params`."""
    path = adapter.path_moves(state)
    if reuse and kept is not None and kept.game is state.game and kept.players == len(state.players):
        node = _node_of(kept, adapter, path)
        if node >= 0 and kept.ints[node, K.I_SEAT] >= 0:
            if node != 0:
                used = kept.nodes
                old_i, old_f = kept.ints[:used].copy(), kept.floats[:used].copy()
                kept.meta[K.M_COUNT] = K.compact(old_i, old_f, kept.ints, kept.floats, node)
            if path and path[-1] == "swap":
                kept.ints[0, K.I_FLAGS] &= ~K.FL_PIE  # the swap is used up at the new root
            kept.path = path
            kept.reused = int(kept.floats[0, K.F_N])
            return kept
    seats = len(state.players)
    if kept is not None and kept.ints.shape[0] == capacity and kept.floats.shape[1] == K.F_W + seats:
        ints, floats = kept.ints, kept.floats
    else:
        # np.empty takes pages from the system only as nodes are written.
        ints = np.empty((capacity, K.NI), dtype=np.int32)
        floats = np.empty((capacity, K.F_W + seats), dtype=np.float64)
    meta = np.zeros(2, dtype=np.int64)
    _, var, owner = adapter.encode(state)
    K.init_root(ints, floats, meta, var, owner, params)
    return Tree(state.game, seats, path, ints, floats, meta)


def _node_of(kept: Tree, adapter: Adapter, path: list[str]) -> int:
    """The node of `kept` that the moves `path` reach from its root's position, −1 if none (the
    game went elsewhere, or beyond what the tree holds)."""
    old = kept.path
    if len(path) < len(old) or path[: len(old)] != old:
        return -1
    node = 0
    ints = kept.ints
    for move in path[len(old) :]:
        if move == "swap" and ints[node, K.I_FLAGS] & K.FL_PIE:
            continue  # a shared pie: the swap leaves the position, and so the node, as it was
        first, count = ints[node, K.I_FIRST], ints[node, K.I_NCHILD]
        found = -1
        for child in range(first, first + count) if first >= 0 else ():
            if adapter.move_text(int(ints[child, K.I_MOVE])) == move:
                found = child
                break
        node = found
        if node < 0:
            return -1
    return node


def run_batches(tree: Tree, search: Search, budget: Budget, params: Ints, stop: threading.Event | None = None) -> int:
    """Run the kernel on one tree in batches until the budget's iterations or deadline, a proven
    root, or (a worker among several) `stop` is set; return the iterations run. `params` (the
    search's, or a worker's copy) may be changed: the solver is switched off once every move is
    proven lost."""
    adapter, (stones, var, owner), fparams = search.adapter, search.position, search.fparams
    limit, deadline, think = budget.limit, budget.deadline, budget.think
    arrays = adapter.rule_arrays()
    done = 0
    batch = BATCH if deadline is None else FIRST_BATCH
    while True:
        if limit is not None:
            batch = min(batch, limit - done)
        if batch <= 0 or (stop is not None and stop.is_set()):
            break
        called = time.perf_counter()
        ran = int(
            K.run(
                tree.ints, tree.floats, tree.meta, stones, var, owner, params, fparams, arrays,
                adapter.midpoint_corners, adapter.bridges, batch,
            )
        )
        done += ran
        if ran < batch:  # the root is proven
            if tree.ints[0, K.I_PROVEN] == tree.ints[0, K.I_SEAT]:
                if stop is not None:
                    stop.set()  # a proven win: the other workers need not search on
                break
            # Every move loses against perfect play: search on without the proofs for the
            # move that resists best against an opponent who may not find the win.
            params[P.P_SOLVER] = 0
        now = time.perf_counter()
        if deadline is not None:
            if now >= deadline:
                break
            # Big boards run a few thousand iterations a second: size the next call so that
            # the clock is read often enough not to overrun a short budget.
            rate = ran / max(now - called, 1e-6)
            assert think is not None  # a deadline comes from a think time
            batch = int(min(BATCH, max(1, rate * min(SLICE * think, deadline - now))))
        else:
            batch = BATCH
    return done
