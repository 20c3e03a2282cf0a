"""A learned evaluation of Omega positions with three or four players: each colour's chance to win,
from a few counts of its groups and of the empty cells around them, weighed by a conditional logit
fitted to self-play games (one set of weights per sixth of the game; `tools/fit_omega_eval.py`
fits them, `players/mcts/omega_weights.py` holds them).

Why: random playouts misjudge these positions. On 1,000 games of three-player level 7 self-play,
the share of 64 random playouts won from a position predicts the game's winner worse than knowing
only each seat's share of wins, in every sixth of the game; these counts predict it better
(docs/ai.md, "A learned evaluation"). The search (`players/mcts/kernel.py`, setting `evaluate`)
mixes it into a leaf's reward beside the playout's.

The features of colour k (`FEATURES`): the log of its score now; its groups of size 1, 2, 3, 4
and 5 or more; the empty cells next to one of its groups, and next to two of them (where a stone
of k merges groups); the stones of k still to be placed; whether its owner is the one placing
stones now; and which colour it is (k = 1, 2, 3: the seats' order matters).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ogames.kernels import leaf
from ogames.kernels.flood import fill_group_stamped
from ogames.kernels.layout import Array

FEATURES = ("log-score", "groups-1", "groups-2", "groups-3", "groups-4", "groups-5+", "next-to", "merges", "to-place",
            "placing", "colour-1", "colour-2", "colour-3")
NF = len(FEATURES)
F_LOG, F_G1, F_NEXT, F_MERGES, F_TO_PLACE, F_PLACING, F_COLOUR = 0, 1, 6, 7, 8, 9, 10
PHASES = 6  # the game in sixths of its placements, one set of weights each


@leaf
def phase_of(placed: int, cells: int, end_empty: int) -> int:
    """Which sixth of the game a position with `placed` stones is in."""
    total = max(cells - end_empty, 1)
    return min(placed * PHASES // total, PHASES - 1)


@leaf
def features_into(
    stones: Array, table: Array, colours: int, end_empty: int, next_colour: int, turn_colour: int,
    labels: Array, queue: Array, mark: Array, stamp: int, out: Array,
) -> int:
    """Write each colour's features into `out` (colours × NF); return the next free stamp.
    `labels` and `queue` are scratch of the board's size."""
    n = stones.shape[0]
    for k in range(out.shape[0]):
        for j in range(NF):
            out[k, j] = 0.0
    placed = 0
    found = 0
    for seed in range(n):
        value = stones[seed]
        if value == 0:
            labels[seed] = -1
            continue
        placed += 1
        if mark[seed] == stamp:
            continue
        size = fill_group_stamped(stones, table, seed, mark, stamp, queue)
        for i in range(size):
            labels[queue[i]] = found
        found += 1
        out[value - 1, F_LOG] += math.log(size)
        out[value - 1, F_G1 + min(size, 5) - 1] += 1.0
    for cell in range(n):
        if stones[cell] != 0:
            continue
        for k in range(colours):  # per colour: the first group met (−1 none), then −2 once a second is
            queue[k] = -1
        for j in range(table.shape[1]):
            other = table[cell, j]
            if other < 0 or stones[other] == 0:
                continue
            k = stones[other] - 1
            if queue[k] == -1:
                queue[k] = labels[other]
            elif queue[k] >= 0 and queue[k] != labels[other]:
                queue[k] = -2
        for k in range(colours):
            if queue[k] != -1:
                out[k, F_NEXT] += 1.0
            if queue[k] == -2:
                out[k, F_MERGES] += 1.0
    for i in range(max(n - placed - end_empty, 0)):
        out[(next_colour + i) % colours, F_TO_PLACE] += 1.0
    out[turn_colour, F_PLACING] = 1.0
    for k in range(1, colours):
        out[k, F_COLOUR + k - 1] = 1.0
    return stamp + 1


@leaf
def chances_into(feats: Array, colours: int, weights: Array, phase: int, out: Array) -> None:
    """Each colour's chance to win (a softmax of its weighed features) into `out`. `weights` is
    flat: PHASES × NF."""
    top = -1e300
    for k in range(colours):
        z = 0.0
        for j in range(NF):
            z += weights[phase * NF + j] * feats[k, j]
        out[k] = z
        top = max(top, z)
    total = 0.0
    for k in range(colours):
        out[k] = math.exp(out[k] - top)
        total += out[k]
    for k in range(colours):
        out[k] /= total


def features(stones: Array, table: Array, colours: int, end_empty: int, next_colour: int, turn_colour: int) -> Array:
    """The compiled features of one position, as a new array (colours × NF)."""
    n = stones.shape[0]
    out = np.zeros((colours, NF))
    scratch = np.empty(n, dtype=np.int32), np.empty(max(n, 4), dtype=np.int32), np.zeros(n, dtype=np.int64)
    features_into(np.asarray(stones, dtype=np.int8), table, colours, end_empty, next_colour, turn_colour,
                  scratch[0], scratch[1], scratch[2], 1, out)
    return out


# ----- the plain-Python reference ------------------------------------------------------------------


def features_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], colours: int, end_empty: int, next_colour: int,
    turn_colour: int,
) -> list[list[float]]:
    """The same features by plain flood fills and sets."""
    n = len(stones)
    label = [-1] * n
    rows = [[0.0] * NF for _ in range(colours)]
    groups = 0
    for seed in range(n):
        if stones[seed] == 0 or label[seed] >= 0:
            continue
        label[seed], todo, size = groups, [seed], 0
        while todo:
            cell = todo.pop()
            size += 1
            for other in neighbours[cell]:
                if stones[other] == stones[seed] and label[other] < 0:
                    label[other] = groups
                    todo.append(other)
        groups += 1
        row = rows[stones[seed] - 1]
        row[F_LOG] += math.log(size)
        row[F_G1 + min(size, 5) - 1] += 1
    for cell in range(n):
        if stones[cell] == 0:
            around = [{label[o] for o in neighbours[cell] if stones[o] == k + 1} for k in range(colours)]
            for k in range(colours):
                rows[k][F_NEXT] += len(around[k]) >= 1
                rows[k][F_MERGES] += len(around[k]) >= 2
    empty = sum(1 for s in stones if s == 0)
    for i in range(max(empty - end_empty, 0)):
        rows[(next_colour + i) % colours][F_TO_PLACE] += 1
    rows[turn_colour][F_PLACING] = 1
    for k in range(1, colours):
        rows[k][F_COLOUR + k - 1] = 1
    return rows


def chances_reference(rows: Sequence[Sequence[float]], weights: Sequence[float], phase: int) -> list[float]:
    """The softmax of the weighed features, plainly."""
    z = [sum(weights[phase * NF + j] * row[j] for j in range(NF)) for row in rows]
    top = max(z)
    e = [math.exp(v - top) for v in z]
    return [v / sum(e) for v in e]


__all__ = ["FEATURES", "NF", "PHASES", "chances_into", "chances_reference", "features", "features_into",
           "features_reference", "phase_of"]
