"""Omny's hot paths (RULES.md §1), compiled with numba, each beside a plain-Python reference.

Conventions as in `flood.py`: `stones` holds 0 empty, 1 black, 2 white; `table` is the board's
padded neighbour table; `stars` is a boolean mask of the star cells and `total` their number S.
A colour's `bound` is S − 2k for Black and S + 2k for White (k = komi): a group satisfies the win
condition when every region R of it has 2·stars(R) ≤ bound, in exact integers.

A playout runs the test after every stone, so `group_wins_into` reuses its buffers (stamped
marks, no clearing): the group is `flood.fill_group_stamped`, and the region fill is written out
rather than built on `flood.components` because it stops inside the first region found with too
many stars; that made playouts 1.5–2.5× faster.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from ogames.kernels import leaf, reference
from ogames.kernels.flood import fill_group_stamped
from ogames.kernels.layout import P_KOMI_PIE, P_N, P_TOTAL, V_KOMI, V_TURN, Array, BoardArrays
from ogames.kernels.stones import cell_moves

NO_WINNER = -1


@leaf
def group_wins_into(
    stones: np.ndarray,
    table: np.ndarray,
    stars: np.ndarray,
    star_list: np.ndarray,
    total: int,
    cell: int,
    bound: int,
    group: np.ndarray,
    queue: np.ndarray,
    mark: np.ndarray,
    stamp: int,
) -> tuple[bool, int]:
    """`group_wins` without allocation, for playouts: `mark` (int64, one per cell) must hold no
    value ≥ `stamp`; this call writes `stamp` (group) and `stamp + 1` (regions) into it."""
    in_group, in_region = stamp, stamp + 1
    count = fill_group_stamped(stones, table, cell, mark, in_group, group)
    inside = 0
    for i in range(count):
        if stars[group[i]]:
            inside += 1
    # Cheap sufficient test: even if every outside star shared one region, it would fit.
    if 2 * (total - inside) <= bound:
        return True, count
    # Fill only the regions that hold stars, one at a time, and stop at the first that has too many.
    for i in range(star_list.shape[0]):
        seed = star_list[i]
        if mark[seed] == in_group or mark[seed] == in_region:
            continue
        mark[seed] = in_region
        queue[0] = seed
        tail, head, found = 1, 0, 0
        while head < tail:
            here = queue[head]
            head += 1
            if stars[here]:
                found += 1
                if 2 * found > bound:
                    return False, count
            for k in range(table.shape[1]):
                other = table[here, k]
                if other < 0:
                    break
                if mark[other] != in_group and mark[other] != in_region:
                    mark[other] = in_region
                    queue[tail] = other
                    tail += 1
    return True, count


@njit(cache=True)
def group_wins(
    stones: np.ndarray, table: np.ndarray, stars: np.ndarray, total: int, cell: int, bound: int, group: np.ndarray
) -> tuple[bool, int]:
    """Whether the group holding `cell` has every region with 2·stars ≤ bound; its cells go into
    `group` and the second value is how many there are."""
    n = stones.shape[0]
    star_list = np.flatnonzero(stars).astype(np.int32)
    queue = np.empty(n, dtype=np.int32)
    mark = np.zeros(n, dtype=np.int64)
    return group_wins_into(stones, table, stars, star_list, total, cell, bound, group, queue, mark, 1)


@njit(cache=True)
def win_test_buffers(stones: np.ndarray, stars: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What a fill's repeated `group_wins_into` calls share, made once per fill: the star cells,
    and scratch for a group's cells, the search queue and the marks (all unmarked: stamps start at 1)."""
    n = stones.shape[0]
    return np.flatnonzero(stars).astype(np.int32), np.empty(n, np.int32), np.empty(n, np.int32), np.zeros(n, np.int64)


@njit(cache=True)
def fill_winner(
    stones: np.ndarray, table: np.ndarray, stars: np.ndarray, total: int, turn: int,
    black_bound: int, white_bound: int, order: np.ndarray, once: bool = False,
) -> int:
    """Place alternating stones (colour `turn` first) on the empty cells in `order`, testing the
    mover's group after every placement; return the first colour index to win (−1 if none).
    `once`, for S + 2k (= white_bound) odd: no race is possible then, so the first colour to meet
    its condition is the one colour that meets it on the full board: fill every empty cell, then
    judge the full board once."""
    board = stones.copy()
    star_list, group, queue, mark = win_test_buffers(stones, stars)
    stamp = 1
    for i in range(order.shape[0]):
        cell = order[i]
        if board[cell] != 0:
            continue
        board[cell] = turn + 1
        if not once:
            bound = black_bound if turn == 0 else white_bound
            wins, _ = group_wins_into(board, table, stars, star_list, total, cell, bound, group, queue, mark, stamp)
            stamp += 2
            if wins:
                return turn
        turn = 1 - turn
    if not once:
        return NO_WINNER
    sizes, reps = np.empty(board.shape[0], dtype=np.int32), np.empty(board.shape[0], dtype=np.int32)
    bounds = (black_bound, white_bound)
    colour, _ = full_board_winner(board, table, stars, star_list, total, *bounds, group, queue, mark, stamp, sizes, reps)
    return colour


