"""The positions of the compiled search: the games' turn structure on flat arrays (moves, the
mover, playing a move, random playouts) for Omny, Odd-Y, Omega and Onyx. The tree search
(`kernel.py`) calls them; these are the game-specific pieces, grouped here so that each game's
can move beside its rules (`ogames.kernels.<game>`) without touching the search.

**Positions** are three arrays: `stones` (int8, 0 empty, k + 1 colour k), `var` (int64, the
V_* slots below) and `owner` (int64, colour → seat; the pie rule changes it, never the stones).
Move codes are the rules' actions (`Game.actions`, `rules/actions.py`): the cells, then the
specials: `n` is the stone games' `swap`, `n + c` Omega's `swap <colour c>`, `n + 1 + 2k` Omny's
`komi=k` (with `n + 1 + twice`).

**Rules** are the games' own: win tests call the kernels of `ogames.kernels` (Omny's region star
test `omny.group_wins_into`, Odd-Y's winning-sides test `oddy.group_wins_into`, Onyx's
`connects_into` and `find_captures`, groups by `flood.fill_group_stamped`; Omega's end and score
follow `rules/omega.py`); the plain references are tested against them in the test suite.

**Playouts** follow the games' own random-playout kernels (and their distribution: a pending
`swap` is one legal move among the others, an unchosen komi is uniform). Odd-Y, and Omny when S + 2k
is odd (no race), fill the board once and find the one colour with a winning group (see
`kernels/oddy.py` for why that is the winner of the game played move by move; for Omny the same
holds: the condition is monotone and only one colour can hold it on a full board). Omny with S + 2k
even tests after every stone; Onyx plays move by move with captures; Omega fills to its end and
compares sums of log group sizes (exact ties go to the later colour, as the rules say). The fills
of Odd-Y and Omny may answer the stone before (`_fill`): the bridge it intruded into is saved
(P_BRIDGE; by every seat's stones, or with P_BRIDGE_SEAT by the searching seat's only: the
opponent modelled weak, `_answering_colours`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from ogames.kernels import leaf
from ogames.kernels.flood import fill_group_stamped
from ogames.kernels.oddy import group_wins_into as group_wins_odd_y
from ogames.kernels.oddy import shuffled_empties
from ogames.kernels.omny import full_board_winner as _omny_full_winner
from ogames.kernels.omny import group_wins_into
from ogames.kernels.onyx import (
    GOALS,
    bag_add,
    bag_remove,
    connects_into,
    empty_bag,
    find_captures,
    midpoint_open,
    random_open_cell,
)

Array = npt.NDArray[Any]  # the kernels' arrays (numba types them by the arrays passed)
Arrays = tuple[Array, ...]  # a board's rule arrays (`Adapter.rule_arrays`)

# Games.
ODDY, OMNY, OMEGA, ONYX = 0, 1, 2, 3

# var slots.
V_TURN = 0  # colour index to move (Omega: the colour of the next stone)
V_SWAPPED = 1  # stone games: the pie swap happened
V_PLACEMENTS = 2  # stone games: stones placed (pie needs it)
V_KOMI = 3  # Omny: twice the komi, −1 while unchosen
V_WINNER = 4  # winning colour, −1 while the game goes on
V_TURNCOL = 5  # Omega: whose turn by colour
V_PIESEAT = 6  # Omega: the seat acting in the pie phase, −1 outside it
V_PLAYED = 7  # Omega: seats that played (did not swap) in the pie phase
NVARS = 8

# params slots (int64): the game's, then the search's.
P_GAME = 0
P_N = 1
P_SEATS = 2
P_COLOURS = 3
P_PIE = 4  # stone games: swap may happen at all (pie on, or Omny's komi choice)
P_PIE_AT = 5  # stone games: placements made when swap is open
P_TOTAL = 6  # Omny: star cells S
P_END_EMPTY = 7  # Omega: cells left empty at the end
P_FILL = 8  # Omny: S + 2k is odd, so one fill and one test decide a playout
P_KOMI_PIE = 9  # Omny komi choice with pie: Black places a stone after choosing komi
P_RAVE = 10
P_SOLVER = 11
P_EXPAND = 12  # visits a node has before its children are made
P_BRIDGE = 13  # playouts answer an intrusion into a bridge (Odd-Y, Omny)
P_BRIDGE_SEAT = 14  # with P_BRIDGE: only this seat's stones answer (the opponent's fill at random); −1 every seat's
P_SHARED = 15  # stone games with a swap: statistics by colour from the pie point on (kernel.py, "The pie")
NPARAMS = 16


# ----- Omega: the end of a turn and the score -----------------------------------------------------


@leaf
def _omega_scores(
    stones: Array,
    table: Array,
    colours: int,
    logs: Array,
    queue: Array,
    mark: Array,
    stamp: int,
    sums: Array,
) -> int:
    """Omega: the colour with the highest product of group sizes (sums of logs; a tie within
    1e-9 goes to the later colour, the rules' tie-break); the sums per colour are left in `sums`."""
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
def _omega_end_turn(
    stones: Array,
    var: Array,
    params: Array,
    played: int,
    table: Array,
    logs: Array,
    queue: Array,
    mark: Array,
    stamp: int,
    sums: Array,
    ends: bool = True,
) -> None:
    p = params[P_COLOURS]
    if var[V_PIESEAT] >= 0:
        var[V_PLAYED] += played
        var[V_PIESEAT] += 1
        if var[V_PIESEAT] < p:
            return
        var[V_PIESEAT] = -1
        var[V_TURNCOL] = var[V_PLAYED] % p
    else:
        var[V_TURNCOL] = (var[V_TURNCOL] + 1) % p
    if var[V_TURNCOL] == 0 and ends:
        empty = 0
        for c in range(stones.shape[0]):
            if stones[c] == 0:
                empty += 1
        if empty < p * p:
            var[V_WINNER] = _omega_scores(stones, table, p, logs, queue, mark, stamp, sums)



# ----- positions: moves, mover, playing a move ---------------------------------------------------


@leaf
def _mover(var: Array, owner: Array, params: Array) -> int:
    if params[P_GAME] == OMEGA:
        if var[V_PIESEAT] >= 0:
            return var[V_PIESEAT]
        return owner[var[V_TURNCOL]]
    return owner[var[V_TURN]]


@leaf
def _pie_open(var: Array, params: Array) -> bool:
    return (
        params[P_PIE] != 0
        and var[V_SWAPPED] == 0
        and var[V_TURN] == 1
        and var[V_WINNER] < 0
        and var[V_KOMI] >= 0
        and var[V_PLACEMENTS] == params[P_PIE_AT]
    )


@leaf
def gen_moves(stones: Array, var: Array, owner: Array, params: Array, midpoint_corners: Array, out: Array) -> int:
    """Write the legal move codes into `out`; return how many."""
    n = params[P_N]
    game = params[P_GAME]
    count = 0
    if game == OMNY and var[V_KOMI] < 0:
        for twice in range(params[P_TOTAL] + 1):
            out[count] = n + 1 + twice
            count += 1
        return count
    for c in range(n):
        if stones[c] == 0:
            if game == ONYX and not midpoint_open(stones, midpoint_corners, c):
                continue
            out[count] = c
            count += 1
    if game == OMEGA:
        seat = var[V_PIESEAT]
        if seat >= 1 and var[V_TURN] == 0:
            for colour in range(params[P_COLOURS]):
                if owner[colour] < seat:
                    out[count] = n + colour
                    count += 1
    elif _pie_open(var, params):
        out[count] = n
        count += 1
    return count


@leaf
def play_move(
    stones: Array,
    var: Array,
    owner: Array,
    params: Array,
    move: int,
    arrays: Arrays,
    logs: Array,
    work: Array,
    mark: Array,
    stamp: int,
    sums: Array,
    ends: bool = True,
) -> int:
    """Make one move; set var[V_WINNER] when it ends the game. Returns the next free stamp.
    `sums` is scratch for Omega's scores (4 floats).
    `arrays` is the board's tuple (table, stars, star_list, cell_sides, runs, square_table,
    side_bits): `Adapter.rule_arrays()`. `ends` False: the caller knows that the move does not
    end the game (a tree node reached before), so the tests for the end are skipped."""
    table, stars, star_list, cell_sides, runs, square_table, side_bits = arrays
    n = params[P_N]
    game = params[P_GAME]
    group = work[0]
    queue = work[1]
    if game == OMEGA:
        if move >= n:  # swap with the holder of colour move − n
            seat = var[V_PIESEAT]
            mine = 0
            for colour in range(params[P_COLOURS]):
                if owner[colour] == seat:
                    mine = colour
            target = move - n
            owner[mine], owner[target] = owner[target], owner[mine]
            _omega_end_turn(stones, var, params, 0, table, logs, queue, mark, stamp, sums, ends)
            return stamp + 1
        stones[move] = var[V_TURN] + 1
        var[V_TURN] += 1
        if var[V_TURN] == params[P_COLOURS]:
            var[V_TURN] = 0
            _omega_end_turn(stones, var, params, 1, table, logs, queue, mark, stamp, sums, ends)
        return stamp + 1
    if move > n:  # Omny komi choice
        var[V_KOMI] = move - n - 1
        if params[P_KOMI_PIE] == 0:
            var[V_TURN] = 1
        return stamp
    if move == n:  # pie swap: seats exchange colours, the colour to move stays
        owner[0], owner[1] = owner[1], owner[0]
        var[V_SWAPPED] = 1
        return stamp
    turn = var[V_TURN]
    stones[move] = turn + 1
    var[V_PLACEMENTS] += 1
    if not ends:
        if game == ONYX:  # captures change the position: they are made all the same
            taken = find_captures(stones, square_table, move, work[2])
            for k in range(taken):
                stones[work[2][k]] = 0
        var[V_TURN] = 1 - turn
        return stamp
    if game == ODDY:
        if group_wins_odd_y(stones, table, cell_sides, runs, move, queue, mark, stamp):
            var[V_WINNER] = turn
        stamp += 1
    elif game == OMNY:
        total = params[P_TOTAL]
        bound = total - var[V_KOMI] if turn == 0 else total + var[V_KOMI]
        wins, _ = group_wins_into(stones, table, stars, star_list, total, move, bound, group, queue, mark, stamp)
        if wins:
            var[V_WINNER] = turn
        stamp += 2
    else:  # ONYX
        taken = find_captures(stones, square_table, move, work[2])
        for k in range(taken):
            stones[work[2][k]] = 0
        if connects_into(stones, table, side_bits, GOALS[stones[move]], move, queue, mark, stamp):
            var[V_WINNER] = turn
        stamp += 1
    var[V_TURN] = 1 - turn
    return stamp


# ----- playouts ----------------------------------------------------------------------------------


@leaf
def _bridge_answer(stones: Array, bridges: Array, last: int, value: int) -> int:
    """The cell that saves a bridge of colour `value` that a stone on `last` just intruded into
    (two `value` stones sharing exactly two empty neighbours, `last` one of them), or −1."""
    for j in range(bridges.shape[1]):
        d = bridges[last, j, 0]
        if d < 0:
            break
        if stones[d] == 0 and stones[bridges[last, j, 1]] == value and stones[bridges[last, j, 2]] == value:
            return d
    return -1


@leaf
def _answering_colours(owner: Array, params: Array) -> int:
    """The colours whose playout stones save their bridges, as bits (colour c: bit c): none
    without P_BRIDGE, both, or only the colour of P_BRIDGE_SEAT (read after the playout's pie, so
    a swap moves the answers with the seat)."""
    if params[P_BRIDGE] == 0:
        return 0
    seat = params[P_BRIDGE_SEAT]
    bits = 0
    for colour in range(2):
        if seat < 0 or owner[colour] == seat:
            bits |= 1 << colour
    return bits


@leaf
def _fill(
    stones: Array,
    order: Array,
    where: Array,
    start: int,
    stop: int,
    last: int,
    turn: int,
    bridges: Array,
    use_bridges: int,
) -> int:
    """Place the stones of positions `start` to `stop` − 1 of the fill `order` (the empty cells,
    shuffled), colours alternating from colour `turn`, after a stone on `last` (−1: none). Each
    stone goes on the next cell of the order unless it answers the stone before: the bridge it
    saves (`bridges`, if its colour's bit is set in `use_bridges`), which is then moved up to its
    turn. `order` is left in play order; `where` holds each cell's position in it (filled by the
    caller when answers are on). Returns the last cell."""
    answers = use_bridges != 0
    for k in range(start, stop):
        cell = order[k]
        if answers and last >= 0:
            d = _bridge_answer(stones, bridges, last, turn + 1) if (use_bridges >> turn) & 1 else -1
            if d >= 0:
                pos = where[d]
                order[pos] = cell
                where[cell] = pos
                order[k] = d
                where[d] = k
                cell = d
        stones[cell] = turn + 1
        last = cell
        turn = 1 - turn
    return last


@njit(cache=True)
def playout(
    stones: Array,
    var: Array,
    owner: Array,
    params: Array,
    arrays: Arrays,
    midpoint_corners: Array,
    logs: Array,
    work: Array,
    mark: Array,
    stamp: int,
    moves_out: Array,
    bridges: Array,
    sums: Array,
) -> tuple[int, int, int]:
    """Finish the game at random from this position (changed in place). Returns (winning seat,
    next stamp, moves recorded in `moves_out` as cell * 4 + colour for AMAF, −1 if the
    playout's moves are read from the final board instead). Omega leaves each colour's score
    (sum of log group sizes) in `sums`."""
    table, stars, star_list, cell_sides, runs, square_table, side_bits = arrays
    n = params[P_N]
    game = params[P_GAME]
    order = work[3]
    if game == OMEGA:
        p = params[P_COLOURS]
        count = shuffled_empties(stones, order)
        to_place = count - params[P_END_EMPTY]
        colour = var[V_TURN]
        for i in range(to_place):
            stones[order[i]] = colour + 1
            colour += 1
            if colour == p:
                colour = 0
        winner = _omega_scores(stones, table, p, logs, work[1], mark, stamp, sums)
        return owner[winner], stamp + 1, -1
    if game == OMNY and var[V_KOMI] < 0:
        komi = n + 1 + np.random.randint(0, params[P_TOTAL] + 1)
        stamp = play_move(stones, var, owner, params, komi, arrays, logs, work, mark, stamp, sums)
    if _pie_open(var, params):
        legal = 0
        for c in range(n):
            if stones[c] == 0 and (game != ONYX or midpoint_open(stones, midpoint_corners, c)):
                legal += 1
        if np.random.randint(0, legal + 1) == 0:
            owner[0], owner[1] = owner[1], owner[0]
            var[V_SWAPPED] = 1
    turn = var[V_TURN]
    use_bridges = _answering_colours(owner, params)
    where = work[4]
    if game == ODDY or game == OMNY:
        count = shuffled_empties(stones, order)
        if use_bridges != 0:
            for k in range(count):
                where[order[k]] = k
    if game == ODDY:
        _fill(stones, order, where, 0, count, -1, turn, bridges, use_bridges)
        # Exactly one colour has winning groups on the full board: the first found decides.
        queue = work[1]
        for seed in range(n):
            if mark[seed] == stamp:
                continue
            if group_wins_odd_y(stones, table, cell_sides, runs, seed, queue, mark, stamp):
                return owner[stones[seed] - 1], stamp + 1, -1
        return owner[0], stamp + 1, -1  # unreachable: Odd-Y has no draws
    if game == OMNY:
        total = params[P_TOTAL]
        black_bound = total - var[V_KOMI]
        white_bound = total + var[V_KOMI]
        if params[P_FILL] != 0:
            _fill(stones, order, where, 0, count, -1, turn, bridges, use_bridges)
            colour, stamp = _omny_full_winner(
                stones, table, stars, star_list, total, black_bound, white_bound, work[0], work[1], mark, stamp, work[4], work[5]
            )
            return owner[max(colour, 0)], stamp, -1
        cell = -1
        for k in range(count):
            cell = _fill(stones, order, where, k, k + 1, cell, turn, bridges, use_bridges)
            bound = black_bound if turn == 0 else white_bound
            wins, _ = group_wins_into(stones, table, stars, star_list, total, cell, bound, work[0], work[1], mark, stamp)
            stamp += 2
            if wins:
                return owner[turn], stamp, -1
            turn = 1 - turn
        return owner[0], stamp, -1  # unreachable: Omny has no draws
    # ONYX: move by move, captures reopen points.
    empties = order
    where = work[4]
    count = empty_bag(stones, empties, where)
    captured = work[2]
    recorded = 0
    while count > 0:
        cell = random_open_cell(stones, midpoint_corners, empties, count, 64 * n)
        if cell < 0:
            break
        stones[cell] = turn + 1
        count = bag_remove(empties, where, count, cell)
        if recorded < moves_out.shape[0]:
            moves_out[recorded] = cell * 4 + turn
            recorded += 1
        taken = find_captures(stones, square_table, cell, captured)
        for k in range(taken):
            stones[captured[k]] = 0
            count = bag_add(empties, where, count, captured[k])
        if connects_into(stones, table, side_bits, GOALS[stones[cell]], cell, work[1], mark, stamp):
            return owner[turn], stamp + 1, recorded
        stamp += 1
        turn = 1 - turn
    return -1, stamp, recorded  # no legal move left (the rules never allow it): a shared result
