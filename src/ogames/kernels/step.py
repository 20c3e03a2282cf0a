"""The one place where the compiled search meets a game: a table of the board games' turn kernels
(`step_*` in `kernels/<game>.py`, beside the rules' kernels they mirror) keyed by the game's id,
which the search's adapter writes into `params[P_GAME]` (`kernels/layout.py`). The search
(`players/mcts/kernel.py`) calls only these functions and never asks which game it plays.

numba has no cheap first-class functions, so the table is a branch on the id in each function,
each branch one call of the game's kernel (leaves, compiled without reference counting, so that a
call costs next to nothing: `kernels/__init__.py`). The stone games' pie (`pie_open`,
`at_pie_point`, `moves_open_pie`, all false in Omega, whose P_PIE is 0) comes from `kernels/stones.py`.
"""

from __future__ import annotations

from numba import njit

from ogames.kernels import leaf, oddy, omega, omny, onyx
from ogames.kernels.layout import P_GAME, V_TURN, Array, Arrays
from ogames.kernels.stones import at_pie_point, moves_open_pie, pie_open

# The games' ids (`Adapter.code`).
ODDY, OMNY, OMEGA, ONYX = 0, 1, 2, 3

__all__ = [
    "ODDY", "OMEGA", "OMNY", "ONYX", "at_pie_point", "gen_moves", "mover", "moves_open_pie", "pie_open", "play_move", "playout",
]


@leaf
def mover(var: Array, owner: Array, params: Array) -> int:
    """The seat to act."""
    if params[P_GAME] == OMEGA:
        return omega.step_mover(var, owner)
    return int(owner[var[V_TURN]])


@leaf
def gen_moves(stones: Array, var: Array, owner: Array, params: Array, midpoint_corners: Array, out: Array) -> int:
    """Write the legal move codes (the rules' actions) into `out`; return how many."""
    game = params[P_GAME]
    if game == OMNY:
        return omny.step_moves(stones, var, params, out)
    if game == OMEGA:
        return omega.step_moves(stones, var, owner, params, out)
    if game == ONYX:
        return onyx.step_moves(stones, var, params, midpoint_corners, out)
    return oddy.step_moves(stones, var, params, out)


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
    game = params[P_GAME]
    if game == OMEGA:
        return omega.step_play(stones, var, owner, params, move, table, logs, work[1], mark, stamp, sums, ends)
    if game == OMNY:
        return omny.step_play(stones, var, owner, params, move, table, stars, star_list, work, mark, stamp, ends)
    if game == ONYX:
        return onyx.step_play(stones, var, owner, params, move, table, square_table, side_bits, work, mark, stamp, ends)
    return oddy.step_play(stones, var, owner, params, move, table, cell_sides, runs, work[1], mark, stamp, ends)


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
    game = params[P_GAME]
    if game == OMEGA:
        return omega.step_playout(stones, var, owner, params, table, logs, work, mark, stamp, sums)
    if game == OMNY:
        return omny.step_playout(stones, var, owner, params, table, stars, star_list, work, mark, stamp, bridges)
    if game == ONYX:
        return onyx.step_playout(
            stones, var, owner, params, table, square_table, side_bits, midpoint_corners, work, mark, stamp, moves_out
        )
    return oddy.step_playout(stones, var, owner, params, table, cell_sides, runs, work, mark, stamp, bridges)