@leaf
def full_board_winner(
    board: np.ndarray,
    table: np.ndarray,
    stars: np.ndarray,
    star_list: np.ndarray,
    total: int,
    black_bound: int,
    white_bound: int,
    group: np.ndarray,
    queue: np.ndarray,
    mark: np.ndarray,
    stamp: int,
    sizes: np.ndarray,
    reps: np.ndarray,
) -> tuple[int, int]:
    """A full board with S + 2k odd: the colour index with a group meeting the win condition
    (exactly one has one; −1 would break the rules), and the next free `stamp`. Groups are tried
    largest first: the winning group is nearly always the largest. `sizes` and `reps` hold one
    entry per group (n will do)."""
    n = board.shape[0]
    count = 0
    for seed in range(n):
        value = board[seed]
        if value == 0 or mark[seed] == stamp:
            continue
        sizes[count] = fill_group_stamped(board, table, seed, mark, stamp, queue)
        reps[count] = seed
        count += 1
    stamp += 1
    for _ in range(count):
        best = -1
        for g in range(count):
            if sizes[g] > 0 and (best < 0 or sizes[g] > sizes[best]):
                best = g
        sizes[best] = 0
        cell = reps[best]
        colour = board[cell] - 1
        bound = black_bound if colour == 0 else white_bound
        wins, _ = group_wins_into(board, table, stars, star_list, total, cell, bound, group, queue, mark, stamp)
        stamp += 2
        if wins:
            return colour, stamp
    return -1, stamp


@njit(cache=True)
def random_playout(
    stones: np.ndarray,
    table: np.ndarray,
    stars: np.ndarray,
    total: int,
    turn: int,
    black_bound: int,
    white_bound: int,
    seed: int,
) -> int:
    """The winning colour index of a uniformly random fill of the empty cells (seeded)."""
    np.random.seed(seed)
    empty = np.flatnonzero(stones == 0).astype(np.int32)
    np.random.shuffle(empty)
    return fill_winner(stones, table, stars, total, turn, black_bound, white_bound, empty, white_bound % 2 == 1)


# ----- plain-Python references -----------------------------------------------------------------


def region_stars_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], stars: Sequence[bool] | np.ndarray, cell: int
) -> tuple[set[int], list[int]]:
    """The group holding `cell` and the star count of each of its regions."""
    group = reference.group_of(stones, neighbours, cell)
    blocked = [c in group for c in range(len(stones))]
    regions = reference.components(blocked, neighbours)
    return group, [sum(1 for c in region if stars[c]) for region in regions]


def group_wins_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], stars: Sequence[bool] | np.ndarray, cell: int, bound: int
) -> tuple[bool, set[int]]:
    """Reference for `group_wins`: (satisfied, the group's cells)."""
    group, counts = region_stars_reference(stones, neighbours, stars, cell)
    return all(2 * count <= bound for count in counts), group


def satisfied_colours_reference(
    stones: Sequence[int], neighbours: Sequence[Sequence[int]], stars: Sequence[bool], black_bound: int, white_bound: int
) -> set[int]:
    """Colour indices (0 black, 1 white) having at least one group that satisfies the win condition."""
    found: set[int] = set()
    seen: set[int] = set()
    for cell, value in enumerate(stones):
        if value == 0 or cell in seen:
            continue
        bound = black_bound if value == 1 else white_bound
        wins, group = group_wins_reference(stones, neighbours, stars, cell, bound)
        seen |= group
        if wins:
            found.add(value - 1)
    return found


def fill_winner_reference(
    stones: Sequence[int],
    neighbours: Sequence[Sequence[int]],
    stars: Sequence[bool],
    turn: int,
    black_bound: int,
    white_bound: int,
    order: Sequence[int],
) -> int:
    """Reference for `fill_winner`."""
    board = list(stones)
    for cell in order:
        if board[cell] != 0:
            continue
        board[cell] = turn + 1
        bound = black_bound if turn == 0 else white_bound
        if group_wins_reference(board, neighbours, stars, cell, bound)[0]:
            return turn
        turn = 1 - turn
    return NO_WINNER


# ----- the compiled search's pieces (`kernels/stones.py` has the turn; `kernels/layout.py` the arrays) --


@leaf
def step_moves(stones: Array, var: Array, params: Array, out: Array) -> int:
    """Omny's legal move codes into `out` (every komi while it is unchosen); how many."""
    if var[V_KOMI] < 0:
        n = params[P_N]
        count = 0
        for twice in range(params[P_TOTAL] + 1):
            out[count] = n + 1 + twice
            count += 1
        return count
    return cell_moves(stones, var, params, out)


@leaf
def step_komi(var: Array, params: Array, move: int) -> None:
    """The komi chosen (the code n + 1 + 2k); with no pie to follow, White places first."""
    var[V_KOMI] = move - params[P_N] - 1
    if params[P_KOMI_PIE] == 0:
        var[V_TURN] = 1


@leaf
def step_wins(
    stones: Array, var: Array, params: Array, arrays: BoardArrays, cell: int, work: Array, mark: Array, stamp: int
) -> bool:
    """Whether the group of the stone on `cell` meets the region test against its colour's bound."""
    total = params[P_TOTAL]
    bound = total - var[V_KOMI] if stones[cell] == 1 else total + var[V_KOMI]
    table, stars, star_list = arrays.table, arrays.stars, arrays.star_list
    wins, _ = group_wins_into(stones, table, stars, star_list, total, cell, bound, work[0], work[1], mark, stamp)
    return wins


@leaf
def step_judge(
    stones: Array, var: Array, params: Array, arrays: BoardArrays, work: Array, mark: Array, stamp: int
) -> tuple[int, int]:
    """The full board's colour meeting the win condition (S + 2k odd: exactly one does)."""
    total = params[P_TOTAL]
    bounds = total - var[V_KOMI], total + var[V_KOMI]
    table, stars, star_list = arrays.table, arrays.stars, arrays.star_list
    return full_board_winner(stones, table, stars, star_list, total, *bounds, work[0], work[1], mark, stamp, work[4], work[5])
