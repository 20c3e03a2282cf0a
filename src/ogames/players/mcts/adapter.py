"""A game's position and moves as the compiled search's arrays and codes: one `Adapter` per game
(Odd-Y, Omny, Omega, Onyx), so that the search itself asks the adapter instead of the game's name.

Python only translates here: the state into the kernel's arrays (`encode`), move codes back into
move text (`move_text`), and the moves played into one tree level each (`path_moves`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ogames.errors import CannotPlay
from ogames.kernels import layout as P
from ogames.kernels import step
from ogames.rules.protocol import ActionCodec, State

Ints = npt.NDArray[np.int64]
Array = npt.NDArray[Any]

# Bridge tables by board (the board is kept with its table so that its id stays its own).
_BRIDGES: dict[int, tuple[Any, Array]] = {}


def bridge_table(board: Any) -> Array:
    """Per cell c, the bridges c is a carrier of: rows [d, a, b] where a and b are not adjacent and
    their only two common neighbours are c and d (so a stone on c is answered on d); −1 padded.
    Built from the neighbour lists, so it fits any board (hex patches, polar boards). A bounded
    cache keeps the tables of the last 64 boards."""
    key = id(board)
    if key in _BRIDGES:
        return _BRIDGES[key][1]
    neighbours = [set(ns) for ns in board.neighbours]
    rows: list[list[tuple[int, int, int]]] = [[] for _ in neighbours]
    for c, around in enumerate(neighbours):
        ordered = sorted(around)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                if b in neighbours[a]:
                    continue
                common = neighbours[a] & neighbours[b]
                if len(common) == 2 and c in common:
                    (d,) = common - {c}
                    rows[c].append((d, a, b))
    width = max(1, max(len(r) for r in rows))
    table = np.full((len(rows), width, 3), -1, dtype=np.int32)
    for c, found in enumerate(rows):
        for j, row in enumerate(found):
            table[c, j] = row
    if len(_BRIDGES) >= 64:
        _BRIDGES.clear()
    _BRIDGES[key] = (board, table)
    return table


class Adapter:
    """What every game's adapter shares: the board, the colours, the kernel's parameters, and the
    stone games' way of encoding a position and naming a move. A subclass per game sets its
    parameters (`_setup`) and says what its playouts and the solver do with it."""

    code: ClassVar[int] = -1  # the game's id in `kernels/step.py`'s table (params[P_GAME])
    answers_bridges: ClassVar[bool] = False  # playouts answer intrusions into bridges (`bridges`, `opponent`)
    proved: ClassVar[bool] = False  # the connection solver proves its positions (`prove`)

    def __init__(self, state: State):
        game: Any = state.game  # each game's own arrays (board, stars, lattice…) are read below
        self.game = game
        self.board = game.board
        self.actions: ActionCodec = game.actions  # the move codes' layout
        self.n = n = len(self.board)
        self.colours = tuple(game.colours)
        params = np.zeros(P.NPARAMS, dtype=np.int64)
        params[P.P_GAME] = self.code
        params[P.P_N] = n
        params[P.P_SEATS] = len(state.players)
        params[P.P_COLOURS] = len(self.colours)
        params[P.P_BRIDGE_SEAT] = -1
        self.params = params
        self.table = self.board.neighbour_table
        self.stars = np.zeros(1, dtype=np.bool_)
        self.star_list = np.zeros(1, dtype=np.int32)
        self.cell_sides = np.zeros(1, dtype=np.int64)
        self.runs = np.zeros(1, dtype=np.int64)
        self.square_table = np.full((1, 2, 4), -1, dtype=np.int32)
        self.midpoint_corners = np.full((1, 4), -1, dtype=np.int32)
        self.side_bits = np.zeros(1, dtype=np.int8)
        self.bridges = np.full((1, 1, 3), -1, dtype=np.int32)
        self._setup(game)

    def _setup(self, game: Any) -> None:
        """The game's own parameters and arrays."""

    def _stone_pie(self, game: Any) -> None:
        """The pie of Odd-Y and Onyx: the swap open after the first stone."""
        self.params[P.P_PIE] = int(bool(game.options["pie"]))
        self.params[P.P_PIE_AT] = 1

    def fill_playouts(self, state: State) -> bool:
        """Whether a playout is one fill and one test (Odd-Y; Omny when S + 2k is odd)."""
        return False

    def encode(self, state: Any) -> tuple[Array, Ints, Ints]:
        """The position as (stones, var, owner)."""
        var = np.zeros(P.NVARS, dtype=np.int64)
        var[P.V_WINNER] = -1
        var[P.V_PIESEAT] = -1
        owner = np.zeros(4, dtype=np.int64)
        for colour, seat in state.owner.items():
            owner[self.colours.index(colour)] = seat
        self._encode_turn(state, var)
        return np.ascontiguousarray(state.stones, dtype=np.int8).copy(), var, owner

    def _encode_turn(self, state: Any, var: Ints) -> None:
        """The stone games' turn: the colour to move, the pie's swap and the stones placed."""
        var[P.V_TURN] = state.turn
        var[P.V_SWAPPED] = int(state.swapped)
        var[P.V_PLACEMENTS] = state.placements

    def rule_arrays(self) -> P.BoardArrays:
        """The board arrays the kernel's rules take, as the one tuple `play_move`, `playout` and
        `run` take (`arrays`)."""
        return P.BoardArrays(
            self.table, self.stars, self.star_list, self.cell_sides, self.runs, self.square_table, self.side_bits
        )

    def use_bridges(self) -> None:
        """Give the playouts their bridge table (games whose playouts answer bridges)."""
        if self.answers_bridges:
            self.bridges = bridge_table(self.board)

    def play_code(self, stones: Array, var: Ints, owner: Ints, code: int) -> None:
        """Make one move with the kernel's rules on arrays from `encode` (for tests and tools)."""
        n = self.n
        logs = np.log(np.maximum(np.arange(n + 2), 1))
        work = np.empty((6, n + int(self.params[P.P_TOTAL]) + 8), dtype=np.int32)
        mark = np.zeros(n, dtype=np.int64)
        step.play_move(stones, var, owner, self.params, code, self.rule_arrays(), logs, work, mark, 1, np.zeros(4))

    def legal_codes(self, stones: Array, var: Ints, owner: Ints) -> list[int]:
        """The kernel's legal move codes for arrays from `encode`."""
        out = np.empty(self.n + int(self.params[P.P_TOTAL]) + 8, dtype=np.int32)
        count = step.gen_moves(stones, var, owner, self.params, self.midpoint_corners, out)
        return [int(c) for c in out[:count]]

    def move_text(self, code: int) -> str:
        """The move a code stands for, as `play` takes it: the kernels' move codes are the rules'
        actions (`Game.actions`, one layout for the search, the RL adapters and self-play)."""
        return self.actions.action_to_move(code)

    def path_moves(self, state: Any) -> list[str]:
        """The moves made so far, one per tree level."""
        return [entry["move"] for entry in state.history]


