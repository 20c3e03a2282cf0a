"""The two-colour stone games' shared turn on the search's arrays (`kernels/layout.py`), as
`rules/stones.py` is their shared rules: the pie's swap, placing a stone, the legal cells, and the
playouts' fills that answer intrusions into bridges (Odd-Y, Omny). Each game's own turn kernels
(`step_*` in `kernels/oddy.py`, `omny.py`, `onyx.py`) call them; `tests/test_compiled_mcts.py`
plays them side by side with the rules, their plain reference.
"""

from __future__ import annotations

import numpy as np

from ogames.kernels import leaf
from ogames.kernels.layout import (
    P_BRIDGE,
    P_BRIDGE_SEAT,
    P_KOMI_PIE,
    P_N,
    P_PIE,
    P_PIE_AT,
    V_KOMI,
    V_PLACEMENTS,
    V_SWAPPED,
    V_TURN,
    V_WINNER,
    Array,
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
def cell_moves(stones: Array, var: Array, params: Array, out: Array) -> int:
    """The empty cells, then the swap when it is open, into `out`; how many."""
    n = params[P_N]
    count = 0
    for c in range(n):
        if stones[c] == 0:
            out[count] = c
            count += 1
    if pie_open(var, params):
        out[count] = n
        count += 1
    return count


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
