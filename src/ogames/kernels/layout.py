"""A position of a board game as the compiled search's flat arrays: the slots every game's turn
kernel (`step_*` in `kernels/<game>.py`) and the search (`players/mcts/kernel.py`) agree on.

**Positions** are three arrays: `stones` (int8, 0 empty, k + 1 colour k), `var` (int64, the V_*
slots below) and `owner` (int64, colour → seat; the pie rule changes it, never the stones). Move
codes are the rules' actions (`Game.actions`, `rules/actions.py`): the cells, then the specials:
`n` is the stone games' `swap`, `n + c` Omega's `swap <colour c>`, `n + 1 + 2k` Omny's `komi=k`
(with `n + 1 + twice`). `params` (int64, the P_* slots) holds the game's constants, then the
search's settings that the playouts read.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy.typing as npt

Array = npt.NDArray[Any]  # the kernels' arrays (numba types them by the arrays passed)


class BoardArrays(NamedTuple):
    """A board's rule arrays, one tuple for every game (`Adapter.rule_arrays`); a game's turn
    kernels read the fields they need (numba compiles `arrays.table` to a plain field access).
    A game without one of them holds a one-cell placeholder."""

    table: Array  # the padded neighbour table
    stars: Array  # Omny: the star cells' mask
    star_list: Array  # Omny: the star cells
    cell_sides: Array  # Odd-Y: each cell's sides as bits
    runs: Array  # Odd-Y: the losing runs of sides as bits
    square_table: Array  # Onyx: the squares each point is a corner of
    side_bits: Array  # Onyx: each point's sides as bits

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
P_GAME = 0  # the game's id in `kernels/step.py`'s table
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
P_SHARED = 15  # stone games with a swap: statistics by colour from the pie point on (players/mcts/kernel.py, "The pie")
NPARAMS = 16
