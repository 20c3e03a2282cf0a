"""What the lobby keeps in the games database (migration 0008): the open seeks. Functions of the
`Store`, each one short transaction that does what it says or raises `StorageError` having changed
nothing; call them off the event loop.

A seek is taken by deleting its row: of any number of people accepting it at once, on any number of
server processes, exactly one deletion finds the row (`take`), and only that one makes the game.
Quick pairing takes two rows at once (`take_pair`: the other's seek and one's own, both or neither),
so that two players each pairing with the other's seek make one game, not two.

A poster's open seeks are capped by the database itself: each holds one of the poster's few
numbered places (`slot`, unique per poster), so that posts arriving at once through several server
processes cannot together pass the cap, as a count read before inserting could.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Column, Float, Index, Integer, String, Table, delete, false, insert, select, update
from sqlalchemy.exc import IntegrityError

from ogames.web.core.store import Store, guarded, metadata

seeks = Table(
    "seeks",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("poster_id", String(40), nullable=False, index=True),
    Column("poster_name", String(40), nullable=False),
    Column("worker", String(16), nullable=False),
    Column("game", String(32), nullable=False),
    # The new game's fields as posted (game, options, clock, days), the game's settled options ("settled"), the
    # challenged name ("to") and whether the poster's rating was provisional when posted ("provisional").
    Column("request", JSON, nullable=False),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("rating", Float, nullable=False),  # the poster's rating in the game's pool when posted
    Column("rating_min", Integer, nullable=True),
    Column("rating_max", Integer, nullable=True),
    Column("digest", String(64), nullable=False),  # of the seat token the poster's page holds
    Column("target_id", String(40), nullable=True, index=True),  # a challenge's account; None: anyone's seek
    Column("created_at", Float, nullable=False),
    Column("slot", Integer, nullable=False, server_default="0"),  # which of its poster's places it holds (migration 0012)
    Index("seeks_poster_slot", "poster_id", "slot", unique=True),
)


@dataclass(frozen=True)
class Seek:
    """An open seek as stored."""

    id: str
    poster_id: str
    poster_name: str
    worker: str
    game: str
    request: dict[str, Any]
    rated: bool
    rating: float
    rating_min: int | None
    rating_max: int | None
    digest: str
    created_at: float
    target_id: str | None = None
    target_name: str | None = None

    def shown(self) -> dict[str, Any]:
        """What every lobby page is shown of it (no digest, no process)."""
        return {
            "id": self.id, "poster": self.poster_name, "game": self.game, "options": self.request.get("settled", {}),
            "clock": self.request.get("clock"), "days": self.request.get("days"), "rated": self.rated,
            "rating": round(self.rating), "provisional": bool(self.request.get("provisional")),
            "min": self.rating_min, "max": self.rating_max, "to": self.target_name,
        }

    def seen_by(self, player_id: str) -> bool:
        """Whether a player's pages list it: anyone's seek, or a challenge to them or from them."""
        return self.target_id is None or player_id in (self.target_id, self.poster_id)

    def admits(self, rating: float) -> bool:
        """Whether a player of this rating is within the seek's range."""
        return (self.rating_min is None or rating >= self.rating_min) and (self.rating_max is None or rating <= self.rating_max)


def _seek(row: Any) -> Seek:
    request = dict(row.request)
    return Seek(row.id, row.poster_id, row.poster_name, row.worker, row.game, request, bool(row.rated),
                float(row.rating), row.rating_min, row.rating_max, row.digest, float(row.created_at), row.target_id,
                request.get("to"))


@guarded(writes=True)
def add(store: Store, seek: Seek, most: int) -> bool:
    """Store a new seek unless its poster has `most` open already (False then: nothing stored).
    The seek takes its poster's lowest free place; of two posts taking the same place at once the
    unique index lets one in, and the other looks again."""
    for _ in range(most + 1):  # (each turn lost is a place someone else took: `most` at most)
        with store.engine.connect() as conn:
            held = {row.slot for row in conn.execute(select(seeks.c.slot).where(seeks.c.poster_id == seek.poster_id))}
        free = [slot for slot in range(most) if slot not in held]
        if not free:
            return False
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(seeks).values(
                    id=seek.id, poster_id=seek.poster_id, poster_name=seek.poster_name, worker=seek.worker, game=seek.game,
                    request=seek.request, rated=seek.rated, rating=seek.rating, rating_min=seek.rating_min,
                    rating_max=seek.rating_max, digest=seek.digest, target_id=seek.target_id, created_at=seek.created_at,
                    slot=free[0],
                ))
            return True
        except IntegrityError:
            continue  # another post took that place first: look again
    return False


