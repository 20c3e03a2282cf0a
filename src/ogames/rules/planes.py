"""What a learner sees of a board game's position: observation planes, and the outcome by seat.

Observations are float32 arrays of shape (planes, cells): one row per named plane
(`Planes.plane_names`), one column per cell in the order of the game's actions (`Game.actions`).
The planes read states only through their public attributes (`legal_moves`, `to_move`, `mover`,
`owner`, `stones`, and per game `komi`, `pie_seat`, `game_number`); they never change them.
`ogames.envs.encoding` and self-play's examples (`arena/selfplay.py`) both read them from here.

>>> import ogames
>>> planes = observation_planes(ogames.load("oddy", size=3))
>>> planes.plane_names[:3], planes.shape
(('stone:black', 'stone:white', 'empty'), (11, 6))
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

import numpy as np
import numpy.typing as npt

from ogames.errors import BadOption
from ogames.rules.protocol import BoardGame, Game, State, is_board_game, is_board_state

Floats = npt.NDArray[np.float32]
_CACHE: WeakKeyDictionary[Game, Planes] = WeakKeyDictionary()


def observation_planes(game: Game) -> Planes:
    """The observation planes of a settled board game (one per game object); BadOption for a game
    without an integer action space."""
    found = _CACHE.get(game)
    if found is None:
        found = _CACHE[game] = Planes(game)
    return found


class Planes:
    """The named observation planes of one settled board game."""

    def __init__(self, game: Game):
        self.game = game
        actions = game.actions  # BadOption for a game without one
        self.board_game = _board_game(game)
        self.num_cells = len(self.board_game.board)
        self.star_count = len(self.board_game.star_cells)  # S: Omny's komi runs from 0 to S/2
        self._swaps = frozenset(s for s in actions.specials if s.startswith("swap"))
        static, self._static = _static_planes(game)
        colours = game.colours
        names = [f"stone:{c}" for c in colours] + ["empty"] + [f"to_move:{c}" for c in colours]
        names += [f"own:{c}" for c in colours]
        names += self._dynamic_names()
        self._static_start = len(names)
        self.plane_names: tuple[str, ...] = (*names, *static)

    @property
    def shape(self) -> tuple[int, int]:
        """The observation's shape: (planes, cells)."""
        return (len(self.plane_names), self.num_cells)

    def observation(self, state: State, seat: int | None = None, moves: list[str] | None = None) -> Floats:
        """The planes of a state seen by a seat (default: the seat to move; `own:` planes mark the
        colours that seat holds). Shape `self.shape`, float32, values 0 or 1 except Omny's `komi`."""
        colours = self.game.colours
        p = len(colours)
        out = np.zeros(self.shape, dtype=np.float32)
        if not is_board_state(state):
            raise BadOption(f"{state.game.title} has no board to observe")
        stones = np.asarray(state.stones)
        out[:p] = stones[None, :] == np.arange(1, p + 1, dtype=stones.dtype)[:, None]
        out[p] = stones == 0
        to_move = state.to_move
        if to_move is not None:
            out[p + 1 + colours.index(to_move)] = 1.0
        viewer = state.mover if seat is None else seat
        if viewer is not None:
            for k, colour in enumerate(colours):
                if state.owner[colour] == viewer:
                    out[2 * p + 1 + k] = 1.0
        row = 3 * p + 1
        for name in self.plane_names[row : self._static_start]:
            out[row] = self._dynamic_value(name, state, moves)
            row += 1
        out[self._static_start :] = self._static
        return out

    def _dynamic_names(self) -> list[str]:
        """Planes that are one number for the whole board, changing with the state."""
        options, names = self.game.options, []
        if self._swaps:
            names.append("swap_allowed")
        if self.game.name == "omny":
            names.append("komi")
            if options["komi_choice"]:
                names.append("komi_pending")
        if self.game.name == "omega":
            names += [f"turn_of:{c}" for c in self.game.colours]
            if options["pie"]:
                names.append("pie_phase")
            if options["match"]:
                names.append("second_game")
        return names

    def _dynamic_value(self, name: str, state: Any, moves: list[str] | None) -> float:
        if name == "swap_allowed":
            return float(not self._swaps.isdisjoint(state.legal_moves() if moves is None else moves))
        if name == "komi":  # komi as a share of the star cells: 0 … 0.5
            komi = state.komi
            return 0.0 if komi is None else float(komi) / self.star_count
        if name == "komi_pending":
            return float(state.komi is None and not state.is_over)
        if name.startswith("turn_of:"):
            seat = state.mover
            return float(seat is not None and state.owner[name.partition(":")[2]] == seat)
        if name == "pie_phase":
            return float(state.pie_seat is not None and not state.is_over)
        if name == "second_game":
            return float(state.game_number == 2)
        raise AssertionError(name)


def _static_planes(game: Game) -> tuple[list[str], Floats]:
    """Planes fixed by the game: Omny's star cells, Odd-Y's sides, Onyx's sides and midpoints."""
    board = _board_game(game).board
    if game.name == "omny":
        named = {"star": _board_game(game).star_cells}
    elif game.name == "oddy":
        named = {f"side{s}": board.cells(f"side{s}") for s in range(game.options["sides"])}
    elif game.name == "onyx":
        named = {f"side:{s}": board.cells(s) for s in ("west", "east", "south", "north")}
        named["midpoint"] = board.cells("midpoints")
    else:
        named = {}
    planes = np.zeros((len(named), len(board)), dtype=np.float32)
    for row, cells in enumerate(named.values()):
        planes[row, sorted(cells)] = 1.0
    planes.setflags(write=False)
    return list(named), planes


def _board_game(game: Game) -> BoardGame:
    """The game as a board game; BadOption for a game without a board (Omiga)."""
    if not is_board_game(game):
        raise BadOption(f"{game.name} has no board to observe")
    return game


def outcome(state: State) -> list[float]:
    """Per seat at the end: +1 for the winner's seat, −1/(p−1) for each other seat, 0 on a draw."""
    seats = len(state.players)
    if state.winner is None or state.winner == "draw":
        return [0.0] * seats
    best = state.owner[state.winner]
    return [1.0 if seat == best else -1.0 / (seats - 1) for seat in range(seats)]
