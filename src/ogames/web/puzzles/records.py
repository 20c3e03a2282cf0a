"""The puzzle ratings in the games database: thin `Store` functions over
`ogames.ratings.puzzles.PuzzleRatings` (each takes its turn on SQLite's one connection, as every
store call does). Call them off the event loop."""

from __future__ import annotations

from ogames.ratings import Rating
from ogames.ratings.puzzles import PuzzleChange, PuzzleRatings
from ogames.teach.puzzles import Puzzle
from ogames.web.core.store import Store, guarded


@guarded(writes=True)
def rate_try(store: Store, puzzle: Puzzle, player_id: str, solved: bool) -> PuzzleChange | None:
    """Rate a player's first try at a puzzle; None if it is not their first (nothing changes)."""
    return PuzzleRatings(store.engine).record(puzzle.id, puzzle.difficulty, player_id, solved)


@guarded()
def standing(store: Store, puzzle: Puzzle, player_id: str) -> tuple[Rating, Rating, bool | None]:
    """The puzzle's rating, the player's puzzle rating, and how their first try went (None: not tried)."""
    ratings = PuzzleRatings(store.engine)
    return ratings.puzzle(puzzle.id, puzzle.difficulty), ratings.player(player_id), ratings.first_try(puzzle.id, player_id)


@guarded()
def listed(store: Store, puzzles: list[Puzzle], player_id: str) -> tuple[dict[str, Rating], dict[str, bool]]:
    """The listed puzzles' ratings, and the player's first tries at them (id → solved)."""
    return PuzzleRatings(store.engine).listed({puzzle.id: puzzle.difficulty for puzzle in puzzles}, player_id)


@guarded()
def record_of(store: Store, player_id: str) -> tuple[Rating, dict[str, bool]]:
    """A player's puzzle rating and every first try of theirs (puzzle id → solved)."""
    ratings = PuzzleRatings(store.engine)
    return ratings.player(player_id), ratings.tries(player_id)


@guarded()
def choosing(store: Store, puzzles: list[Puzzle], player_id: str) -> tuple[Rating, dict[str, Rating], dict[str, bool]]:
    """What choosing a player's next puzzle among `puzzles` reads: their puzzle rating, the
    puzzles' ratings and the player's first tries at them."""
    ratings = PuzzleRatings(store.engine)
    return ratings.player(player_id), *ratings.listed({puzzle.id: puzzle.difficulty for puzzle in puzzles}, player_id)


__all__ = ["choosing", "listed", "rate_try", "record_of", "standing"]
