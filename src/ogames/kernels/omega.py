"""Omega's hot paths: group-size histograms (scores) and random playouts, compiled with numba,
each beside a plain-Python reference that the tests compare it with.

`stones` holds 0 for empty and k + 1 for colour k (White 1, Black 2, Red 3, Blue 4). A score is
the product of a colour's group sizes; products get far too big for int64 on large boards, so the
kernels return a histogram `hist[k, s]` = number of colour k's groups of size s, and
`scores_from_histogram` turns it into exact Python integers. For search, `histogram_winner`
names the winner from sums of logarithms and abstains (−1) when the best two are too close for
floats to order, so that exact integers decide those cases.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
from numba import njit

from ogames.kernels import leaf, reference
from ogames.kernels.flood import fill_group, fill_group_stamped
from ogames.kernels.layout import P_COLOURS, P_END_EMPTY, P_N, V_PIESEAT, V_PLAYED, V_TURN, V_TURNCOL, V_WINNER, Array
from ogames.kernels.stones import empty_cells, empty_count, shuffled_empties


@njit(cache=True)
def size_histogram(stones: np.ndarray, table: np.ndarray, colours: int, hist: np.ndarray) -> None:
    """Fill `hist` (colours × (n + 1), zeroed here) with the number of groups of each size per colour."""
    n = stones.shape[0]
    for k in range(colours):
        for s in range(hist.shape[1]):
            hist[k, s] = 0
    # One flood pass over every colour at once (rather than one `components` pass per colour):
    # this runs once per playout, so it is the hot path of Omega's search.
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int32)
    for seed in range(n):
        value = stones[seed]
        if value == 0 or seen[seed]:
            continue
        hist[value - 1, fill_group(stones, table, seed, seen, queue)] += 1


@leaf
def histogram_winner(hist: np.ndarray, colours: int) -> int:
    """The winning colour by the histogram (highest product, later colour on a tie), or −1 when the
    two best products are too close for float logarithms to order them (the caller then decides
    with exact integers)."""
    best, second = -1, -1
    best_log, second_log = -1.0, -1.0
    for k in range(colours):
        total = 0.0
        for s in range(2, hist.shape[1]):
            if hist[k, s]:
                total += hist[k, s] * np.log(s)
        # ">=" so that a later colour takes over an equal earlier one (the rule's tie-break).
        if total >= best_log:
            second, second_log = best, best_log
            best, best_log = k, total
        elif total > second_log:
            second, second_log = k, total
    if second >= 0 and best_log - second_log < 1e-9:
        return -1
    return best


@njit(cache=True)
def random_fill(stones: np.ndarray, colours: int, next_colour: int, keep_empty: int, seed: int) -> int:
    """Place stones on random empty cells in colour order, starting with `next_colour`, until
    `keep_empty` cells are left empty (the end of an Omega game); return how many were placed."""
    np.random.seed(seed)
    n = stones.shape[0]
    empty = np.empty(n, dtype=np.int32)
    count = 0
    for c in range(n):
        if stones[c] == 0:
            empty[count] = c
            count += 1
    to_place = count - keep_empty
    colour = next_colour
    # A partial Fisher–Yates shuffle: the first `to_place` slots become a uniform random choice.
    for i in range(to_place):
        j = i + np.random.randint(count - i)
        empty[i], empty[j] = empty[j], empty[i]
        stones[empty[i]] = colour + 1
        colour += 1
        if colour == colours:
            colour = 0
    return max(to_place, 0)


@njit(cache=True)
def playout_histogram(
    stones: np.ndarray, table: np.ndarray, colours: int, next_colour: int, keep_empty: int, seed: int, hist: np.ndarray
) -> int:
    """Play the rest of a game at random from a copy of `stones`, write the final group-size
    histogram, and return the winning colour (−1: too close to call without exact integers)."""
    work = stones.copy()
    random_fill(work, colours, next_colour, keep_empty, seed)
    size_histogram(work, table, colours, hist)
    return histogram_winner(hist, colours)


def new_histogram(colours: int, cells: int) -> np.ndarray:
    """A zeroed histogram array for `size_histogram` and `playout_histogram`."""
    return np.zeros((colours, cells + 1), dtype=np.int64)


def scores_from_histogram(hist: np.ndarray) -> list[int]:
    """Exact scores per colour: the product of size**count (1 for a colour without stones)."""
    scores = []
    for row in hist:
        score = 1
        for size in np.flatnonzero(row):
            score *= int(size) ** int(row[size])
        scores.append(score)
    return scores


# ----- plain-Python references --------------------------------------------------------------------


def group_sizes_reference(stones: Sequence[int], neighbours: Sequence[Sequence[int]], colours: int) -> list[list[int]]:
    """Per colour, the sizes of its groups (sorted, largest first), by a plain flood fill."""
    seen: set[int] = set()
    sizes: list[list[int]] = [[] for _ in range(colours)]
    for seed, value in enumerate(stones):
        if value == 0 or seed in seen:
            continue
        group = reference.group_of(stones, neighbours, seed)
        seen |= group
        sizes[value - 1].append(len(group))
    return [sorted(s, reverse=True) for s in sizes]


def size_histogram_reference(stones: Sequence[int], neighbours: Sequence[Sequence[int]], colours: int) -> np.ndarray:
    """The same histogram as `size_histogram`, from `group_sizes_reference`."""
    hist = new_histogram(colours, len(stones))
    for k, sizes in enumerate(group_sizes_reference(stones, neighbours, colours)):
        for s in sizes:
            hist[k, s] += 1
    return hist


def scores_reference(stones: Sequence[int], neighbours: Sequence[Sequence[int]], colours: int) -> list[int]:
    """Exact scores per colour straight from the rule: the product of its group sizes."""
    return [math.prod(sizes) for sizes in group_sizes_reference(stones, neighbours, colours)]


def random_fill_reference(stones: list[int], colours: int, next_colour: int, keep_empty: int, rng: random.Random) -> int:
    """Plain version of `random_fill` (its own random stream): fill `stones` in place, return how many were placed."""
    empty = [c for c, v in enumerate(stones) if v == 0]
    to_place = max(len(empty) - keep_empty, 0)
    colour = next_colour
    for cell in rng.sample(empty, to_place):
        stones[cell] = colour + 1
        colour = (colour + 1) % colours
    return to_place


def playout_reference(
    stones: Sequence[int],
    neighbours: Sequence[Sequence[int]],
    colours: int,
    next_colour: int,
    keep_empty: int,
    rng: random.Random,
) -> list[int]:
    """Plain random playout from a copy of `stones`: the exact final scores per colour."""
    work = list(stones)
    random_fill_reference(work, colours, next_colour, keep_empty, rng)
    return scores_reference(work, neighbours, colours)


# ----- the compiled search's turn (`kernels/step.py` calls these; `kernels/layout.py` the arrays) --


@leaf
def scores_into(
    stones: Array,
    table: Array,
    colours: int,
    logs: Array,
    queue: Array,
    mark: Array,
    stamp: int,
    sums: Array,
) -> int:
    """The colour with the highest product of group sizes (sums of logs; a tie within 1e-9 goes to
    the later colour, the rules' tie-break); the sums per colour are left in `sums`."""
    for k in range(4):
        sums[k] = 0.0
    n = stones.shape[0]
    for seed in range(n):
        value = stones[seed]
        if value == 0 or mark[seed] == stamp:
            continue
        sums[value - 1] += logs[fill_group_stamped(stones, table, seed, mark, stamp, queue)]
    best = 0
    for k in range(1, colours):
        if sums[k] >= sums[best] - 1e-9:
            best = k
    return best


@leaf
def end_turn(var: Array, params: Array, played: int) -> bool:
    """A seat's turn over (`played` 1: it placed its stones, 0: it swapped in the pie phase): the
    next seat of the pie phase or the next colour's turn. Returns whether a round is over (then
    the game ends if fewer than p² cells are empty)."""
    p = params[P_COLOURS]
    if var[V_PIESEAT] >= 0:
        var[V_PLAYED] += played
        var[V_PIESEAT] += 1
        if var[V_PIESEAT] < p:
            return False
        var[V_PIESEAT] = -1
        var[V_TURNCOL] = var[V_PLAYED] % p
    else:
        var[V_TURNCOL] = (var[V_TURNCOL] + 1) % p
    return var[V_TURNCOL] == 0


@leaf
def step_mover(var: Array, owner: Array) -> int:
    """The seat to act: the pie phase's seat, else the holder of the colour whose turn it is."""
    if var[V_PIESEAT] >= 0:
        return int(var[V_PIESEAT])
    return int(owner[var[V_TURNCOL]])


@leaf
def step_moves(stones: Array, var: Array, owner: Array, params: Array, out: Array) -> int:
    """Omega's legal move codes into `out`: the empty cells, then in the pie phase before a seat's
    first stone `n + c` for every colour c held by an earlier seat; how many."""
    n = params[P_N]
    count = empty_cells(stones, n, out)
    seat = var[V_PIESEAT]
    if seat >= 1 and var[V_TURN] == 0:
        for colour in range(params[P_COLOURS]):
            if owner[colour] < seat:
                out[count] = n + colour
                count += 1
    return count


@leaf
def step_play(
    stones: Array, var: Array, owner: Array, params: Array, move: int, table: Array,
    logs: Array, queue: Array, mark: Array, stamp: int, sums: Array,
    ends: bool,
) -> int:
    """Omega's move on the search's arrays: one stone of the next colour (the turn ends after the
    last), or the pie phase's swap with the holder of colour move − n (a whole turn). After a
    round, with fewer than p² cells empty (and `ends`), the game's end and its winner."""
    n, p = params[P_N], params[P_COLOURS]
    round_over = False
    if move >= n:
        seat = var[V_PIESEAT]
        mine = 0
        for colour in range(p):
            if owner[colour] == seat:
                mine = colour
        target = move - n
        owner[mine], owner[target] = owner[target], owner[mine]
        round_over = end_turn(var, params, 0)
    else:
        stones[move] = var[V_TURN] + 1
        var[V_TURN] += 1
        if var[V_TURN] == p:
            var[V_TURN] = 0
            round_over = end_turn(var, params, 1)
    if round_over and ends and empty_count(stones) < p * p:
        var[V_WINNER] = scores_into(stones, table, p, logs, queue, mark, stamp, sums)
    return stamp + 1


@njit(cache=True)
def step_playout(
    stones: Array, var: Array, owner: Array, params: Array, table: Array,
    logs: Array, work: Array, mark: Array, stamp: int, sums: Array,
) -> tuple[int, int, int]:
    """Omega's playout: the board filled at random to its end, colours in turn, then the scores
    (each colour's sum of log group sizes left in `sums`)."""
    p = params[P_COLOURS]
    order = work[3]
    count = shuffled_empties(stones, order)
    to_place = count - params[P_END_EMPTY]
    colour = var[V_TURN]
    for i in range(to_place):
        stones[order[i]] = colour + 1
        colour += 1
        if colour == p:
            colour = 0
    winner = scores_into(stones, table, p, logs, work[1], mark, stamp, sums)
    return owner[winner], stamp + 1, -1
