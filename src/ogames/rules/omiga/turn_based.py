"""The turn-based engine of Omiga's toddler mode and of kids with `pace=turns`: one card in hand per player.

The player to move holds one card drawn from their deck (the discard pile turns over when the
deck is out) and either places it or, only if it fits nowhere, discards it; then draws the next.
Moves: `place CELL` or `place CELL turned` (also `place 1 CELL …`) and `discard`. The defaults
here are turn-based kids' (`kids.py`); toddler (`toddler.py`) overrides the table, start and end.
Each mode calls `check_start` once its hands are drawn: a draw that holds on the start position is
declared at once, as after every move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

from ogames.errors import IllegalMove, UnknownLabel
from ogames.rules.omiga.cards import Face
from ogames.rules.omiga.deck import Supply
from ogames.rules.omiga.table import KIDS_RULES, PlacementRules, Table, far_edge
from ogames.rules.protocol import Result, State
from ogames.wording import say


def supply_rng(seed: int, variant: str, colour: str) -> random.Random:
    """The random source of one colour's deck in a turn-based mode, fixed by the seed."""
    return random.Random(f"omiga-{variant}:{seed}:{colour}")


SIDES_CLOSED = say("sides-closed", "both players have cards on the left and the right table edges")


def out_of_cards(colour: str) -> str:
    """The draw when a colour has no card left that can be placed."""
    return say("out-of-cards", "{colour} has run out of cards: none of them can be placed", colour=colour)


