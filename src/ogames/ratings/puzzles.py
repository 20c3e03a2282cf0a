"""Puzzle ratings (docs/web.md, "Puzzles"): every puzzle and every player who solves puzzles has a
rating, on the same Elo scale and through the same openskill model as the games' two-player pools
(`model.rate`). A player's first try at a puzzle is one rated game between the player and the
puzzle: solved, the player wins; failed (a wrong move, or the solution asked for), the puzzle
wins. Only the first try counts: `puzzle_attempts` is keyed by (puzzle, player), so a second try,
or the same try sent by two server processes at once, changes nothing.

A new puzzle starts from its difficulty (1 → 1200 … 5 → 1800); a player's puzzle rating is one
rating over every game's puzzles, apart from the games' pools. The tables are made by the web
server's migration `0015_puzzles`; as in `store.py`, a rating is rewritten only if it still
counts the games it was read with, else the try is rated again on the newer ratings.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Boolean, Column, Connection, Engine, Float, Integer, MetaData, String, Table, insert, select, update
from sqlalchemy.engine import RowMapping
from sqlalchemy.exc import IntegrityError

from ogames.ratings.model import START_DEVIATION, Rating, rate

PLAYER_ID_LENGTH = 64
PUZZLE_ID_LENGTH = 64
ATTEMPTS = 8  # how often a try is rated again after another try of its player or puzzle came first
START_BY_DIFFICULTY = {1: 1200.0, 2: 1350.0, 3: 1500.0, 4: 1650.0, 5: 1800.0}

metadata = MetaData()


def _ratings_table(name: str, key: str, length: int) -> Table:
    """A table of ratings, one row an id. Puzzles' ratings and players' puzzle ratings are both kept
    so, one rating to a row, for `_read` and `_write` to read and write either."""
    return Table(
        name,
        metadata,
        Column(key, String(length), primary_key=True),
        Column("rating", Float, nullable=False),
        Column("deviation", Float, nullable=False),
        Column("games", Integer, nullable=False),
        Column("updated_at", Float, nullable=False),
    )


puzzle_ratings = _ratings_table("puzzle_ratings", "puzzle_id", PUZZLE_ID_LENGTH)
puzzle_players = _ratings_table("puzzle_players", "player_id", PLAYER_ID_LENGTH)
puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("puzzle_id", String(PUZZLE_ID_LENGTH), primary_key=True),
    Column("player_id", String(PLAYER_ID_LENGTH), primary_key=True),
    Column("solved", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True)
class PuzzleChange:
    """What a first try did: the player's and the puzzle's ratings before and after."""

    solved: bool
    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


class Changed(Exception):
    """A rating changed between reading it and writing it."""


def start_rating(difficulty: int) -> Rating:
    """A puzzle's rating before anyone tried it."""
    return Rating(START_BY_DIFFICULTY.get(difficulty, START_BY_DIFFICULTY[3]), START_DEVIATION, 0)


