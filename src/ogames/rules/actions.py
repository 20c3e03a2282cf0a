"""The integer action space of a settled board game: one move-code layout that the compiled search,
the RL adapters (`ogames.envs`) and self-play's examples all read (`Game.actions`).

Action i < n is cell i of the board in its canonical order (`board.labels`); then come the special
moves the options can ever allow, in the game's fixed order (`Game.action_specials`): the stone
games' `swap` at n; Omny's `komi=0`, `komi=0.5`, … at n + 1 + 2k when komi is chosen in play (the
swap is then always listed, so komi's codes do not move with the pie); Omega's `swap` at n with two
players, `swap <colour c>` at n + c with three or four. `resign` is always allowed by the rules but
never listed among the legal moves, so it has no action.

>>> import ogames
>>> actions = ogames.load("omny", variant="y", size=3, komi_choice=True).actions
>>> actions.num_actions, actions.move_to_action("komi=1.5"), actions.action_to_move(6)
(11, 10, 'swap')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ogames.errors import IllegalMove, OgamesError, shown
from ogames.wording import say

if TYPE_CHECKING:
    from ogames.boards.graph import Board
    from ogames.rules.protocol import State


class ActionSpace:
    """Moves ↔ integer actions for one settled board game (`Game.actions` makes it once).

    `alias` maps a spelling the cells and specials do not know (Omny's `komi = 1.50`) to a
    special's canonical text, or None."""

    def __init__(self, board: Board, specials: Sequence[str], alias: Callable[[str], str | None] | None = None):
        self.board = board
        self.labels: tuple[str, ...] = tuple(board.labels)
        self.specials: tuple[str, ...] = tuple(specials)
        self._alias = alias
        self._ids: dict[str, int] = {label: i for i, label in enumerate(self.labels)}
        self._ids.update({move: len(self.labels) + i for i, move in enumerate(self.specials)})

    @property
    def num_cells(self) -> int:
        """Cells on the board (the first actions)."""
        return len(self.labels)

    @property
    def num_actions(self) -> int:
        """Cells plus special moves."""
        return len(self.labels) + len(self.specials)

    def move_to_action(self, move: str) -> int:
        """The action of a move's text (any spelling the rules accept for a cell: "C03" is c3);
        IllegalMove if the move has no action in this game."""
        if not isinstance(move, str):
            raise IllegalMove(move, say("move-not-text", "a move must be text such as a cell label, not {kind}",
                                        kind=type(move).__name__))
        key = " ".join(move.strip().lower().split())
        found = self._ids.get(key)
        if found is not None:
            return found
        canonical = self._alias(key) if self._alias is not None and len(key) <= 40 else None
        if canonical is not None and canonical in self._ids:
            return self._ids[canonical]
        try:
            return int(self.board.index(key))
        except OgamesError:
            if not self.specials:
                raise IllegalMove(move, say("not-a-cell", "{label} is not a cell of this board", label=shown(move))) from None
            specials = list(self.specials[:4]) + (["…"] if len(self.specials) > 4 else [])
            reason = say("neither-cell-nor-special", "{label} is neither a cell of this board nor one of {specials}",
                         label=shown(move), specials=specials)
            raise IllegalMove(move, reason) from None

    def action_to_move(self, action: int) -> str:
        """The canonical move text of an action; IllegalMove if the number is out of range."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalMove(action, say("action-not-whole", "an action is a whole number, not {kind}",
                                          kind=type(action).__name__))
        index = int(action)
        if not 0 <= index < self.num_actions:
            raise IllegalMove(action, say("action-out-of-range", "action {action} is outside 0 … {last}",
                                          action=index, last=self.num_actions - 1))
        if index < len(self.labels):
            return self.labels[index]
        return self.specials[index - len(self.labels)]

    def legal_actions(self, state: State) -> list[int]:
        """The actions of the legal moves, ascending."""
        ids = self._ids
        return sorted(ids[move] for move in state.legal_moves())

    def legal_action_mask(self, state: State, moves: list[str] | None = None) -> npt.NDArray[np.bool_]:
        """A bool vector over the actions, true on the legal ones (all false once the game is over)."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        ids = self._ids
        mask[[ids[m] for m in (state.legal_moves() if moves is None else moves)]] = True
        return mask

    def __repr__(self) -> str:
        return f"<ActionSpace: {self.num_cells} cells + {', '.join(self.specials) or 'no specials'}>"


def stone_specials(options: dict[str, Any]) -> list[str]:
    """The stone games' specials: `swap` when the pie rule is on."""
    return ["swap"] if options.get("pie") else []
