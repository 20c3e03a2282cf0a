"""Omiga «Дети» (kids), RULES.md §5, played turn by turn.

Each player lays the top card of their deck at their own home edge, both in the middle column,
one opposite the other. Then, in turn (White first), the player to move holds one card, drawn
from their deck (the discard pile is turned over when the deck is out), and either places it or,
only if it fits nowhere, discards it; then they draw the next card. Placement: rules 1 and 2
(fit every orthogonal neighbour, touch an own card), rule 3 dropped. The first card on the far
edge (the opponent's home edge) wins; there is no "behind" win in this variant.
Draws: both players have cards on the left and the right table edges; or a player has run out of
cards — no card they still own (hand, deck, discard pile) can be placed anywhere, which never
changes again because opponent cards only ever block.

Moves: `place CELL` or `place CELL turned` (also `place 1 CELL …`: the hand's only card) and
`discard`. The turn engine is `turn_based.py`, shared with toddler.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ogames.rules.omiga.turn_based import TurnCardState


class KidsState(TurnCardState):
    """«Дети»: two players, one card at a time, first to the far edge wins."""

    def __init__(self, game: Any, players: Sequence[str] | None = None):
        super().__init__(game, players)
        for colour in self.colours:
            self.draw_card(colour)
