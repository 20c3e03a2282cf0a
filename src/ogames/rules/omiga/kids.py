"""Omiga «Дети» (kids), RULES.md §5: two players race from their own edges, one card at a time.

The booklet: «Как и в базовой игре, игроки ходят одновременно» — both play at once, so `KidsState`
runs on the real-time authority of the base game (`realtime.py`); `KidsTurnState` is the explicit
turn-based form for beginners (`pace=turns`, White first).

Start: each player lays the top card of their deck, as printed, at their own home edge in the
middle column (White on the top row, Black on the bottom row, one opposite the other); then each
draws one card. Each player holds one card at a time: they place it or, only when it fits nowhere
on the table as it is when the discard arrives, discard it; either way they draw the next card at
once (the discard pile is turned over, as it lies, when the deck is out). Placement: rules 1 and 2
(fit every orthogonal neighbour of either colour, touch an own card), rule 3 dropped.
The first card on the far edge (the opponent's home edge) wins; there is no "behind" win here.
Draws: both players have cards on the left and the right table edges; or a player has run out of
cards — no card they still own (hand, deck, discard pile) can be placed anywhere, which never
changes again because opponent cards only ever block. Both are checked on the signal too.

Real-time actions are the base game's: `place CARD CELL [turned]` (CARD: the design number or its
code; the hand holds one) and `discard`, written `white: place 7 d10` through `play`. Turn-based
moves: `place CELL [turned]` (also `place 1 CELL …`) and `discard`; the engine is `turn_based.py`,
shared with toddler. Both forms deal the same decks for a seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ogames.rules.omiga.deck import Supply
from ogames.rules.omiga.game import Omiga
from ogames.rules.omiga.realtime import DuelState
from ogames.rules.omiga.table import KIDS_RULES, Table, far_edge
from ogames.rules.omiga.turn_based import SIDES_CLOSED, TurnCardState, out_of_cards, supply_rng
from ogames.rules.protocol import Result
from ogames.wording import say

COLOURS = ("white", "black")



class KidsState(DuelState):
    """«Дети» in real time: one card in hand each, both playing at once, first to the far edge."""

    rules = KIDS_RULES
    hand_size = 1

    def __init__(self, game: Omiga, players: Sequence[str] | None = None):
        super().__init__(game, players)
        opts = game.options
        card_set = game.card_set
        self.table = Table(opts["width"], opts["height"], card_set)
        self.supplies = {c: Supply(len(card_set), supply_rng(opts["seed"], "kids", c)) for c in COLOURS}
        for colour in COLOURS:
            design = self.supplies[colour].cards.pop()
            row = self.table.home_rows[self.table.index_of(colour)]
            self.table.place(self.table.number(self.table.width // 2, row), colour, design, card_set.designs[design])  # type: ignore[arg-type]
        self.hands = {c: self.supplies[c].draw(1) for c in COLOURS}
        self._check_draws()

    def wins_at(self, cell: int, colour: str) -> str | None:
        """Only the far edge wins in kids."""
        if self.table.reaches_far_edge(cell, colour):
            return far_edge(colour, self.table.label(cell))
        return None

    def discard_problem(self, actor: str) -> str | None:
        """A card is discarded only when it fits nowhere now."""
        problem = super().discard_problem(actor)
        if problem:
            return problem
        spots = self.placements(actor)
        if spots:
            design, cell, _ = spots[0]
            return say("discard-fits", "card {card} fits, e.g. on {cell}: a card is discarded only when it fits nowhere",
                       card=design, cell=self.table.label(cell))
        return None

    def stuck(self, colour: str) -> bool:
        """No card the colour still owns (hand, deck, discard pile) can be placed anywhere."""
        supply = self.supplies[colour]
        owned = set(self.hands[colour]) | set(supply.cards) | set(supply.discards)
        return not any(self.table.legal_placements(colour, d, self.rules) for d in owned)

    def _check_draws(self) -> None:
        if self.table.sides_closed(COLOURS):
            self.result = Result("draw", SIDES_CLOSED)
            return
        for colour in COLOURS:
            if self.stuck(colour):
                self.result = Result("draw", out_of_cards(colour))
                return


class KidsTurnState(TurnCardState):
    """«Дети» turn by turn (`pace=turns`): White first, one card at a time, first to the far edge."""

    def __init__(self, game: Any, players: Sequence[str] | None = None):
        super().__init__(game, players)
        for colour in self.colours:
            self.draw_card(colour)
        self.check_start()
