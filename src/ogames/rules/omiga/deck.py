"""Omiga decks: one colour's (or one team's) face-down deck and face-up discard pile, seeded.

Cards are design numbers (indices into the CardSet). The deck's top is the end of `cards`; the
discard pile's top is the end of `discards`. When the deck is out, the discard pile is turned
over as it lies (not shuffled): the first card discarded becomes the new top.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

HAND_SIZE = 3


class Supply:
    """A deck and its discard pile, with their own seeded random source for shuffles."""

    def __init__(self, designs: int, rng: random.Random):
        self.rng = rng
        self.cards: list[int] = list(range(designs))
        self.rng.shuffle(self.cards)
        self.discards: list[int] = []
        self.turns = 0  # how often the discard pile became the deck

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def exhausted(self) -> bool:
        """No card left in the deck nor in the discard pile (only hands hold cards)."""
        return not self.cards and not self.discards

    def turn_discards(self) -> None:
        """Make the discard pile the new deck, turned over as it lies."""
        self.cards = list(reversed(self.discards))
        self.discards = []
        self.turns += 1

    def draw(self, count: int = HAND_SIZE) -> list[int]:
        """Up to `count` cards from the top, turning the discard pile over when the deck is out."""
        drawn: list[int] = []
        while len(drawn) < count:
            if not self.cards:
                if not self.discards:
                    break
                self.turn_discards()
            drawn.append(self.cards.pop())
        return drawn

    def discard(self, cards: Iterable[int]) -> None:
        """Lay cards face up on the discard pile, in the given order."""
        self.discards.extend(cards)

    def shuffle_back(self, cards: Iterable[int]) -> None:
        """Put cards into the deck and shuffle it (the start: unfitting cards go back)."""
        self.cards.extend(cards)
        # Copies of a supply share its random source (see `copy`), so a shuffle draws from a copy
        # of it that becomes this supply's own: the others' sources stay as they were.
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        rng.shuffle(self.cards)
        self.rng = rng

    def copy(self) -> Supply:
        """An independent copy: its own deck and discard pile, and the same random source (rarely
        used after the start; never changed in place, see `shuffle_back`). Copying changes nothing
        of this supply: a state is copied before every action, refused ones too."""
        other = Supply.__new__(Supply)
        other.rng = self.rng
        other.cards = list(self.cards)
        other.discards = list(self.discards)
        other.turns = self.turns
        return other

    def snapshot(self) -> dict[str, list[int]]:
        """The deck and discard pile as lists (deck top last), for tests and faces."""
        return {"deck": list(self.cards), "discards": list(self.discards)}
