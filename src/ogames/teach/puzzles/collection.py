"""A set of puzzles by id (the shipped set unless a file is named): its games and themes, the
puzzles of a game and theme (easiest first), a player's first tries counted by game, and the day's
puzzle: the same for everyone on a date, chosen by a hash of the date among the puzzles sorted by
id (no table, no clock of its own). The site and the terminal (`ogames puzzle`) both choose from one.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ogames.teach.puzzles.format import SHIPPED, Puzzle, read


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
        return cls.of(read(source))

    @classmethod
    def of(cls, puzzles: Iterable[Puzzle]) -> PuzzleSet:
        """These puzzles (of one id, the last)."""
        return cls({puzzle.id: puzzle for puzzle in sorted(puzzles, key=lambda p: p.id)})

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


__all__ = ["GameTries", "PuzzleSet"]