@guarded()
def open_seeks(store: Store, target_id: str | None = None) -> list[Seek]:
    """Every open seek, oldest first; with `target_id`, only the challenges to that player (a page's
    header lists nothing else, and the lobby may hold hundreds of seeks)."""
    query = select(seeks).order_by(seeks.c.created_at, seeks.c.id)
    if target_id is not None:
        query = query.where(seeks.c.target_id == target_id)
    with store.engine.connect() as conn:
        return [_seek(row) for row in conn.execute(query)]


@guarded()
def find(store: Store, seek_id: str) -> Seek | None:
    """An open seek by id, or None."""
    with store.engine.connect() as conn:
        row = conn.execute(select(seeks).where(seeks.c.id == seek_id)).first()
    return None if row is None else _seek(row)


@guarded(writes=True)
def take(store: Store, seek_id: str) -> bool:
    """Take a seek off the lobby: True for the one caller whose deletion found it."""
    with store.engine.begin() as conn:
        return conn.execute(delete(seeks).where(seeks.c.id == seek_id)).rowcount == 1


@guarded(writes=True)
def take_pair(store: Store, own_id: str, other_id: str) -> bool:
    """Take two seeks off the lobby together (quick pairing: one's own and the other's): True if
    both were there; else neither is taken. The rows are deleted in one order (by id) whoever asks,
    so two players each taking the pair wait for each other instead of deadlocking."""
    with store.engine.connect() as conn, conn.begin() as transaction:
        for seek_id in sorted((own_id, other_id)):
            if conn.execute(delete(seeks).where(seeks.c.id == seek_id)).rowcount != 1:
                transaction.rollback()
                return False
    return True


@guarded(writes=True)
def withdraw(store: Store, poster_id: str, worker: str | None = None, seek_id: str | None = None) -> list[str]:
    """Delete a poster's seeks (those posted through `worker`, or the one `seek_id`); their ids."""
    where = [seeks.c.poster_id == poster_id]
    if worker is not None:
        where.append(seeks.c.worker == worker)
    if seek_id is not None:
        where.append(seeks.c.id == seek_id)
    with store.engine.begin() as conn:
        gone = [row.id for row in conn.execute(select(seeks.c.id).where(*where))]
        if gone:
            conn.execute(delete(seeks).where(seeks.c.id.in_(gone)))
    return gone


@guarded(writes=True)
def hand_over(store: Store, poster_id: str, worker: str, heir: str) -> list[str]:
    """A poster's seeks posted through one process become another's (where their pages still are); their ids."""
    where = (seeks.c.poster_id == poster_id, seeks.c.worker == worker)
    with store.engine.begin() as conn:
        moved = [row.id for row in conn.execute(select(seeks.c.id).where(*where))]
        if moved:
            conn.execute(update(seeks).where(seeks.c.id.in_(moved)).values(worker=heir))
    return moved


@guarded(writes=True)
def decline(store: Store, target_id: str, seek_id: str) -> bool:
    """A challenged player declines a challenge to them: True if it was there."""
    with store.engine.begin() as conn:
        return conn.execute(delete(seeks).where(seeks.c.id == seek_id, seeks.c.target_id == target_id)).rowcount == 1


@guarded(writes=True)
def withdraw_all(store: Store) -> None:
    """Delete every seek (one server process alone, starting: nobody's pages are open)."""
    with store.engine.begin() as conn:
        conn.execute(delete(seeks))


@guarded(writes=True)
def withdraw_worker(store: Store, worker: str) -> list[str]:
    """Delete every seek posted through one process (it starts afresh, or stops); their ids."""
    with store.engine.begin() as conn:
        gone = [row.id for row in conn.execute(select(seeks.c.id).where(seeks.c.worker == worker))]
        if gone:
            conn.execute(delete(seeks).where(seeks.c.id.in_(gone)))
    return gone


__all__ = ["Seek", "add", "decline", "find", "hand_over", "open_seeks", "seeks", "take", "take_pair", "withdraw", "withdraw_all",
           "withdraw_worker"]
