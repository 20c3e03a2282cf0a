"""What the rating pages and the end of a rated game read and write in the games database: thin
`Store` functions over `ogames.ratings.RatingStore` (each takes its turn on SQLite's one
connection, as every store call does, and raises `StorageError` for a database that failed) and
the queries the profile needs. Call them off the event loop."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import and_, or_, select

from ogames.ratings import HistoryPoint, Rating, RatingChange, RatingStore, Standing
from ogames.ratings.store import rating_history
from ogames.rules.protocol import State
from ogames.web.accounts.records import accounts, seat_players
from ogames.web.core.store import Store, guarded


@guarded(writes=True)
def rate_game(store: Store, game_id: str, state: State, players: Sequence[str]) -> list[RatingChange] | None:
    """Rate a finished game once (`RatingStore.rate_finished`): None if it was rated already or is not rated."""
    return RatingStore(store.engine).rate_finished(game_id, state, players)


@guarded()
def game_changes(store: Store, game_id: str) -> list[tuple[str, Rating, Rating]]:
    """What a rated game did to each person's rating, read back from the history: (player id,
    before, after). Before is the player's rating after their previous rated game of the pool, as
    uncertain again as the time between the two games made it (`Rating.idle`: a rating back after
    months away was provisional when this game began, as it was rated) — a new player's if none;
    empty if the game changed no rating."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(rating_history).where(rating_history.c.game_id == game_id)).mappings().all()
        found = []
        for row in rows:
            earlier = and_(rating_history.c.player_id == row["player_id"], rating_history.c.pool == row["pool"],
                           or_(rating_history.c.at < row["at"],
                               and_(rating_history.c.at == row["at"], rating_history.c.game_id < game_id)))
            before_row = conn.execute(
                select(rating_history).where(earlier)
                .order_by(rating_history.c.at.desc(), rating_history.c.game_id.desc()).limit(1)
            ).mappings().first()
            games_before = conn.execute(select(rating_history.c.game_id).where(earlier)).all()
            before = Rating() if before_row is None else Rating(
                before_row["rating"], before_row["deviation"], len(games_before)).idle(row["at"] - before_row["at"])
            found.append((row["player_id"], before, Rating(row["rating"], row["deviation"], len(games_before) + 1)))
    return found


@guarded()
def ratings_of(store: Store, player_id: str) -> dict[str, Rating]:
    return RatingStore(store.engine).ratings_of(player_id)


@guarded()
def history(store: Store, player_id: str, pool: str) -> list[HistoryPoint]:
    return RatingStore(store.engine).history(player_id, pool)


@guarded()
def leaderboard(store: Store, pool: str, limit: int = 50) -> list[Standing]:
    return RatingStore(store.engine).leaderboard(pool, limit)


@guarded()
def names_of(store: Store, player_ids: Iterable[str]) -> dict[str, str]:
    """The accounts' names of these player ids (guests and deleted accounts are left out)."""
    wanted = sorted({player for player in player_ids if player})
    if not wanted:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(wanted)))
        return {row.id: row.name for row in rows}


@guarded()
def seat_names_for(store: Store, game_ids: Sequence[str]) -> dict[str, dict[int, str]]:
    """The accounts' names in these games' seats, by game and seat (guests and deleted accounts left out)."""
    if not game_ids:
        return {}
    found: dict[str, dict[int, str]] = {}
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(seat_players.c.game_id, seat_players.c.seat, accounts.c.name)
            .join(accounts, accounts.c.id == seat_players.c.player_id)
            .where(seat_players.c.game_id.in_(list(game_ids)))
        )
        for row in rows:
            found.setdefault(row.game_id, {})[row.seat] = row.name
    return found


__all__ = ["game_changes", "history", "leaderboard", "names_of", "rate_game", "ratings_of", "seat_names_for"]
