"""The two-colour stone games' shared turn on the search's arrays (`kernels/layout.py`), as
`rules/stones.py` is their shared rules: the pie's swap, placing a stone, the legal cells, a whole
move (`stone_play`) and a whole playout (`stone_playout`) with the playouts' fills that answer
intrusions into bridges (Odd-Y, Omny).

`stone_play` and `stone_playout` are written once and take the game's own pieces as arguments:
compiled functions from `kernels/<game>.py` (`step_wins`, `step_judge`, Omny's `step_komi`, Onyx's
`step_captures`), or None for a piece the game lacks. numba compiles a separate copy of the shared
body for each game's pieces, with direct calls (no function pointers), and drops the branches of a
None piece, so each game's turn runs as if written out for it (`kernels/step.py` picks the copy).
`tests/test_compiled_mcts.py` plays them side by side with the rules, their plain reference.

A piece's contract: `wins(stones, var, params, arrays, cell, work, mark, stamp)` says whether the
stone on `cell` made its colour win; it may use the marks `stamp` and `stamp + 1` (Omny's region
fill takes the second), so every test moves the stamp on by two. Given to `stone_playout` as None,
the game's playouts always fill the board and judge it once (Odd-Y's), and the stone-by-stone loop
is not compiled for it. `judge(stones, var, params, arrays, work, mark, stamp)` names the winning
colour of a full board (−1: none) and the next free stamp. `komi(var, params, move)` makes Omny's
komi choice, a code after the swap. `captures(stones, arrays, cell, work)` takes the stones a stone
on `cell` captures off the board.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ogames.kernels import leaf
from ogames.kernels.layout import (
    P_BRIDGE,
    P_BRIDGE_SEAT,
    P_FILL,
    P_KOMI_PIE,
    P_N,
    P_PIE,
    P_PIE_AT,
    P_TOTAL,
    V_KOMI,
    V_PLACEMENTS,
    V_SWAPPED,
    V_TURN,
    V_WINNER,
    Array,
    BoardArrays,
)


@leaf
def pie_open(var: Array, params: Array) -> bool:
    """Whether the side to move may swap now (never in Omega, whose P_PIE is 0)."""
    return (
        params[P_PIE] != 0
        and var[V_SWAPPED] == 0
        and var[V_TURN] == 1
        and var[V_WINNER] < 0
        and var[V_KOMI] >= 0
        and var[V_PLACEMENTS] == params[P_PIE_AT]
    )


@leaf
def at_pie_point(var: Array, params: Array) -> bool:
    """Whether a position is at or past the pie point: komi chosen and the stones placed after
    which the swap opens, so that the stones and the colour to move no longer depend on who owns
    which colour (the search's colour nodes, `players/mcts/kernel.py`, "The pie")."""
    return var[V_KOMI] >= 0 and var[V_PLACEMENTS] >= params[P_PIE_AT]


@leaf
def moves_open_pie(var: Array, params: Array) -> bool:
    """Whether every move from this position opens the swap: Black's stone one placement before
    the pie point, or, in Omny's komi choice without pie, the komi itself."""
    if params[P_PIE] == 0 or var[V_SWAPPED] != 0 or at_pie_point(var, params):
        return False
    if var[V_KOMI] < 0:
        return params[P_KOMI_PIE] == 0 and params[P_PIE_AT] == 0
    return var[V_TURN] == 0 and var[V_PLACEMENTS] + 1 == params[P_PIE_AT]


@leaf
def swap_seats(var: Array, owner: Array) -> None:
    """The pie's swap: the seats exchange colours; the stones and the colour to move stay."""
    owner[0], owner[1] = owner[1], owner[0]
    var[V_SWAPPED] = 1


@leaf
def place_stone(stones: Array, var: Array, move: int) -> int:
    """A stone of the colour to move on `move`; returns that colour (the turn passes later)."""
    turn = var[V_TURN]
    stones[move] = turn + 1
    var[V_PLACEMENTS] += 1
    return int(turn)


@leaf
def empty_cells(stones: Array, n: int, out: Array) -> int:
    """The empty cells of the first `n` into `out`; how many."""
    count = 0
    for c in range(n):
        if stones[c] == 0:
            out[count] = c
            count += 1
    return count


@leaf
def with_swap(var: Array, params: Array, out: Array, count: int) -> int:
    """After the `count` moves in `out`, the swap when it is open; how many moves now."""
    if pie_open(var, params):
        out[count] = params[P_N]
        count += 1
    return count


@leaf
def cell_moves(stones: Array, var: Array, params: Array, out: Array) -> int:
    """The empty cells, then the swap when it is open, into `out`; how many (Odd-Y's moves)."""
    return with_swap(var, params, out, empty_cells(stones, params[P_N], out))


@leaf
def playout_pie(var: Array, owner: Array, legal: int) -> None:
    """A playout meeting an open swap: the swap is one legal move among `legal` others, drawn at random."""
    if np.random.randint(0, legal + 1) == 0:
        swap_seats(var, owner)


@leaf
def empty_count(stones: Array) -> int:
    """How many cells are empty."""
    count = 0
    for c in range(stones.shape[0]):
        if stones[c] == 0:
            count += 1
    return count


@leaf
def shuffled_empties(stones: np.ndarray, order: np.ndarray) -> int:
    """Write the empty cells into `order` in a uniformly random order (numba's seeded RNG); return
    how many there are. The playouts' fills (`stone_playout`, Omega's, `oddy.playout_fill`) start from it."""
    count = 0
    for c in range(stones.shape[0]):
        if stones[c] == 0:
            order[count] = c
            count += 1
    for k in range(count - 1, 0, -1):
        j = np.random.randint(0, k + 1)
        order[k], order[j] = order[j], order[k]
    return count


# ----- fills that answer the stone before (Odd-Y, Omny) ------------------------------------------


@leaf
def bridge_answer(stones: Array, bridges: Array, last: int, value: int) -> int:
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
def answering_colours(owner: Array, params: Array) -> int:
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
def fill(
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
            d = bridge_answer(stones, bridges, last, turn + 1) if (use_bridges >> turn) & 1 else -1
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


# ----- a whole move and a whole playout, with the game's pieces --------------------------------


@leaf
def stone_play(
    stones: Array, var: Array, owner: Array, params: Array, move: int, arrays: BoardArrays,
    work: Array, mark: Array, stamp: int, ends: bool,
    wins: Callable[..., bool], komi: Callable[..., None] | None, captures: Callable[..., None] | None,
) -> int:
    """A stone game's move: Omny's komi choice, the swap, or a stone, its captures (made even when
    the move is known not to end the game: they change the position) and, if `ends`, the win test;
    then the turn passes. Returns the next free stamp."""
    n = params[P_N]
    if komi is not None and move > n:
        komi(var, params, move)
        return stamp
    if move == n:
        swap_seats(var, owner)
        return stamp
    turn = place_stone(stones, var, move)
    if captures is not None:
        captures(stones, arrays, move, work)
    if ends:
        if wins(stones, var, params, arrays, move, work, mark, stamp):
            var[V_WINNER] = turn
        stamp += 2
    var[V_TURN] = 1 - turn
    return stamp


@leaf  # allocates nothing: no reference counting, not even for the rows of `work`
def stone_playout(
    stones: Array, var: Array, owner: Array, params: Array, arrays: BoardArrays,
    work: Array, mark: Array, stamp: int, bridges: Array,
    wins: Callable[..., bool] | None, judge: Callable[..., tuple[int, int]], komi: Callable[..., None] | None,
) -> tuple[int, int, int]:
    """A playout of a stone game without captures (Odd-Y, Omny): an unchosen komi drawn uniformly,
    the pie drawn like any move, then the empty cells filled in a random order, answering bridges
    as asked. With P_FILL (Odd-Y; Omny when S + 2k is odd) one colour only can win on the full
    board and the first to win is that one, so one fill and one `judge` decide; otherwise every
    stone is tested. Returns (winning seat, next stamp, −1: the playout's moves are read from the
    final board)."""
    if komi is not None and var[V_KOMI] < 0:
        komi(var, params, params[P_N] + 1 + np.random.randint(0, params[P_TOTAL] + 1))
    if pie_open(var, params):
        playout_pie(var, owner, empty_count(stones))
    turn = var[V_TURN]
    answers = answering_colours(owner, params)
    order, where = work[3], work[4]
    count = shuffled_empties(stones, order)
    if answers != 0:
        for k in range(count):
            where[order[k]] = k
    if wins is None or params[P_FILL] != 0:  # None: the game's playouts always fill (Odd-Y)
        fill(stones, order, where, 0, count, -1, turn, bridges, answers)
        colour, stamp = judge(stones, var, params, arrays, work, mark, stamp)
        return owner[max(colour, 0)], stamp, -1  # a colour always wins: there are no draws
    cell = -1
    for k in range(count):
        cell = fill(stones, order, where, k, k + 1, cell, turn, bridges, answers)
        won = wins(stones, var, params, arrays, cell, work, mark, stamp)
        stamp += 2
        if won:
            return owner[turn], stamp, -1
        turn = 1 - turn
    return owner[0], stamp, -1  # unreachable: no draws
