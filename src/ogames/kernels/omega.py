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
from ogames.kernels.flood import fill_group


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
