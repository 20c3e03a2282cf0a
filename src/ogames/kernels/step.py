"""The one place where the compiled search meets a game: a table of the board games' turns keyed
by the game's id, which the search's adapter writes into `params[P_GAME]` (`kernels/layout.py`).
The search (`players/mcts/kernel.py`) calls only these functions and never asks which game it plays.

The stone games share one move and one playout (`stone_play`, `stone_playout` in
`kernels/stones.py`), given each game's own pieces (`step_*` in `kernels/<game>.py`, beside the
rules' kernels they mirror); Omega has its own turn and Onyx its own playout (captures reopen
points). numba has no cheap first-class functions, so the table is a branch on the id in each
function, each branch one call (leaves, compiled without reference counting, so that a call costs
next to nothing: `kernels/__init__.py`). The stone games' pie (`pie_open`, `at_pie_point`,
`moves_open_pie`, all false in Omega, whose P_PIE is 0) comes from `kernels/stones.py`.
"""

from __future__ import annotations

from numba import njit

from ogames.kernels import leaf, oddy, omega, omny, onyx
from ogames.kernels.layout import P_GAME, V_TURN, Array, BoardArrays
from ogames.kernels.stones import at_pie_point, cell_moves, moves_open_pie, pie_open, stone_play, stone_playout

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
    return cell_moves(stones, var, params, out)


@leaf
def play_move(
    stones: Array, var: Array, owner: Array,
    params: Array, move: int, arrays: BoardArrays,
    logs: Array, work: Array, mark: Array, stamp: int, sums: Array,
    ends: bool = True,
) -> int:
    """Make one move; set var[V_WINNER] when it ends the game. Returns the next free stamp.
    `arrays` is the board's rule arrays (`Adapter.rule_arrays()`); `logs` and `sums` serve
    Omega's scores (sums: 4 floats of scratch). `ends` False: the caller knows that the move does
    not end the game (a tree node reached before), so the tests for the end are skipped."""
    game = params[P_GAME]
    if game == OMEGA:
        return omega.step_play(stones, var, owner, params, move, arrays.table, logs, work[1], mark, stamp, sums, ends)
    # The stone games: their pieces (win test, komi, captures) given to the shared move.
    if game == OMNY:
        return stone_play(stones, var, owner, params, move, arrays, work, mark, stamp, ends, omny.step_wins, omny.step_komi, None)
    if game == ONYX:
        return stone_play(
            stones, var, owner, params, move, arrays, work, mark, stamp, ends, onyx.step_wins, None, onyx.step_captures
        )
    return stone_play(stones, var, owner, params, move, arrays, work, mark, stamp, ends, oddy.step_wins, None, None)


@njit(cache=True)
def playout(
    stones: Array, var: Array, owner: Array,
    params: Array, arrays: BoardArrays, midpoint_corners: Array,
    logs: Array, work: Array, mark: Array, stamp: int,
    moves_out: Array, bridges: Array, sums: Array,
) -> tuple[int, int, int]:
    """Finish the game at random from this position (changed in place). Returns (winning seat,
    next stamp, moves recorded in `moves_out` as cell * 4 + colour for AMAF, −1 if the
    playout's moves are read from the final board instead). Omega leaves each colour's score
    (sum of log group sizes) in `sums`."""
    game = params[P_GAME]
    if game == OMEGA:
        return omega.step_playout(stones, var, owner, params, arrays.table, logs, work, mark, stamp, sums)
    if game == ONYX:
        return onyx.step_playout(stones, var, owner, params, arrays, midpoint_corners, work, mark, stamp, moves_out)
    # The stone games without captures: their pieces (win test, judge, komi) given to the shared playout.
    if game == OMNY:
        return stone_playout(
            stones, var, owner, params, arrays, work, mark, stamp, bridges, omny.step_wins, omny.step_judge, omny.step_komi
        )
    return stone_playout(stones, var, owner, params, arrays, work, mark, stamp, bridges, None, oddy.step_judge, None)
