"""Two-player stone-placement games on a board (Omny, Odd-Y, Onyx): alternate turns, Black
first, one stone per turn, and the pie rule. Game modules add their win test and their facts
(the board games' contract, `BoardState`, in `ogames.rules.protocol`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Self

import numpy as np

from ogames.boards.graph import Board
from ogames.errors import IllegalMove, UnknownLabel
from ogames.rules.actions import ActionSpace, stone_specials
from ogames.rules.protocol import BoardFacts, Game, Result, State, occupied
from ogames.wording import say

if TYPE_CHECKING:
    from ogames.rules.protocol import Stones

BLACK, WHITE = "black", "white"
EMPTY = 0  # in `stones`: 0 empty, 1 black, 2 white


class StoneGame(Game):
    """A two-player placement game on one board."""

    board: Board
    star_cells: frozenset[int] = frozenset()  # Omny marks some cells as stars

    @property
    def colours(self) -> tuple[str, ...]:
        return (BLACK, WHITE)

    @cached_property
    def actions(self) -> ActionSpace:
        """The integer action space: the cells, then `action_specials` (`rules/actions.py`)."""
        return ActionSpace(self.board, self.action_specials(), self.action_alias)

    def action_specials(self) -> list[str]:
        """The special moves the options can ever allow, in action order: the pie's `swap`."""
        return stone_specials(self.options)

    def action_alias(self, move: str) -> str | None:
        """A special's canonical text for another spelling of it (none but Omny's komi)."""
        return None


class StoneState(State):
    """Stones on cells, Black to move first, `swap` once for White when the pie rule is on; the
    winning group (sorted labels) once a placement won."""

    game: StoneGame
    mutable_fields = ("stones",)
    last_captures: Sequence[str] = ()  # Onyx's captures; stones stay put in the other games

    def __init__(self, game: StoneGame, players: Sequence[str] | None = None):
        super().__init__(game, players)
        self.board: Board = game.board
        self.stones: Stones = np.zeros(len(game.board), dtype=np.int8)
        self.turn = 0  # index of the colour to move
        self.placements = 0  # stones placed so far (pie needs to know)
        self.swapped = False
        self.winning_group: list[str] | None = None  # set by the placement that wins, never changed in place

    # ----- hooks for games -------------------------------------------------------------------
    def pie_available(self) -> bool:
        """Whether `swap` is a legal move now (default: pie on, White's first turn)."""
        return bool(self.game.options.get("pie")) and not self.swapped and self.turn == 1 and self.placements == 1

    def placement_error(self, cell: int) -> str | None:
        """Why a stone may not go on this empty cell, or None (override for extra rules)."""
        return None

    def open_cells(self) -> list[int]:
        """The empty cells a stone may go on now, in board order (games with a placement rule
        may override this with a faster test that agrees with `placement_error`)."""
        empty = np.flatnonzero(self.stones == EMPTY).tolist()
        if type(self).placement_error is StoneState.placement_error:
            return empty  # no rule beyond "the cell is empty"
        return [c for c in empty if self.placement_error(c) is None]

    def after_placement(self, cell: int) -> tuple[Result | None, dict[str, Any]]:
        """Check for a win after a stone went on `cell`; return the result and extra record info."""
        return None, {}

    # ----- protocol --------------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        return None if self.result else self.game.colours[self.turn]

    def stone_at(self, label: str) -> str | None:
        value = self.stones[self.board.index(label)]
        return None if value == EMPTY else self.game.colours[value - 1]

    def legal_moves(self) -> list[str]:
        if self.result:
            return []
        labels = self.board.labels
        moves = [labels[c] for c in self.open_cells()]
        if self.pie_available():
            moves.append("swap")
        return moves

    def play(self, move: str, *, t: float | None = None) -> Self:
        """Make a move (see State.play), keeping what `undo` needs to take it back at once."""
        return self.keeping_undo(super().play, move, t=t)

    def resign(self, colour: str | None = None, *, t: float | None = None) -> Self:
        """The owner of a colour gives up (see State.resign); `undo` takes it back at once."""
        return self.keeping_undo(super().resign, colour, t=t)

    def apply(self, move: str) -> dict[str, Any]:
        if move == "swap":
            if not self.pie_available():
                raise IllegalMove(move, self.swap_refusal())
            self.swap_seats()
            return {"move": "swap"}
        return self.place(move)

    def swap_refusal(self) -> str:
        """Why `swap` is not allowed now."""
        if not self.game.options.get("pie"):
            return say("pie-off", "the pie rule is off in this game")
        return say("swap-first-move", "swap is only allowed as White's first move")

    def swap_seats(self) -> None:
        """Pie rule: the players exchange colours; the stones and the colour to move stay."""
        self.owner[BLACK], self.owner[WHITE] = self.owner[WHITE], self.owner[BLACK]
        self.swapped = True

    def place(self, move: str) -> dict[str, Any]:
        """Put a stone of the colour to move on a labelled cell."""
        try:
            cell = self.board.index(move)
        except UnknownLabel as exc:
            raise IllegalMove(move, exc.said) from None
        if self.stones[cell] != EMPTY:
            raise IllegalMove(move, occupied(self.board.labels[cell], self.game.colours[self.stones[cell] - 1]))
        reason = self.placement_error(cell)
        if reason:
            raise IllegalMove(move, reason)
        self.stones[cell] = self.turn + 1
        self.placements += 1
        result, info = self.after_placement(cell)
        self.result = result
        self.turn = 1 - self.turn
        return {"move": self.board.labels[cell], **info}

    # ----- the board games' contract (BoardState) --------------------------------------------
    def winning_cells(self) -> list[str]:
        """The winning group, sorted; none while the game goes on or after a resignation."""
        return list(self.winning_group or ())

    def facts(self) -> BoardFacts:
        """The winning cells (games with more to show extend this)."""
        return BoardFacts(winning=tuple(self.winning_cells()), captures=tuple(self.last_captures))

    def colour_cells(self, colour: str) -> list[str]:
        """Labels of every stone of a colour."""
        value = self.game.colours.index(colour) + 1
        return [self.board.labels[c] for c in np.flatnonzero(self.stones == value)]