class OddyAdapter(Adapter):
    """Odd-Y: the pie after the first stone, the sides each cell touches; a playout is one fill."""

    code = step.ODDY
    answers_bridges = True
    proved = True

    def _setup(self, game: Any) -> None:
        self._stone_pie(game)
        self.cell_sides, self.runs = game.cell_sides, game.runs

    def fill_playouts(self, state: State) -> bool:
        return True


class OmnyAdapter(Adapter):
    """Omny: the stars, the komi (fixed, or chosen in play as a move `komi=K`) and the pie."""

    code = step.OMNY
    answers_bridges = True
    proved = True

    def _setup(self, game: Any) -> None:
        params, options = self.params, game.options
        params[P.P_TOTAL] = game.total_stars
        pie, choice = bool(options["pie"]), bool(options["komi_choice"])
        params[P.P_PIE] = int(pie or choice)
        params[P.P_PIE_AT] = 0 if choice and not pie else 1
        params[P.P_KOMI_PIE] = int(pie)
        self.stars = np.ascontiguousarray(game.star_mask)
        self.star_list = np.flatnonzero(game.star_mask).astype(np.int32)
        self.komi_fixed = None if choice else int(2 * options["komi"])

    def fill_playouts(self, state: Any) -> bool:
        # One fill and one test decide a playout when S + 2k is odd (no race); komi chosen in
        # play could make it even, so then every stone is tested.
        twice = self.komi_fixed if state.twice_komi is None else state.twice_komi
        return twice is not None and (self.game.total_stars + twice) % 2 == 1

    def _encode_turn(self, state: Any, var: Ints) -> None:
        super()._encode_turn(state, var)
        var[P.V_KOMI] = -1 if state.twice_komi is None else state.twice_komi


class OmegaAdapter(Adapter):
    """Omega: a turn of one stone per colour, the pie phase's `swap <colour>` moves, a tree level a stone."""

    code = step.OMEGA

    def _setup(self, game: Any) -> None:
        self.params[P.P_END_EMPTY] = game.end_empty

    def _encode_turn(self, state: Any, var: Ints) -> None:
        var[P.V_TURN] = state.stone_index
        var[P.V_TURNCOL] = state.turn_colour
        var[P.V_PIESEAT] = -1 if state.pie_seat is None else state.pie_seat
        var[P.V_PLAYED] = state.played

    def path_moves(self, state: Any) -> list[str]:
        """A turn's entry split into its placements: one tree level a stone."""
        moves: list[str] = []
        for entry in state.history:
            move = entry["move"]
            if not move.startswith("swap") and move != "resign":
                moves.extend(move.split())
            else:
                moves.append(move)
        return moves


class OnyxAdapter(Adapter):
    """Onyx: the lattice's squares and midpoints (captures, the points open to play) and the pie."""

    code = step.ONYX

    def _setup(self, game: Any) -> None:
        self._stone_pie(game)
        lattice = game.lattice
        self.square_table, self.midpoint_corners, self.side_bits = (
            lattice.square_table,
            lattice.midpoint_corners,
            lattice.side_bits,
        )


ADAPTERS: dict[str, type[Adapter]] = {"oddy": OddyAdapter, "omny": OmnyAdapter, "omega": OmegaAdapter, "onyx": OnyxAdapter}


def supports(state: State) -> bool:
    """Whether the compiled search plays this game (Omega's two-game match is left to the plain UCT)."""
    return state.game.name in ADAPTERS and not state.game.options.get("match")


def adapter_for(state: State) -> Adapter:
    """The adapter of the state's game; CannotPlay for a game the compiled search does not play."""
    if not supports(state):
        raise CannotPlay(f"the compiled search does not play {state.game.title}")
    return ADAPTERS[state.game.name](state)
