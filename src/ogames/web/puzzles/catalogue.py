"""What the site adds to the puzzles it offers (`ogames.teach.puzzles.PuzzleSet`, the shipped set
unless the settings name another file, read once per server process): the length of a list page,
and the next puzzle to train on."""

from __future__ import annotations

import random

from ogames.ratings import Rating
from ogames.teach.puzzles import Puzzle

MAX_LISTED = 100  # puzzles one list page shows
NEAREST = 8  # "next puzzle" draws among this many untried puzzles rated nearest the player


def next_puzzle(candidates: list[Puzzle], ratings: dict[str, Rating], tried: set[str], player: Rating,
                skip: str | None = None, rng: random.Random | None = None) -> Puzzle | None:
    """The puzzle to train on next, as lichess serves one: a puzzle the player has not tried (nor
    `skip`, the one just left), drawn among the `NEAREST` whose ratings are closest to theirs so
    that it is neither trivial nor hopeless and not always the same; None when none is left."""
    left = [puzzle for puzzle in candidates if puzzle.id not in tried and puzzle.id != skip]
    left.sort(key=lambda puzzle: (abs(ratings[puzzle.id].rating - player.rating), puzzle.id))
    return (rng or random.Random()).choice(left[:NEAREST]) if left else None


__all__ = ["MAX_LISTED", "NEAREST", "next_puzzle"]