class PuzzleRatings:
    """Puzzles' and players' puzzle ratings in the database of `engine`; call off the event loop."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def player(self, player_id: str) -> Rating:
        """A player's puzzle rating (a new player's if none is stored)."""
        with self.engine.connect() as conn:
            return _read(conn, puzzle_players, puzzle_players.c.player_id, player_id, Rating())

    def puzzle(self, puzzle_id: str, difficulty: int) -> Rating:
        """A puzzle's rating (its difficulty's start if nobody tried it yet)."""
        with self.engine.connect() as conn:
            return _read(conn, puzzle_ratings, puzzle_ratings.c.puzzle_id, puzzle_id, start_rating(difficulty))

    def first_try(self, puzzle_id: str, player_id: str) -> bool | None:
        """Whether the player solved the puzzle at the first try; None if they have not tried it."""
        with self.engine.connect() as conn:
            row = conn.execute(select(puzzle_attempts.c.solved).where(
                puzzle_attempts.c.puzzle_id == puzzle_id, puzzle_attempts.c.player_id == player_id)).first()
        return None if row is None else bool(row.solved)

    def tries(self, player_id: str) -> dict[str, bool]:
        """Every puzzle the player tried: puzzle id → solved at the first try."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(puzzle_attempts.c.puzzle_id, puzzle_attempts.c.solved).where(
                puzzle_attempts.c.player_id == player_id)).all()
        return {row.puzzle_id: bool(row.solved) for row in rows}

    def listed(self, puzzles: dict[str, int], player_id: str) -> tuple[dict[str, Rating], dict[str, bool]]:
        """For puzzles given as id → difficulty: each one's rating, and the player's first tries (id → solved)."""
        ids = list(puzzles)
        with self.engine.connect() as conn:
            rows = conn.execute(select(puzzle_ratings).where(puzzle_ratings.c.puzzle_id.in_(ids))).mappings().all()
            tries = conn.execute(select(puzzle_attempts.c.puzzle_id, puzzle_attempts.c.solved).where(
                puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.puzzle_id.in_(ids))).all()
        stored = {row["puzzle_id"]: _rating(row) for row in rows}
        return ({ident: stored.get(ident) or start_rating(difficulty) for ident, difficulty in puzzles.items()},
                {row.puzzle_id: bool(row.solved) for row in tries})

    def record(
        self, puzzle_id: str, difficulty: int, player_id: str, solved: bool, *, at: float | None = None
    ) -> PuzzleChange | None:
        """Rate a player's first try at a puzzle; None if they tried it before (nothing changes)."""
        if not 0 < len(puzzle_id) <= PUZZLE_ID_LENGTH or not 0 < len(player_id) <= PLAYER_ID_LENGTH:
            raise ValueError("a puzzle id and a player id are texts of 1 to 64 characters")
        now = time.time() if at is None else at
        for _ in range(ATTEMPTS):
            if self.first_try(puzzle_id, player_id) is not None:
                return None
            player, puzzle = self.player(player_id), self.puzzle(puzzle_id, difficulty)
            player_after, puzzle_after = rate([player, puzzle], [0, 1] if solved else [1, 0], table=False)
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(puzzle_attempts).values(puzzle_id=puzzle_id, player_id=player_id, solved=solved, at=now))
                    _write(conn, puzzle_players, puzzle_players.c.player_id, player_id, player, player_after, now)
                    _write(conn, puzzle_ratings, puzzle_ratings.c.puzzle_id, puzzle_id, puzzle, puzzle_after, now)
                return PuzzleChange(solved, player, player_after, puzzle, puzzle_after)
            except (Changed, IntegrityError):
                continue  # tried meanwhile (the next turn sees it), or a rating moved on: rate again
        raise RuntimeError(f"puzzle {puzzle_id}: its ratings kept changing while a try was rated; try again")


def _rating(row: RowMapping) -> Rating:
    """The rating a row of a ratings table holds."""
    return Rating(float(row["rating"]), float(row["deviation"]), int(row["games"]))


def _read(conn: Connection, table: Table, key: Column[str], ident: str, new: Rating) -> Rating:
    row = conn.execute(select(table).where(key == ident)).mappings().first()
    return new if row is None else _rating(row)


def _write(conn: Connection, table: Table, key: Column[str], ident: str, before: Rating, after: Rating, now: float) -> None:
    """A new rating, written only over the one it was computed from (Changed otherwise)."""
    values = {"rating": after.rating, "deviation": after.deviation, "games": after.games, "updated_at": now}
    if before.games == 0:
        conn.execute(insert(table).values({key.name: ident, **values}))  # IntegrityError if written meanwhile
        return
    written = conn.execute(update(table).where(key == ident, table.c.games == before.games).values(**values)).rowcount
    if written != 1:
        raise Changed(ident)


__all__ = ["PuzzleChange", "PuzzleRatings", "puzzle_attempts", "puzzle_players", "puzzle_ratings", "start_rating"]
