"""The uniformly random player (seeded, so games against it can be repeated)."""

from __future__ import annotations

import random

from ogames.errors import CannotPlay
from ogames.players.base import BasePlayer
from ogames.rules.protocol import State


class RandomPlayer(BasePlayer):
    """Picks uniformly among the legal moves."""

    def __init__(self, name: str = "random", seed: int | None = None):
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self) -> None:
        """Start the random sequence again from the seed."""
        self.rng = random.Random(self.seed)

    def choose(self, state: State) -> str:
        """A random legal move."""
        moves = state.legal_moves()
        if not moves:
            raise CannotPlay(f"no legal move in {state!r}")
        return self.rng.choice(moves)
