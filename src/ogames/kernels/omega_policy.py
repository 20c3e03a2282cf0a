"""A learned move policy for Omega with three players: each legal move's chance to be the one a
much longer search would choose, from a few features of the stone it places, weighed by a softmax
fitted to the root visits of long searches (`tools/fit_omega_policy.py` fits it,
`players/mcts/omega_policy_3.json` holds the weights). The search (`players/mcts/kernel.py`,
setting `policy`) uses it as a prior on a new node's children.

A move of the compiled search is one stone (of the colour whose stone is next, placed by the seat
whose turn it is), or in the pie phase a swap. A stone's features (`FEATURES`), for its own colour:
the change of that colour's log score (the gain), the log of the size of the group it makes, how
many groups it joins, and its neighbours of its own colour, of other colours, empty and off the
board. They enter four times: for a stone of the placer's own colour or of another's, each as is
and times the game's phase (the share of the game's stones already placed). A swap has only its
own indicator. Within a node every move has the same colour, placer and phase, so only these
interactions can tell its moves apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ogames.kernels import leaf
from ogames.kernels.flood import fill_group_stamped
from ogames.kernels.layout import P_END_EMPTY, P_N, V_PIESEAT, V_TURN, V_TURNCOL, Array

FEATURES = ("gain", "log-size", "joins", "own-neighbours", "other-neighbours", "empty-neighbours", "edges")
NB = len(FEATURES)
NF = 4 * NB + 1  # own colour, other colour, each as is and × phase; then the swap's indicator
F_SWAP = NF - 1
SIDES = 6  # a hexagonal cell's neighbours


def feature_names() -> list[str]:
    """The NF features' names, in order."""
    names = [f"{name} ({side})" for side in ("own", "other") for name in FEATURES]
    return [*names, *(f"{name} × phase" for name in names), "swap"]


@leaf
def game_phase(stones: Array, n: int, end_empty: int) -> float:
    """The share of the game's stones already placed, 0 to 1."""
    placed = 0
    for c in range(n):
        placed += stones[c] != 0
    return min(placed / max(n - end_empty, 1), 1.0)


@leaf
def features_into(
    stones: Array, table: Array, colour: int, own: bool, phase: float, moves: Array, count: int,
    labels: Array, sizes: Array, queue: Array, mark: Array, stamp: int, out: Array,
) -> int:
    """Each of `moves[:count]`'s features into `out[:count]` (a stone of `colour`, `own` when it is
    the placer's colour; codes ≥ n are swaps); return the next free stamp. `labels`, `sizes` and
    `queue` are int32 scratch of the board's size."""
    n = stones.shape[0]
    value = colour + 1
    groups = 0
    for seed in range(n):
        if stones[seed] != value or mark[seed] == stamp:
            continue
        size = fill_group_stamped(stones, table, seed, mark, stamp, queue)
        for i in range(size):
            labels[queue[i]] = groups
        sizes[groups] = size
        groups += 1
    base = 0 if own else NB
    for i in range(count):
        for j in range(NF):
            out[i, j] = 0.0
        cell = moves[i]
        if cell >= n:
            out[i, F_SWAP] = 1.0
            continue
        joined = 0  # distinct groups of the colour met, their labels in queue[:joined]
        same = other = empty = sides = 0
        for k in range(table.shape[1]):
            near = table[cell, k]
            if near < 0:
                break
            sides += 1
            if stones[near] == 0:
                empty += 1
            elif stones[near] != value:
                other += 1
            else:
                same += 1
                label = labels[near]
                seen = False
                for m in range(joined):
                    seen = seen or queue[m] == label
                if not seen:
                    queue[joined] = label
                    joined += 1
        size = 1
        lost = 0.0
        for m in range(joined):
            size += sizes[queue[m]]
            lost += math.log(sizes[queue[m]])
        grown = math.log(size)
        row = (grown - lost, grown, float(joined), float(same), float(other), float(empty), float(SIDES - sides))
        for j in range(NB):
            out[i, base + j] = row[j]
            out[i, 2 * NB + base + j] = row[j] * phase
    return stamp + 1


