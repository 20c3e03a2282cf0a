"""The puzzles the site offers (ogames.teach.puzzles, the shipped set unless the settings name
another file), read once per server process, and the day's puzzle: the same for everyone on a
date, chosen by a hash of the date among the puzzles sorted by id (no table, no clock of its own)."""

from __future__ import annotations

import datetime
import hashlib
import random
from dataclasses import dataclass, field
from pathlib import Path

from ogames.ratings import Rating
from ogames.teach.puzzles import SHIPPED, Puzzle, read

MAX_LISTED = 100  # puzzles one list page shows
NEAREST = 8  # "next puzzle" draws among this many untried puzzles rated nearest the player


@dataclass
class GameTries:
    """How many of one game's puzzles a player tried, and solved at the first try."""

    game: str
    tried: int = 0
    solved: int = 0


@dataclass
class PuzzleSet:
    """Puzzles by id, in id order."""

    puzzles: dict[str, Puzzle] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path | None = None) -> PuzzleSet:
        """The puzzles of a JSON-lines file (the shipped set if None; none if it is missing)."""
        source = Path(path) if path else SHIPPED
        if not source.exists():
            return cls()
        return cls({puzzle.id: puzzle for puzzle in sorted(read(source), key=lambda p: p.id)})

    def get(self, ident: str) -> Puzzle | None:
        return self.puzzles.get(ident)

    def games(self) -> list[str]:
        """The games with puzzles, in the order ogames.teach.puzzles names them."""
        present = {puzzle.game for puzzle in self.puzzles.values()}
        return [game for game in ("omny", "oddy", "omega", "onyx") if game in present]

    def themes(self, game: str | None = None) -> list[str]:
        """The themes of a game's puzzles (of every puzzle if None), sorted."""
        return sorted({theme for puzzle in self.puzzles.values() if game in (None, puzzle.game) for theme in puzzle.themes})

    def chosen(self, game: str | None = None, theme: str | None = None) -> list[Puzzle]:
        """The puzzles of a game and with a theme (either may be None: any), easiest first."""
        found = [p for p in self.puzzles.values() if game in (None, p.game) and (theme is None or theme in p.themes)]
        return sorted(found, key=lambda p: (p.difficulty, p.id))

    def by_game(self, tries: dict[str, bool]) -> list[GameTries]:
        """A player's first tries (puzzle id → solved) counted per game, for the games with puzzles
        here; a try at a puzzle this set no longer holds is in no game's count."""
        counts = {game: GameTries(game) for game in self.games()}
        for ident, solved in tries.items():
            puzzle = self.puzzles.get(ident)
            if puzzle is not None:
                counts[puzzle.game].tried += 1
                counts[puzzle.game].solved += solved
        return list(counts.values())

    def daily(self, date: datetime.date) -> Puzzle | None:
        """The puzzle of a date: the same for everyone that day (and for every server process)."""
        if not self.puzzles:
            return None
        digest = hashlib.sha256(date.isoformat().encode()).digest()
        ids = list(self.puzzles)
        return self.puzzles[ids[int.from_bytes(digest[:8], "big") % len(ids)]]


def next_puzzle(candidates: list[Puzzle], ratings: dict[str, Rating], tried: set[str], player: Rating,
                skip: str | None = None, rng: random.Random | None = None) -> Puzzle | None:
    """The puzzle to train on next, as lichess serves one: a puzzle the player has not tried (nor
    `skip`, the one just left), drawn among the `NEAREST` whose ratings are closest to theirs so
    that it is neither trivial nor hopeless and not always the same; None when none is left."""
    left = [puzzle for puzzle in candidates if puzzle.id not in tried and puzzle.id != skip]
    left.sort(key=lambda puzzle: (abs(ratings[puzzle.id].rating - player.rating), puzzle.id))
    return (rng or random.Random()).choice(left[:NEAREST]) if left else None


__all__ = ["MAX_LISTED", "NEAREST", "GameTries", "PuzzleSet", "next_puzzle"]
