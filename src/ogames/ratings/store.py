"""Ratings in the database: each player's rating per pool (`ratings`) and one row per rated game
and player (`rating_history`), through SQLAlchemy Core on the engine the caller gives (the web
server's). The schema is made by the web server's alembic migration `0004_ratings`; these
declarations are what the queries use.

A game is rated once: its history rows are keyed by (game, player), so of two processes that
finish the same game at once, the second one's insert fails and it changes nothing. Two games
of one player rated at once cannot lose an update either: a rating is rewritten only if it still
counts the games it was read with, else the game is rated again on the newer rating. Computer
levels are not stored: their ratings are fixed (`ladder.py`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Column, Connection, Engine, Float, Index, Integer, MetaData, String, Table, insert, select, update
from sqlalchemy.engine import RowMapping
from sqlalchemy.exc import IntegrityError

from ogames.ratings.ladder import COMPUTER, computer_rating, level_of
from ogames.ratings.model import DAY, IDLE_GROWTH, PROVISIONAL_DEVIATION, Rating, rate
from ogames.ratings.pools import POOLS, pool_of
from ogames.ratings.results import aborted, ranks_of
from ogames.rules.protocol import State

PLAYER_ID_LENGTH = 64
GAME_ID_LENGTH = 32
ATTEMPTS = 8  # how often a game is rated again after another game of one of its players came first

metadata = MetaData()

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(PLAYER_ID_LENGTH), primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_pool_rating", "pool", "rating"),
)
rating_history = Table(
    "rating_history",
    metadata,
    Column("game_id", String(GAME_ID_LENGTH), primary_key=True),
    Column("player_id", String(PLAYER_ID_LENGTH), primary_key=True),
    Column("pool", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_history_player", "player_id", "pool", "at"),
)


@dataclass(frozen=True)
class RatingChange:
    """What one game did to one seat's rating."""

    seat: int
    player_id: str
    before: Rating
    after: Rating

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    player_id: str
    rating: Rating


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating in a pool just after one rated game."""

    game_id: str
    rating: float
    deviation: float
    at: float


class Changed(Exception):
    """A rating changed between reading it and writing it (another game of the player came first)."""


class RatingStore:
    """The players' ratings, in the database of `engine` (its schema made by the migrations).
    Every method is a few short transactions; call them off the event loop."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def rating(self, player_id: str, pool: str, *, at: float | None = None) -> Rating:
        """A player's rating in a pool as of `at` (default: now; a rating not played for a while
        is more uncertain): a computer level's fixed one, a new player's if none is stored."""
        _check_pool(pool)
        with self.engine.connect() as conn:
            return self._read(conn, [player_id], pool, _now(at))[0]

    def ratings_of(self, player_id: str, *, at: float | None = None) -> dict[str, Rating]:
        """Every pool a player has a rating in (a profile's list), by pool name."""
        now = _now(at)
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.player_id == player_id)).mappings().all()
        return {row["pool"]: _stored(row, now) for row in rows}

    def apply_result(
        self, game_id: str, pool: str, players_by_seat: Sequence[str], ranks: Sequence[int], *, at: float | None = None
    ) -> list[RatingChange] | None:
        """Rate a finished game: `players_by_seat` the player ids in seat order (a computer level
        as `computer:<level>`), `ranks` each seat's place (0 first, equal places tie; `ranks_of`).
        Every person's rating and history change in one transaction; a computer level's never do.
        The changes by seat, or None if the game was rated already (by this process or another):
        a game is rated once. ValueError (nothing changed) for a result that cannot be rated."""
        _check_game(game_id, pool, players_by_seat, ranks)
        now = _now(at)
        fixed = [level_of(player) is not None for player in players_by_seat]
        for _ in range(ATTEMPTS):
            with self.engine.connect() as conn:
                if self._rated(conn, game_id):
                    return None
                before = self._read(conn, players_by_seat, pool, now)
            rules = POOLS[pool]
            teams = [rules.team_of(seat) for seat in range(len(players_by_seat))] if rules.teams else None
            after = rate(before, ranks, table=rules.table, fixed=fixed, teams=teams)
            changes = [RatingChange(seat, player, before[seat], after[seat]) for seat, player in enumerate(players_by_seat)]
            try:
                with self.engine.begin() as conn:
                    for change in changes:
                        if not fixed[change.seat]:
                            self._write(conn, game_id, pool, change, now)
                return changes
            except (Changed, IntegrityError):
                # Something was written meanwhile: the game's history rows (the game rated by
                # another process: the next turn of the loop sees it), a new player's first
                # rating, or a newer rating of a player. Rate it again on what is stored now.
                continue
        raise RuntimeError(f"game {game_id}: its players' ratings kept changing while it was rated; try again")

    def rate_finished(
        self, game_id: str, state: State, players_by_seat: Sequence[str], *, at: float | None = None
    ) -> list[RatingChange] | None:
        """Rate a finished rated game from its state: its pool, places and whether it was aborted
        come from the game itself. None when it changes no rating: aborted before everyone had
        moved, of a kind that is only played casual (`pool_of`), or rated already."""
        record = state.record()
        pool = pool_of(record["game"], record["options"])
        if pool is None or aborted(record):
            return None
        return self.apply_result(game_id, pool.name, players_by_seat, ranks_of(state), at=at)

    def leaderboard(self, pool: str, limit: int = 50, *, at: float | None = None) -> list[Standing]:
        """The best-rated players of a pool, best first: people only (computer levels stand
        apart), and only those whose rating has settled (not provisional as of `at`)."""
        _check_pool(pool)
        if limit < 1:
            raise ValueError(f"a leaderboard lists at least one player, not {limit}")
        now = _now(at)
        # The deviation as of now, grown while the rating was not played (Rating.idle), squared.
        grown = ratings.c.deviation * ratings.c.deviation + (IDLE_GROWTH**2 / DAY) * (now - ratings.c.updated_at)
        query = (
            select(ratings)
            .where(ratings.c.pool == pool, grown <= PROVISIONAL_DEVIATION**2, ~ratings.c.player_id.startswith(COMPUTER))
            .order_by(ratings.c.rating.desc(), ratings.c.player_id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [Standing(row["player_id"], _stored(row, now)) for row in rows]

    def history(self, player_id: str, pool: str) -> list[HistoryPoint]:
        """A player's rating after each rated game of a pool, oldest first (a profile's graph)."""
        _check_pool(pool)
        query = (
            select(rating_history)
            .where(rating_history.c.player_id == player_id, rating_history.c.pool == pool)
            .order_by(rating_history.c.at, rating_history.c.game_id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [HistoryPoint(row["game_id"], row["rating"], row["deviation"], row["at"]) for row in rows]

    # ----- inside a transaction ------------------------------------------------------------

    @staticmethod
    def _rated(conn: Connection, game_id: str) -> bool:
        found = conn.execute(select(rating_history.c.game_id).where(rating_history.c.game_id == game_id).limit(1))
        return found.first() is not None

    @staticmethod
    def _read(conn: Connection, players: Sequence[str], pool: str, now: float) -> list[Rating]:
        """The players' ratings as of `now`, in order."""
        people = [player for player in players if level_of(player) is None]
        rows = conn.execute(select(ratings).where(ratings.c.pool == pool, ratings.c.player_id.in_(people))).mappings().all()
        stored = {row["player_id"]: _stored(row, now) for row in rows}
        found = []
        for player in players:
            level = level_of(player)
            found.append(computer_rating(pool, level) if level is not None else stored.get(player, Rating()))
        return found

    @staticmethod
    def _write(conn: Connection, game_id: str, pool: str, change: RatingChange, now: float) -> None:
        """One person's new rating and its history row; Changed if the stored rating no longer
        counts the games it was read with (a stored rating counts one game at least: none
        counted means none stored)."""
        after, counted = change.after, change.before.games
        conn.execute(
            insert(rating_history).values(
                game_id=game_id, player_id=change.player_id, pool=pool, rating=after.rating, deviation=after.deviation, at=now
            )
        )
        values = {"rating": after.rating, "deviation": after.deviation, "games": after.games, "updated_at": now}
        if counted == 0:
            conn.execute(insert(ratings).values(player_id=change.player_id, pool=pool, **values))
            return
        written = conn.execute(
            update(ratings)
            .where(ratings.c.player_id == change.player_id, ratings.c.pool == pool, ratings.c.games == counted)
            .values(**values)
        ).rowcount
        if written != 1:
            raise Changed(change.player_id)


def _stored(row: RowMapping, now: float) -> Rating:
    """A stored rating as of `now`."""
    rating = Rating(float(row["rating"]), float(row["deviation"]), int(row["games"]))
    return rating.idle(now - float(row["updated_at"]))


def _now(at: float | None) -> float:
    return time.time() if at is None else at


def _check_pool(pool: str) -> None:
    if pool not in POOLS:
        raise ValueError(f"no rating pool is called {pool!r} (the pools: {', '.join(POOLS)})")


def _check_game(game_id: str, pool: str, players: Sequence[str], ranks: Sequence[int]) -> None:
    """ValueError, in a sentence, for a game that cannot be rated as given."""
    _check_pool(pool)
    if not isinstance(game_id, str) or not 0 < len(game_id) <= GAME_ID_LENGTH:
        raise ValueError(f"a game id is a text of 1 to {GAME_ID_LENGTH} characters, not {game_id!r}")
    rules = POOLS[pool]
    if len(players) not in rules.seats:
        wanted = " or ".join(str(count) for count in rules.seats)
        raise ValueError(f"a game of the pool {pool!r} is rated with {wanted} players, not {len(players)}")
    if len(ranks) != len(players):
        raise ValueError(f"one rank per seat: {len(players)} players but {len(ranks)} ranks")
    if any(not isinstance(rank, int) or isinstance(rank, bool) or not 0 <= rank < len(players) for rank in ranks):
        raise ValueError(f"ranks are places from 0 (first) to {len(players) - 1}, not {list(ranks)!r}")
    if rules.teams and any(ranks[seat] != ranks[rules.team_of(seat)] for seat in range(len(players))):
        raise ValueError(f"the players of a team share its place, not {list(ranks)!r}")
    for player in players:
        if not isinstance(player, str) or not 0 < len(player) <= PLAYER_ID_LENGTH:
            raise ValueError(f"a player id is a text of 1 to {PLAYER_ID_LENGTH} characters, not {player!r}")
        if player.startswith(COMPUTER) and level_of(player) is None:
            raise ValueError(f"{player!r} is no computer level (computer:1 … computer:10)")
    if len(set(players)) != len(players):
        raise ValueError("a player cannot be rated against themselves: the seats' players must differ")
    if all(level_of(player) is not None for player in players):
        raise ValueError("a game between computer levels is not rated: their ratings are fixed")
