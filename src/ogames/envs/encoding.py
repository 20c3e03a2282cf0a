"""Integer actions and observation tensors for the board games (Omny, Odd-Y, Omega, Onyx).

Every game with its options settled has a fixed action space: the board's cells in the board's
canonical order (`game.board.labels`: action i is cell i), then the special moves the options can
ever allow, in a fixed order (`swap`; Omny's `komi=0`, `komi=0.5`, … when komi is chosen in play;
Omega's `swap <colour>` per colour with three or four players). `resign` is always allowed by the
rules but never listed among the legal moves, so it has no action. Observations are float32
arrays of shape (planes, cells): one row per named plane (`Encoding.plane_names`), one column per
cell in the same order as the actions. The encoding reads states only through their public
attributes (`legal_moves`, `to_move`, `mover`, `owner`, `stones`, and per game `komi`,
`pie_seat`, `game_number`); it never changes them.

>>> import ogames
>>> enc = encoding(ogames.load("oddy", size=3))
>>> enc.num_actions, enc.specials, enc.shape
(7, ('swap',), (11, 6))
>>> state = enc.game.new_state()
>>> enc.move(enc.action("b2")), enc.legal_actions(state)
('b2', [0, 1, 2, 3, 4, 5])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from ogames.errors import BadOption, IllegalMove, OgamesError, shown
from ogames.rules.protocol import BoardGame, Game, State, is_board_game, is_board_state

BOARD_GAMES = ("omny", "oddy", "omega", "onyx")
_KOMI = re.compile(r"^komi\s*=\s*(\S+)$")
_CACHE: WeakKeyDictionary[Game, Encoding] = WeakKeyDictionary()


def board_game(game: Game) -> BoardGame:
    """The game as a board game; BadOption for a game without a board (Omiga)."""
    if not is_board_game(game):
        raise BadOption(f"{game.name} has no integer action space: only the board games have one ({', '.join(BOARD_GAMES)})")
    return game


def encoding(game: Game) -> Encoding:
    """The action space and tensor layout of a settled board game (one per game object)."""
    if not isinstance(game, Game):
        raise BadOption(f"an encoding needs a game from ogames.load, not {type(game).__name__}")
    board_game(game)
    found = _CACHE.get(game)
    if found is None:
        found = _CACHE[game] = Encoding(game)
    return found


@dataclass(eq=False)
class Encoding:
    """Actions ↔ moves, legal-action masks and observation planes for one settled game."""

    game: Game
    labels: tuple[str, ...] = field(init=False)
    specials: tuple[str, ...] = field(init=False)
    plane_names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        board = board_game(self.game).board
        self.board = board
        self.star_count = len(board_game(self.game).star_cells)  # S: Omny's komi runs from 0 to S/2
        self.labels = tuple(board.labels)
        self.specials = tuple(_specials(self.game))
        self._swaps = frozenset(s for s in self.specials if s.startswith("swap"))
        self._ids: dict[str, int] = {label: i for i, label in enumerate(self.labels)}
        self._ids.update({move: len(self.labels) + i for i, move in enumerate(self.specials)})
        static, self._static = _static_planes(self.game)
        colours = self.game.colours
        names = [f"stone:{c}" for c in colours] + ["empty"] + [f"to_move:{c}" for c in colours]
        names += [f"own:{c}" for c in colours]
        names += self._dynamic_names()
        self._static_start = len(names)
        self.plane_names = (*names, *static)

    # ----- sizes -------------------------------------------------------------------------------
    @property
    def num_cells(self) -> int:
        """Cells on the board (the first actions)."""
        return len(self.labels)

    @property
    def num_actions(self) -> int:
        """Cells plus special moves."""
        return len(self.labels) + len(self.specials)

    @property
    def shape(self) -> tuple[int, int]:
        """The observation's shape: (planes, cells)."""
        return (len(self.plane_names), len(self.labels))

    @cached_property
    def coords(self) -> np.ndarray:
        """Each cell's drawing position (cells × 2, float), to lay planes out on a picture or grid."""
        return np.array(self.board.coords, dtype=np.float64)

    # ----- actions -----------------------------------------------------------------------------
    def action(self, move: str) -> int:
        """The action of a move's text (any spelling the rules accept for a cell: "C03" is c3);
        IllegalMove if the move has no action in this game."""
        if not isinstance(move, str):
            raise IllegalMove(move, f"a move must be text, not {type(move).__name__}")
        key = " ".join(move.strip().lower().split())
        found = self._ids.get(key)
        if found is not None:
            return found
        match = _KOMI.match(key) if len(key) <= 40 else None
        if match and "komi=0" in self._ids:
            try:
                twice = 2 * Fraction(match.group(1))
            except (ValueError, ZeroDivisionError):
                twice = Fraction(-1)
            if twice.denominator == 1 and 0 <= twice <= self.star_count:
                return self._ids["komi=0"] + int(twice)
        try:
            return int(self.board.index(key))
        except OgamesError:
            others = ", ".join(self.specials[:4]) + (", …" if len(self.specials) > 4 else "") or "no special moves"
            raise IllegalMove(move, f"{shown(move)} is neither a cell of this board nor one of {others}") from None

    def move(self, action: int) -> str:
        """The canonical move text of an action; IllegalMove if the number is out of range."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalMove(action, f"an action is a whole number, not {type(action).__name__}")
        index = int(action)
        if not 0 <= index < self.num_actions:
            raise IllegalMove(action, f"action {index} is outside 0 … {self.num_actions - 1}")
        if index < len(self.labels):
            return self.labels[index]
        return self.specials[index - len(self.labels)]

    def legal_actions(self, state: State) -> list[int]:
        """The actions of the legal moves, ascending."""
        ids = self._ids
        return sorted(ids[move] for move in state.legal_moves())

    def legal_action_mask(self, state: State, moves: list[str] | None = None) -> np.ndarray:
        """A bool vector over the actions, true on the legal ones (all false once the game is over)."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        ids = self._ids
        mask[[ids[m] for m in (state.legal_moves() if moves is None else moves)]] = True
        return mask

    # ----- observations ------------------------------------------------------------------------
    def observation(self, state: State, seat: int | None = None, moves: list[str] | None = None) -> np.ndarray:
        """The planes of a state seen by a seat (default: the seat to move; `own:` planes mark the
        colours that seat holds). Shape `self.shape`, float32, values 0 or 1 except Omny's `komi`."""
        colours = self.game.colours
        p, n = len(colours), len(self.labels)
        out = np.zeros(self.shape, dtype=np.float32)
        if not is_board_state(state):
            raise BadOption(f"{state.game.title} has no board to observe")
        stones = state.stones
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
        assert out.shape == (len(self.plane_names), n)
        return out

    def _dynamic_names(self) -> list[str]:
        """Planes that are one number for the whole board, changing with the state."""
        options, names = self.game.options, []
        if any(s.startswith("swap") for s in self.specials):
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


def _specials(game: Game) -> list[str]:
    """The special moves the options can ever allow, in action order."""
    options = game.options
    if game.name == "omega":
        if not options["pie"]:
            return []
        return ["swap"] if options["players"] == 2 else [f"swap {c}" for c in game.colours]
    out = []
    if options.get("pie") or options.get("komi_choice"):
        out.append("swap")
    if game.name == "omny" and options["komi_choice"]:
        from ogames.rules.omny import format_komi

        out += [f"komi={format_komi(twice)}" for twice in range(len(board_game(game).star_cells) + 1)]
    return out


def _static_planes(game: Game) -> tuple[list[str], np.ndarray]:
    """Planes fixed by the game: Omny's star cells, Odd-Y's sides, Onyx's sides and midpoints."""
    board = board_game(game).board
    if game.name == "omny":
        named = {"star": board_game(game).star_cells}
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


def outcome(state: State) -> list[float]:
    """Per seat at the end: +1 for the winner's seat, −1/(p−1) for each other seat, 0 on a draw."""
    seats = len(state.players)
    if state.winner is None or state.winner == "draw":
        return [0.0] * seats
    best = state.owner[state.winner]
    return [1.0 if seat == best else -1.0 / (seats - 1) for seat in range(seats)]
