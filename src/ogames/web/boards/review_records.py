"""What the reviews on the site keep in the games database (migrations 0013, 0016): one row per
finished board game whose review was asked for, with its progress while it is computed. Functions
of the `Store`, each one short transaction that does what it says or raises `StorageError` having
changed nothing; call them off the event loop.

The row is the guard that a game is reviewed once: of any number of requests for it, on any number
of server processes, exactly one inserts it (`claim`), and only that one computes the review. A
process that dies while computing leaves a `pending` row behind; once it is older than a lease,
another process may take it over (`take_over`), one of them only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import JSON, Column, Float, ForeignKey, Integer, String, Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from ogames.web.core.store import Store, guarded, metadata

PENDING, READY, FAILED = "pending", "ready", "failed"
Status = Literal["pending", "ready", "failed"]

game_reviews = Table(
    "game_reviews",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("review", JSON, nullable=True),  # ogames.teach.review.Review.to_json(), once ready
    Column("problem", String(200), nullable=True),  # why it failed
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("done", Integer, nullable=True),  # while pending: the positions valued so far (0016)
    Column("total", Integer, nullable=True),  # … of all the game's positions
)


@dataclass(frozen=True)
class StoredReview:
    """A game's review as stored: pending, ready (with the review's JSON) or failed (with why)."""

    status: Status
    review: dict[str, Any] | None
    problem: str | None
    updated_at: float
    done: int | None = None  # while pending: positions valued so far, of `total` (None: not started)
    total: int | None = None


@guarded(writes=True)
def claim(store: Store, game_id: str) -> bool:
    """Ask for a game's review: True if this call made its row (so this process computes it),
    False if it was asked for before (pending, ready or failed)."""
    now = time.time()
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(game_reviews).values(game_id=game_id, status=PENDING, created_at=now, updated_at=now))
    except IntegrityError:
        return False
    return True


@guarded(writes=True)
def take_over(store: Store, game_id: str, older_than: float) -> bool:
    """Take over a review left pending since before `older_than` (its process died): True for the
    one caller that does."""
    with store.engine.begin() as conn:
        changed = conn.execute(
            update(game_reviews)
            .where(game_reviews.c.game_id == game_id, game_reviews.c.status == PENDING,
                   game_reviews.c.updated_at < older_than)
            .values(updated_at=time.time())
        ).rowcount
    return bool(changed == 1)


@guarded()
def stored(store: Store, game_id: str) -> StoredReview | None:
    """A game's review row, or None if nobody asked for it."""
    with store.engine.connect() as conn:
        row = conn.execute(select(game_reviews).where(game_reviews.c.game_id == game_id)).mappings().first()
    if row is None:
        return None
    return StoredReview(row["status"], row["review"], row["problem"], float(row["updated_at"]), row["done"], row["total"])


@guarded(writes=True)
def progress(store: Store, game_id: str, done: int, total: int) -> None:
    """Note how far a pending review has come (and that its process is alive: `take_over` waits on
    `updated_at`). A row no longer pending is left as it is."""
    with store.engine.begin() as conn:
        conn.execute(
            update(game_reviews)
            .where(game_reviews.c.game_id == game_id, game_reviews.c.status == PENDING)
            .values(done=done, total=total, updated_at=time.time())
        )


@guarded(writes=True)
def _finish(store: Store, game_id: str, status: str, review: dict[str, Any] | None, problem: str | None) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            update(game_reviews)
            .where(game_reviews.c.game_id == game_id, game_reviews.c.status == PENDING)
            .values(status=status, review=review, problem=None if problem is None else problem[:200], updated_at=time.time())
        )


def finish(store: Store, game_id: str, review: dict[str, Any]) -> None:
    """Store a pending review's result (a row already finished is left as it is)."""
    _finish(store, game_id, READY, review, None)


def fail(store: Store, game_id: str, problem: str) -> None:
    """Mark a pending review failed, saying why."""
    _finish(store, game_id, FAILED, None, problem)


__all__ = ["FAILED", "PENDING", "READY", "StoredReview", "claim", "fail", "finish", "game_reviews", "progress", "stored",
           "take_over"]