class TurnCardState(State):
    """Turn-based Omiga with one card in hand: the table, a supply and a hand per colour."""

    rules: PlacementRules = KIDS_RULES
    variant = "kids"
    mutable_fields = ("table",)
    nested_fields = ("hands", "supplies")

    def __init__(self, game: Any, players: Sequence[str] | None = None):
        super().__init__(game, players)
        opts = game.options
        self.colours: tuple[str, ...] = tuple(game.colours)
        self.table = self.make_table(opts["width"], opts["height"], game.card_set)
        self.supplies = {c: Supply(len(game.card_set), supply_rng(opts["seed"], self.variant, c)) for c in self.colours}
        self.hands: dict[str, list[int]] = {c: [] for c in self.colours}
        self.turn = 0  # index into colours of the player to move
        for colour, column in zip(self.colours, self.start_columns(), strict=True):
            design = self.supplies[colour].cards.pop()
            row = self.table.home_rows[self.table.index_of(colour)]
            self.table.place(self.table.number(column, row), colour, design, game.card_set.designs[design])  # type: ignore[arg-type]

    # ----- what a variant chooses --------------------------------------------------------
    def make_table(self, width: int, height: int, card_set: Any) -> Table:
        """The table with each colour's home edge."""
        return Table(width, height, card_set, owners=self.colours)

    def start_columns(self) -> list[int]:
        """Where each colour's first card goes on its home edge."""
        return [self.table.width // 2] * len(self.colours)

    # ----- protocol ----------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        """The colour whose card is played next."""
        return None if self.result else self.colours[self.turn]

    def stone_at(self, label: str) -> str | None:
        """The colour of the card on a cell, or None."""
        return self.table.owner_at(self.table.cell(label))

    def hand_of(self, colour: str) -> list[int]:
        """The design numbers in a colour's hand (drawn on demand at the start of its turn)."""
        return self.hands[colour]

    def placements(self, colour: str) -> list[tuple[int, Face]]:
        """Every (cell, face) where the colour's card in hand may go."""
        hand = self.hand_of(colour)
        return self.table.legal_placements(colour, hand[0], self.rules) if hand else []

    def legal_moves(self) -> list[str]:
        """Placements of the card in hand, or `discard` when it fits nowhere."""
        colour = self.to_move
        if colour is None:
            return []
        design = self.hand_of(colour)[0]
        printed = self.table.card_set.designs[design]
        moves = [f"place {self.table.label(c)}" + ("" if f == printed else " turned") for c, f in self.placements(colour)]
        return moves or ["discard"]

    def play(self, move: str, *, t: float | None = None) -> Self:
        """Make a move (see State.play); `undo` takes it back at once."""
        return self.keeping_undo(super().play, move, t=t)

    def resign(self, colour: str | None = None, *, t: float | None = None) -> Self:
        """A colour gives up (see State.resign); `undo` takes it back at once."""
        return self.keeping_undo(super().resign, colour, t=t)

    def apply(self, move: str) -> dict[str, Any]:
        """Check and make one move; IllegalMove (nothing changed) if it is not allowed."""
        colour = self.colours[self.turn]
        words = move.split()
        if not words or words[0] not in ("place", "discard"):
            raise IllegalMove(move, say("turn-action-form", "say 'place CELL', 'place CELL turned' or 'discard'"))
        design = self.hand_of(colour)[0]
        if words[0] == "discard":
            if len(words) != 1:
                raise IllegalMove(move, say("discard-alone", "'discard' takes nothing more"))
            spots = self.placements(colour)
            if spots:
                where = self.table.label(spots[0][0])
                raise IllegalMove(move, say("discard-card-fits",
                                            "the card fits, e.g. on {cell}: a card is discarded only when it fits nowhere",
                                            cell=where))
            self.hands[colour] = []
            self.supplies[colour].discard([design])
            entry: dict[str, Any] = {"move": "discard", "card": design}
        else:
            cell, turned = self._parse_place(move, words[1:])
            face = self.table.card_set.designs[design]
            face = face.turned() if turned else face
            problem = self.table.why_not(cell, colour, face, self.rules)
            if problem:
                raise IllegalMove(move, problem)
            self.table.place(cell, colour, design, face)
            self.hands[colour] = []
            turned = face != self.table.card_set.designs[design]  # a card that looks the same turned is written unturned
            entry = {"move": f"place {self.table.label(cell)}" + (" turned" if turned else ""), "card": design}
            self.after_place(colour, cell)
        if self.result is None:
            self.after_action(colour)
        return entry

    def _parse_place(self, move: str, args: list[str]) -> tuple[int, bool]:
        if args and args[0] == "1":
            args = args[1:]  # "place 1 c3": the hand holds one card
        turned = bool(args) and args[-1] == "turned"
        if turned:
            args = args[:-1]
            if not self.table.card_set.turning:
                raise IllegalMove(move, say("no-turning", "cards may not be turned in this game (turning is off)"))
        if len(args) != 1:
            raise IllegalMove(move, say("place-form", "say 'place CELL' or 'place CELL turned'"))
        try:
            return self.table.cell(args[0]), turned
        except UnknownLabel as exc:
            raise IllegalMove(move, say("not-a-table-cell", "{cell} is not a cell of the table: {reason}", cell=repr(args[0]),
                                        reason=exc.said)) from None

    # ----- what happens after a move -----------------------------------------------------
    def draw_card(self, colour: str) -> None:
        """Give the colour its next card (the discard pile turns over when the deck is out)."""
        if not self.hands[colour]:
            self.hands[colour] = self.supplies[colour].draw(1)

    def stuck(self, colour: str) -> bool:
        """No card the colour still owns (hand, deck, discard pile) can be placed anywhere."""
        owned = set(self.hands[colour]) | set(self.supplies[colour].cards) | set(self.supplies[colour].discards)
        return not any(self.table.legal_placements(colour, d, self.rules) for d in owned)

    def after_place(self, colour: str, cell: int) -> None:
        """Kids: the far edge wins at once; both players on both side edges is a draw."""
        if self.table.reaches_far_edge(cell, colour):
            self.result = Result(colour, far_edge(colour, self.table.label(cell)))
        elif self.table.sides_closed():
            self.result = Result("draw", SIDES_CLOSED)

    def check_start(self) -> None:
        """Kids: the end conditions on the start position (both side edges closed, or a player out of cards)."""
        if self.table.sides_closed():
            self.result = Result("draw", SIDES_CLOSED)
            return
        for c in self.colours:
            if self.stuck(c):
                self.result = Result("draw", out_of_cards(c))
                return

    def after_action(self, colour: str) -> None:
        """Pass the turn; the next player draws; a player out of placeable cards draws the game."""
        self.draw_card(colour)
        self.turn = (self.turn + 1) % len(self.colours)
        nxt = self.colours[self.turn]
        self.draw_card(nxt)
        for c in (nxt, colour):
            if self.stuck(c):
                self.result = Result("draw", out_of_cards(c))
                return
