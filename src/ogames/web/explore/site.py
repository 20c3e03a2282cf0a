"""The site's finished games as an opening tree per board, built from the newest games and kept a
while, so that a page of the explorer never scans every game.

The build is bounded and cached (no table of its own): for a board, the newest `RECENT` finished
games of its game (and variant, the archive's indexed columns) are read in two queries and added to
a tree; the tree is kept `FRESH_SECONDS`, then built again on the next request. One build at a time
per board (a lock), off the event loop. Each server process keeps its own trees: a game finished on
another process shows after at most `FRESH_SECONDS` here too, with no message between them.
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

RECENT = 500  # finished games of one game read into its board's tree
FRESH_SECONDS = 60.0  # how long a board's tree is kept before it is built again
MAX_BOARDS = 64  # boards whose trees are kept at once (the least recently built goes first)


@guarded()
def newest_records(store: Store, game: Game, limit: int = RECENT) -> list[dict[str, Any]]:
    """The records of the newest `limit` finished games of a game (of its variant where it has one)."""
    query = select(games.c.id, games.c.head).where(games.c.status == "over", games.c.game == game.name)
    variant = variant_of({"options": game.jsonable_options()})
    if variant is not None:
        query = query.where(games.c.variant == variant)
    with store.engine.connect() as conn:
        heads = {row.id: dict(row.head or {}) for row in conn.execute(query.order_by(games.c.updated_at.desc()).limit(limit))}
        entries: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id in heads}
        if heads:
            rows = conn.execute(select(moves.c.game_id, moves.c.entry).where(moves.c.game_id.in_(list(heads)))
                                .order_by(moves.c.game_id, moves.c.ply))
            for row in rows:
                entries[row.game_id].append(row.entry)
    return [{**head, "moves": entries[game_id]} for game_id, head in heads.items()]


def build(store: Store, game: Game) -> Tree:
    """A board's tree from the site's newest finished games (those of other boards are skipped)."""
    tree = Tree(game)
    for record in newest_records(store, game):
        tree.add_record(record)
    return tree


@dataclass
class SiteTrees:
    """The site's trees by board, each with when it was built."""

    store: Store
    fresh_seconds: float = FRESH_SECONDS
    trees: dict[str, tuple[float, Tree]] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    async def tree(self, game: Game) -> Tree:
        key = board_key(game)
        async with self.locks.setdefault(key, asyncio.Lock()):
            kept = self.trees.get(key)
            if kept is None or time.monotonic() - kept[0] > self.fresh_seconds:
                kept = (time.monotonic(), await asyncio.to_thread(build, self.store, game))
                self.trees[key] = kept
                self._forget_old()
            return kept[1]

    def _forget_old(self) -> None:
        """Keep at most MAX_BOARDS trees: a visitor asking for many boards costs memory no longer."""
        while len(self.trees) > MAX_BOARDS:
            oldest = min(self.trees, key=lambda key: self.trees[key][0])
            del self.trees[oldest]
            lock = self.locks.get(oldest)
            if lock is not None and not lock.locked():
                del self.locks[oldest]


__all__ = ["FRESH_SECONDS", "MAX_BOARDS", "RECENT", "SiteTrees", "build", "newest_records"]
