"""Omiga «Карапуз» (toddler), RULES.md §5: 2 to 6 players race side by side, in rounds.

All players sit at one side of the table: every home edge is row 0 and the far edge is the top
row. Player i's area starts at column (2i + 1)·W // (2n) of the bottom row, where the top card of
their deck is laid (the table must be at least as wide as the players are many: `load` refuses a
narrower one). Each round every player draws the top card of their own deck; then, in seat
order, each places it or, only if it fits nowhere, discards it. Placement: a card touches a card
of its own colour orthogonally and fits every orthogonal neighbour of its own colour; other
players' cards need not fit (rule 3 dropped). A player whose deck is out turns their discard pile;
a player who has laid every card they own sits the remaining rounds out.

The game ends at the end of a round in which someone reached the far edge: every player who did
shares the win. `state.winners` lists them in seat order; `state.winner` is the one colour, or
the winners joined by "+" for a shared win (e.g. "white+red"), and `rewards()` splits 1 equally
among them. If no player can place any card they still own, the game is drawn (checked on the
start position too). Resigning ends the game; the other players share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ogames.rules.omiga.table import TODDLER_RULES, Table
from ogames.rules.omiga.turn_based import TurnCardState
from ogames.rules.protocol import Result
from ogames.wording import Each, say

SHARED = "+"


class ToddlerState(TurnCardState):
    """«Карапуз»: rounds of one card each, first to the far edge wins, ties in a round share."""

    rules = TODDLER_RULES
    variant = "toddler"
    mutable_fields = ("reached",)

    def __init__(self, game: Any, players: Sequence[str] | None = None):
        super().__init__(game, players)
        self.round = 1
        self.reached: list[str] = []
        self.start_round()
        self.check_start()

    def make_table(self, width: int, height: int, card_set: Any) -> Table:
        """Everyone's home edge is the bottom row."""
        return Table(width, height, card_set, owners=self.colours, home_rows=[0] * len(self.colours))

    def start_columns(self) -> list[int]:
        """Evenly spread starting columns, one area per player."""
        n, width = len(self.colours), self.table.width
        return [(2 * i + 1) * width // (2 * n) for i in range(n)]

    @property
    def winners(self) -> list[str]:
        """The winning colours (several for a shared win); empty while playing or on a draw."""
        if self.result is None or self.result.winner == "draw":
            return []
        return self.result.winner.split(SHARED)

    def rewards(self) -> list[float]:
        """1 shared equally among the winners (everyone on a draw)."""
        if self.result is None:
            raise ValueError("the game is not over")
        won = self.winners or list(self.colours)
        return [1.0 / len(won) if self.colours[seat] in won else 0.0 for seat in range(len(self.colours))]

    def resign_result(self, colour: str) -> Result:
        """The others share the win."""
        others = [c for c in self.colours if c != colour]
        return Result(SHARED.join(others), say("resigned", "{colour} resigned", colour=colour))

    def check_start(self) -> None:
        """The end condition on the start position: nobody can place any card they own."""
        if all(self.stuck(c) for c in self.colours):
            self.result = Result("draw", say("nobody-can-place", "no player can place any card they still own"))

    def start_round(self) -> None:
        """Everyone draws the top card of their deck."""
        for colour in self.colours:
            self.draw_card(colour)

    def draw_card(self, colour: str) -> None:
        """Cards are drawn only at the start of a round."""
        if not self.hands[colour]:
            self.hands[colour] = self.supplies[colour].draw(1)

    def after_place(self, colour: str, cell: int) -> None:
        """Reaching the far edge is noted; the round is played to its end."""
        if self.table.reaches_far_edge(cell, colour):
            self.reached.append(colour)

    def holder_from(self, seat: int) -> int | None:
        """The first seat from `seat` on in this round that holds a card (a player who has laid
        every card they own has none, and sits the round out)."""
        return next((s for s in range(seat, len(self.colours)) if self.hands[self.colours[s]]), None)

    def after_action(self, colour: str) -> None:
        """Next player in the round, or the round's end: winners, a stuck table, or a new round."""
        following = self.holder_from(self.turn + 1)
        if following is not None:
            self.turn = following
            return
        if self.reached:
            names = [c for c in self.colours if c in self.reached]
            if len(names) == 1:
                reason = say("toddler-won", "{colour} reached the far edge (round {round})", colour=names[0], round=self.round)
            else:
                reason = say("toddler-shared",
                             "{colours} reached the far edge in the same round and share the win (round {round})",
                             colours=Each(names), round=self.round)
            self.result = Result(SHARED.join(names), reason)
            return
        self.round += 1
        self.start_round()
        first = self.holder_from(0)
        if first is None or all(self.stuck(c) for c in self.colours):
            self.result = Result("draw", say("nobody-can-place", "no player can place any card they still own"))
        else:
            self.turn = first
