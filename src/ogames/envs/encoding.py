"""Integer actions and observation tensors for the board games (Omny, Odd-Y, Omega, Onyx).

Every game with its options settled has a fixed action space, declared by the rules
(`Game.actions`, `ogames/rules/actions.py`): the board's cells in the board's canonical order
(`game.board.labels`: action i is cell i), then the special moves the options can ever allow, in a
fixed order (`swap`; Omny's `komi=0`, `komi=0.5`, … when komi is chosen in play; Omega's
`swap <colour>` per colour with three or four players). `resign` is always allowed by the rules but
never listed among the legal moves, so it has no action. Observations are float32 arrays of shape
(planes, cells): one row per named plane (`Encoding.plane_names`), one column per cell in the same
order as the actions (`ogames/rules/planes.py`). The encoding reads states only through their public
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

from dataclasses import dataclass, field
from functools import cached_property
from weakref import WeakKeyDictionary

import numpy as np

from ogames.errors import BadOption
from ogames.rules.actions import ActionSpace
from ogames.rules.planes import observation_planes, outcome
from ogames.rules.protocol import BoardGame, Game, State, is_board_game

BOARD_GAMES = ("omny", "oddy", "omega", "onyx")
_CACHE: WeakKeyDictionary[Game, Encoding] = WeakKeyDictionary()

__all__ = ["BOARD_GAMES", "Encoding", "encoding", "outcome"]


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
    """Actions ↔ moves, legal-action masks and observation planes for one settled game: the rules'
    action space (`Game.actions`) and observation planes (`rules/planes.py`) under one name."""

    game: Game
    labels: tuple[str, ...] = field(init=False)
    specials: tuple[str, ...] = field(init=False)
    plane_names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        actions = self.game.actions
        assert isinstance(actions, ActionSpace)  # every board game's
        self.actions = actions
        self.board = actions.board
        self.labels = actions.labels
        self.specials = actions.specials
        self.planes = observation_planes(self.game)
        self.plane_names = self.planes.plane_names

    # ----- sizes -------------------------------------------------------------------------------
    @property
    def num_cells(self) -> int:
        """Cells on the board (the first actions)."""
        return len(self.labels)

    @property
    def num_actions(self) -> int:
        """Cells plus special moves."""
        return self.actions.num_actions

    @property
    def shape(self) -> tuple[int, int]:
        """The observation's shape: (planes, cells)."""
        return self.planes.shape

    @cached_property
    def coords(self) -> np.ndarray:
        """Each cell's drawing position (cells × 2, float), to lay planes out on a picture or grid."""
        return np.array(self.board.coords, dtype=np.float64)

    # ----- actions -----------------------------------------------------------------------------
    def action(self, move: str) -> int:
        """The action of a move's text (any spelling the rules accept for a cell: "C03" is c3);
        IllegalMove if the move has no action in this game."""
        return self.actions.move_to_action(move)

    def move(self, action: int) -> str:
        """The canonical move text of an action; IllegalMove if the number is out of range."""
        return self.actions.action_to_move(action)

    def legal_actions(self, state: State) -> list[int]:
        """The actions of the legal moves, ascending."""
        return self.actions.legal_actions(state)

    def legal_action_mask(self, state: State, moves: list[str] | None = None) -> np.ndarray:
        """A bool vector over the actions, true on the legal ones (all false once the game is over)."""
        return self.actions.legal_action_mask(state, moves)

    # ----- observations ------------------------------------------------------------------------
    def observation(self, state: State, seat: int | None = None, moves: list[str] | None = None) -> np.ndarray:
        """The planes of a state seen by a seat (default: the seat to move; `own:` planes mark the
        colours that seat holds). Shape `self.shape`, float32, values 0 or 1 except Omny's `komi`."""
        return self.planes.observation(state, seat, moves)
