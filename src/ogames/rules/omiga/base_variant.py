"""Omiga's base game (RULES.md §5): two players, one deck each, both playing at once."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ogames.errors import BadOption
from ogames.rules.omiga.deck import HAND_SIZE, Supply
from ogames.rules.omiga.game import Omiga
from ogames.rules.omiga.realtime import DuelState
from ogames.rules.omiga.table import Table
from ogames.rules.protocol import Result
from ogames.wording import say

COLOURS = ("white", "black")


def colour_rng(seed: int, colour: str, round_number: int = 0) -> random.Random:
    """The random source of one colour's deck, fixed by the seed (and the 2v2 round)."""
    return random.Random(f"omiga:{seed}:{round_number}:{colour}")


def lay_start(table: Table, supplies: dict[str, Supply], rng: random.Random) -> None:
    """White's top card, either way up, in the centre; Black reveals cards until one fits below it
    (on Black's side), laying it; the unfitting ones are shuffled back into Black's deck."""
    centre = table.centre()
    design = supplies["white"].cards.pop()
    table.place(centre, "white", design, rng.choice(table.card_set.faces(design)))
    below = centre - table.width
    unfitting = []
    while supplies["black"].cards:
        card = supplies["black"].cards.pop()
        face = next((f for f in table.card_set.faces(card) if table.fits(below, f)), None)
        if face is not None:
            table.place(below, "black", card, face)
            break
        unfitting.append(card)
    else:
        # `load` refuses card sets where this could happen (game.unplayable), so no round fails here.
        raise BadOption("no black card fits the first white card with this card set")
    supplies["black"].shuffle_back(unfitting)


class BaseState(DuelState):
    """A base game: White and Black, hands of 3, first to the far edge or behind an opponent card."""

    def __init__(self, game: Omiga, players: Sequence[str] | None = None):
        super().__init__(game, players)
        opts = game.options
        self.table = Table(opts["width"], opts["height"], game.card_set)
        self.supplies = {c: Supply(len(game.card_set), colour_rng(opts["seed"], c)) for c in COLOURS}
        lay_start(self.table, self.supplies, colour_rng(opts["seed"], "start"))
        self.hands = {c: self.supplies[c].draw(HAND_SIZE) for c in COLOURS}
        self._check_draws()  # a draw may hold on the signal already (a card set where nothing can follow)

    def _check_draws(self) -> None:
        if self.table.sides_closed(COLOURS):
            self.result = Result("draw", say("both-sides", "both players reached both side edges"))
            return
        for colour in COLOURS:
            if self.ended_by_stuck(colour, self.supplies[colour].exhausted, self.hands[colour]):
                self.result = Result("draw", say("stuck-hand", "{colour} has no cards left but the hand and none can be placed",
                                             colour=colour))
                return
        if self.table_dead(COLOURS):
            # Not in the booklet: nobody could ever lay a card again, so the game cannot end otherwise.
            self.result = Result("draw", say("table-dead", "no card of either deck can be placed anywhere"))
