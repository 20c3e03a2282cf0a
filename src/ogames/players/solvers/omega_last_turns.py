# mypy: disable-error-code="return-value,assignment,arg-type,no-any-return"
# (numba kernels: numpy int64 scalars and Python ints are one type to numba; mypy tells them apart)
"""Exact play of the last two turns of Omega with three or four players (max^n).

A turn places one stone of every colour, and a colour's score depends on its own stones only: the
stones of the other colours matter to it only by the cells they fill. So on the game's last turn
the mover's best stones are found colour by colour: each colour's stone changes its score by a
*gain* that depends on the cell alone (the groups it joins), and the mover wants the largest gain
for its own colour and the smallest for the others'. The stones of one turn must go to different
cells, so each colour keeps its K best cells (K the stones still to place: the other K − 1 stones
can take at most K − 1 of them, so one of its K best is always free for the best choice), and the
K^K choices among them are tried. That is exact for any aim that rises with the aiming colour's
score and falls with each other's (`_key`: a win first, then the margin over the best other).

The turn before it (the second-to-last seat's) is searched whole: every choice of its stones, each
answered by the last seat's best reply as above. The last seat is taken to play for itself (win if
it can, else come as close as it can: max^n); the second-to-last seat prefers a choice that wins
against every reply (the last seat then trying only to beat it), then one that wins against the
reply expected, then the best margin after it.

Scores are compared as sums of logarithms of group sizes, with the rules' tie-break (the later
colour wins a tie, within 1e-9), as the search's own playouts do (`kernels.omega.scores_into`).

    >>> import ogames
    >>> game = ogames.load("omega", players=3, size=4)
    >>> state = game.new_state()
    >>> while state.empty_count > 10 or state.stone_index < 1 or state.turn_colour < 1:
    ...     state.play(state.legal_moves()[0])
    <...>
    >>> exact_move(state, 100_000) in state.legal_moves()
    True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numba import njit

from ogames.kernels.flood import fill_group_stamped
from ogames.kernels.omega import scores_reference

TIE = 1e-9  # two log scores this close are equal (the later colour wins)
WIN = 1e6  # a key's part for a win: far above any margin of log scores
MOST_COLOURS = 4


@njit(cache=True)
def colour_gains(
    stones: np.ndarray, table: np.ndarray, p: int, logs: np.ndarray, base: np.ndarray, gains: np.ndarray,
    label: np.ndarray, size: np.ndarray, mark: np.ndarray, queue: np.ndarray,
) -> None:
    """base[k]: colour k's log score; gains[k, x] for every empty cell x: what a stone of colour k
    there adds to it (the log of the joined group's size less those of the groups it joins)."""
    n = stones.shape[0]
    for k in range(p):
        base[k] = 0.0
    for c in range(n):
        mark[c] = 0
        label[c] = -1
    for c in range(n):
        if stones[c] == 0 or mark[c] == 1:
            continue
        count = fill_group_stamped(stones, table, c, mark, 1, queue)
        for i in range(count):
            label[queue[i]] = c
        size[c] = count
        base[stones[c] - 1] += logs[count]
    roots = np.empty(table.shape[1], np.int64)
    for x in range(n):
        if stones[x] != 0:
            continue
        for k in range(p):
            total = 1
            lost = 0.0
            seen = 0
            for j in range(table.shape[1]):
                o = table[x, j]
                if o < 0:
                    break
                if stones[o] != k + 1:
                    continue
                r = label[o]
                fresh = True
                for i in range(seen):
                    if roots[i] == r:
                        fresh = False
                if fresh:
                    roots[seen] = r
                    seen += 1
                    total += size[r]
                    lost += logs[size[r]]
            gains[k, x] = logs[total] - lost


@njit(cache=True)
def winner_of(scores: np.ndarray, p: int) -> int:
    """The colour with the highest log score, the later one on a tie (the rules' order)."""
    best = 0
    for k in range(1, p):
        if scores[k] >= scores[best] - TIE:
            best = k
    return best


@njit(cache=True)
def _key(scores: np.ndarray, p: int, colour: int) -> float:
    """How good the scores are for `colour`: WIN if it wins, plus its margin over the best other."""
    other = -1e300
    for k in range(p):
        if k != colour and scores[k] > other:
            other = scores[k]
    return (WIN if winner_of(scores, p) == colour else 0.0) + scores[colour] - other


@njit(cache=True)
def best_turn(
    base: np.ndarray, gains: np.ndarray, empties: np.ndarray, p: int, first: int, colour: int, sign: int,
    cells: np.ndarray, final: np.ndarray,
) -> float:
    """The last turn's stones of colours first … p − 1 on `empties`, chosen for `colour`'s `_key`:
    the highest (sign 1) or the lowest (sign −1). Returns that key; the cells go into
    `cells[first:p]`, the scores after them into `final`."""
    k_left = p - first
    candidates = np.empty((MOST_COLOURS, MOST_COLOURS), np.int64)
    taken = np.zeros(empties.shape[0], np.bool_)
    for c in range(first, p):
        up = (c == colour) == (sign > 0)  # this colour's score helps the aim: its largest gains
        for i in range(empties.shape[0]):
            taken[i] = False
        for slot in range(k_left):
            pick = -1
            for i in range(empties.shape[0]):
                if taken[i]:
                    continue
                g = gains[c, empties[i]]
                if pick < 0 or (g > gains[c, empties[pick]] if up else g < gains[c, empties[pick]]):
                    pick = i
            taken[pick] = True
            candidates[c, slot] = empties[pick]
    scores = np.empty(p, np.float64)
    choice = np.zeros(MOST_COLOURS, np.int64)
    best = -1e300 if sign > 0 else 1e300
    while True:
        distinct = True
        for c in range(first, p):
            for d in range(first, c):
                if candidates[c, choice[c]] == candidates[d, choice[d]]:
                    distinct = False
        if distinct:
            for k in range(p):
                scores[k] = base[k] + (gains[k, candidates[k, choice[k]]] if k >= first else 0.0)
            value = _key(scores, p, colour)
            if (value > best) if sign > 0 else (value < best):
                best = value
                for k in range(p):
                    final[k] = scores[k]
                    if k >= first:
                        cells[k] = candidates[k, choice[k]]
        c = p - 1  # the next choice, the last colour's index turning fastest
        while c >= first:
            choice[c] += 1
            if choice[c] < k_left:
                break
            choice[c] = 0
            c -= 1
        if c < first:
            return best


@njit(cache=True)
def second_to_last(
    stones: np.ndarray, table: np.ndarray, p: int, first: int, logs: np.ndarray, limit: int, cells: np.ndarray,
) -> float:
    """The second-to-last seat's stones of colours first … p − 1 (its colour is p − 2), each choice
    answered by the last seat's best turn; −inf if there are more than `limit` choices. Returns
    the choice's key: 2·WIN more if it wins against every reply, then `_key` after the expected one."""
    n = stones.shape[0]
    mover = p - 2
    empty = np.empty(n, np.int64)
    count = 0
    for c in range(n):
        if stones[c] == 0:
            empty[count] = c
            count += 1
    choices = 1
    for i in range(p - first):
        choices *= count - i
        if choices > limit:
            return -np.inf
    base = np.empty(p, np.float64)
    gains = np.zeros((p, n), np.float64)
    label = np.empty(n, np.int64)
    size = np.zeros(n, np.int64)
    mark = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    reply = np.empty(MOST_COLOURS, np.int64)
    final = np.empty(p, np.float64)
    left = np.empty(n, np.int64)
    index = np.zeros(MOST_COLOURS, np.int64)
    best = -np.inf
    while True:
        distinct = True
        for c in range(first, p):
            for d in range(first, c):
                if index[c] == index[d]:
                    distinct = False
        if distinct:
            for c in range(first, p):
                stones[empty[index[c]]] = c + 1
            colour_gains(stones, table, p, logs, base, gains, label, size, mark, queue)
            m = 0
            for c in range(n):
                if stones[c] == 0:
                    left[m] = c
                    m += 1
            value = 0.0
            if best_turn(base, gains, left[:m], p, 0, mover, -1, reply, final) >= WIN / 2:
                value = 2 * WIN  # wins whatever the last seat does
            best_turn(base, gains, left[:m], p, 0, p - 1, 1, reply, final)
            value += _key(final, p, mover)
            for c in range(first, p):
                stones[empty[index[c]]] = 0
            if value > best:
                best = value
                for c in range(first, p):
                    cells[c] = empty[index[c]]
        c = p - 1
        while c >= first:
            index[c] += 1
            if index[c] < count:
                break
            index[c] = 0
            c -= 1
        if c < first:
            return best


def turns_left(state: Any) -> int:
    """How many turns the game has left, the current one included, when it is in its last round
    with no pie choice or match pending; 0 otherwise (three or four players only)."""
    game = state.game
    p = state.p
    if p < 3 or state.result or state.pie_seat is not None or game.options.get("match"):
        return 0
    round_start_empty = state.empty_count + state.turn_colour * p + state.stone_index
    if round_start_empty >= 2 * p * p:
        return 0
    return p - state.turn_colour


def exact_move(state: Any, limit: int) -> str | None:
    """The stone to place now by exact play, in the last two turns of a game of three or four
    players (None elsewhere, or when the second-to-last seat has more than `limit` choices)."""
    left = turns_left(state)
    if left == 0 or left > 2:
        return None
    p = state.p
    stones = state.stones.astype(np.int64)
    table = state.board.neighbour_table
    n = len(stones)
    logs = np.log(np.maximum(np.arange(n + 2, dtype=np.float64), 1.0))
    cells = np.full(MOST_COLOURS, -1, np.int64)
    first = state.stone_index
    if left == 1:
        base = np.empty(p, np.float64)
        gains = np.zeros((p, n), np.float64)
        colour_gains(stones, table, p, logs, base, gains, np.empty(n, np.int64), np.zeros(n, np.int64),
                     np.zeros(n, np.int64), np.empty(n, np.int64))  # fmt: skip
        best_turn(base, gains, np.flatnonzero(stones == 0).astype(np.int64), p, first, p - 1, 1, cells, np.empty(p))
    elif second_to_last(stones, table, p, first, logs, limit, cells) == -np.inf:
        return None
    return str(state.board.labels[cells[first]])


# ----- plain-Python reference (the tests compare the kernels with it) ------------------------------


def key_reference(stones: list[int], neighbours: Sequence[Sequence[int]], p: int, colour: int) -> float:
    """`_key` of a board for `colour`, from its exact integer scores."""
    scores = scores_reference(stones, neighbours, p)
    logs = [math.log(score) for score in scores]
    winner = max(range(p), key=lambda k: (scores[k], k))  # exact products: the later colour on a tie
    other = max(logs[k] for k in range(p) if k != colour)
    return (WIN if winner == colour else 0.0) + logs[colour] - other


def _turns(stones: list[int], p: int, first: int) -> Iterator[tuple[list[int], tuple[int, ...]]]:
    """Every way to place the stones of colours first … p − 1 on distinct empty cells."""
    empties = [c for c, v in enumerate(stones) if v == 0]
    for cells in itertools.permutations(empties, p - first):
        board = list(stones)
        for colour, cell in enumerate(cells, start=first):
            board[cell] = colour + 1
        yield board, cells


def last_turn_reference(stones: list[int], neighbours: Sequence[Sequence[int]], p: int, first: int) -> float:
    """The best key the last seat (colour p − 1) reaches with its stones of colours first … p − 1,
    trying every placement."""
    return max(key_reference(board, neighbours, p, p - 1) for board, _ in _turns(stones, p, first))


def second_to_last_reference(
    stones: list[int], neighbours: Sequence[Sequence[int]], p: int, first: int
) -> tuple[float, float]:
    """The second-to-last seat's best key (as `second_to_last` counts it), trying every placement
    and every reply: (lowest, highest) over the last seat's equally good replies (it may take any)."""
    low = high = -math.inf
    for board, _ in _turns(stones, p, first):
        worst = min(key_reference(final, neighbours, p, p - 2) for final, _ in _turns(board, p, 0))
        robust = 2 * WIN if worst >= WIN / 2 else 0.0
        replies = [(key_reference(final, neighbours, p, p - 1), key_reference(final, neighbours, p, p - 2))
                   for final, _ in _turns(board, p, 0)]  # fmt: skip
        top = max(theirs for theirs, _ in replies)
        mine = [ours for theirs, ours in replies if theirs >= top - TIE]
        low, high = max(low, robust + min(mine)), max(high, robust + max(mine))
    return low, high
