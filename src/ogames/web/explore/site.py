"""The site's finished games as an opening tree per board, built from the newest games and brought
up to date now and then, so that a page of the explorer never scans every game.

Bounded, cached and incremental, with no table of its own: the first request for a board reads the
newest `RECENT` finished games of its game (and variant: the archive's indexed columns) in two
queries and adds them to a tree. The tree is kept; a request more than `FRESH_SECONDS` after the
last read adds only the games that finished since (at most `RECENT` of them), each counted once.
One read at a time per board (a lock), off the event loop. Each server process keeps its own trees:
a game finished on another process shows here too within `FRESH_SECONDS`, with no message between
them. At most `MAX_BOARDS` boards are kept.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from ogames.rules import Game
from ogames.teach.explorer import Tree, board_key
from ogames.web.core.store import Store, games, guarded, moves, variant_of

RECENT = 500  # finished games read into a board's tree at once (the first read, and each refresh at most)
FRESH_SECONDS = 60.0  # how long a board's tree is kept before the games finished since are added
MAX_BOARDS = 64  # boards whose trees are kept at once (the least recently built goes first)


@dataclass(frozen=True)
class Finished:
    """A finished game as the explorer reads it."""

    id: str
    at: float  # when it last changed (it ended)
    record: dict[str, Any]


@guarded()
def newest_records(store: Store, game: Game, since: float | None = None, limit: int = RECENT) -> list[Finished]:
    """The newest `limit` finished games of a game (of its variant where it has one), or those
    finished (last changed) at `since` or later: each with its id, when it changed, and its record."""
    query = select(games.c.id, games.c.head, games.c.updated_at).where(games.c.status == "over", games.c.game == game.name)
    variant = variant_of({"options": game.jsonable_options()})
    if variant is not None:
        query = query.where(games.c.variant == variant)
    if since is not None:
        query = query.where(games.c.updated_at >= since)
    with store.engine.connect() as conn:
        rows = conn.execute(query.order_by(games.c.updated_at.desc()).limit(limit)).all()
        entries: dict[str, list[dict[str, Any]]] = {row.id: [] for row in rows}
        if rows:
            for row in conn.execute(select(moves.c.game_id, moves.c.entry).where(moves.c.game_id.in_(list(entries)))
                                    .order_by(moves.c.game_id, moves.c.ply)):
                entries[row.game_id].append(row.entry)
    return [Finished(row.id, row.updated_at, {**dict(row.head or {}), "moves": entries[row.id]}) for row in rows]


@dataclass
class Kept:
    """A board's tree, the games counted in it, and the newest change read."""

    tree: Tree
    built: float = 0.0  # time.monotonic() of the last refresh
    counted: set[str] = field(default_factory=set)
    since: float | None = None


def refresh(store: Store, game: Game, kept: Kept | None = None) -> Kept:
    """A board's tree with the games finished since it was last read added (the first time: the
    newest RECENT); each game is counted once (blocking: run it off the event loop)."""
    kept = kept or Kept(Tree(game))
    for found in reversed(newest_records(store, game, kept.since)):
        if found.id not in kept.counted:
            kept.counted.add(found.id)
            kept.tree.add_record(found.record)  # (one of another board, or refused, adds nothing)
        kept.since = found.at if kept.since is None else max(kept.since, found.at)
    kept.built = time.monotonic()
    return kept


def build(store: Store, game: Game) -> Tree:
    """A board's tree from the site's newest finished games (those of other boards are skipped)."""
    return refresh(store, game).tree


@dataclass
class SiteTrees:
    """The site's trees by board, each with what it has read."""

    store: Store
    fresh_seconds: float = FRESH_SECONDS
    trees: dict[str, Kept] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    async def tree(self, game: Game) -> Tree:
        key = board_key(game)
        async with self.locks.setdefault(key, asyncio.Lock()):
            kept = self.trees.get(key)
            if kept is None or time.monotonic() - kept.built > self.fresh_seconds:
                self.trees[key] = kept = await asyncio.to_thread(refresh, self.store, game, kept)
                self._forget_old()
            return kept.tree

    def _forget_old(self) -> None:
        """Keep at most MAX_BOARDS trees: a visitor asking for many boards costs memory no longer."""
        while len(self.trees) > MAX_BOARDS:
            oldest = min(self.trees, key=lambda key: self.trees[key].built)
            del self.trees[oldest]
            lock = self.locks.get(oldest)
            if lock is not None and not lock.locked():
                del self.locks[oldest]


__all__ = ["FRESH_SECONDS", "MAX_BOARDS", "RECENT", "Finished", "Kept", "SiteTrees", "build", "newest_records", "refresh"]