@leaf
def chances_into(feats: Array, count: int, weights: Array, out: Array) -> None:
    """Each move's chance (a softmax of its weighed features, `weights` of length NF) into `out`."""
    top = -1e300
    for i in range(count):
        z = 0.0
        for j in range(NF):
            z += weights[j] * feats[i, j]
        out[i] = z
        top = max(top, z)
    total = 0.0
    for i in range(count):
        out[i] = math.exp(out[i] - top)
        total += out[i]
    for i in range(count):
        out[i] /= total


@leaf
def placer_colour(var: Array, owner: Array) -> tuple[int, bool]:
    """The colour of the next stone and whether it is the placer's own (the seat acting)."""
    seat = var[V_PIESEAT] if var[V_PIESEAT] >= 0 else owner[var[V_TURNCOL]]
    colour = var[V_TURN]
    return colour, owner[colour] == seat


@leaf
def policy_into(
    stones: Array, var: Array, owner: Array, params: Array, table: Array, moves: Array, count: int, weights: Array,
    labels: Array, sizes: Array, queue: Array, mark: Array, stamp: int, feats: Array, out: Array,
) -> int:
    """The policy's chance of each of `moves[:count]` on the search's arrays into `out`; return
    the next free stamp."""
    colour, own = placer_colour(var, owner)
    phase = game_phase(stones, params[P_N], params[P_END_EMPTY])
    stamp = features_into(stones, table, colour, own, phase, moves, count, labels, sizes, queue, mark, stamp, feats)
    chances_into(feats, count, weights, out)
    return stamp


def move_features(stones: Array, var: Array, owner: Array, params: Array, table: Array, moves: Array) -> Array:
    """The compiled features of a position's moves, as a new array (moves × NF)."""
    n = stones.shape[0]
    colour, own = placer_colour(var, owner)
    phase = game_phase(stones, n, int(params[P_END_EMPTY]))
    out = np.zeros((len(moves), NF))
    scratch = np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32), np.empty(max(n, SIDES), dtype=np.int32)
    features_into(stones, table, colour, own, phase, np.asarray(moves, dtype=np.int32), len(moves), *scratch,
                  np.zeros(n, dtype=np.int64), 1, out)
    return out


def move_features_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], colour: int, own: bool, phase: float, moves: Sequence[int]
) -> list[list[float]]:
    """Plain Python: each move's features, the stone's group found by a fresh flood fill."""
    n = len(stones)

    def group(cell: int, board: Sequence[int]) -> set[int]:
        found, todo = {cell}, [cell]
        while todo:
            for near in neighbours[todo.pop()]:
                if near not in found and board[near] == board[cell]:
                    found.add(near)
                    todo.append(near)
        return found

    rows = []
    for move in moves:
        row = [0.0] * NF
        if move >= n:
            row[F_SWAP] = 1.0
            rows.append(row)
            continue
        near = list(neighbours[move])
        mine = [c for c in near if stones[c] == colour + 1]
        groups = {frozenset(group(c, stones)) for c in mine}
        after = list(stones)
        after[move] = colour + 1
        size = len(group(move, after))
        gain = math.log(size) - sum(math.log(len(g)) for g in groups)
        others = sum(1 for c in near if stones[c] not in (0, colour + 1))
        empties = sum(1 for c in near if stones[c] == 0)
        values = [gain, math.log(size), len(groups), len(mine), others, empties, SIDES - len(near)]
        base = 0 if own else NB
        for j, v in enumerate(values):
            row[base + j] = float(v)
            row[2 * NB + base + j] = float(v) * phase
        rows.append(row)
    return rows


def chances_reference(rows: Sequence[Sequence[float]], weights: Sequence[float]) -> list[float]:
    """Plain Python: the softmax of each row's weighed features."""
    z = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows]
    top = max(z)
    e = [math.exp(v - top) for v in z]
    return [v / sum(e) for v in e]
