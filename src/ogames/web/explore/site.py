"""The site's finished games, counted for the explorer in an index of their own (migration 0017).

Per board and position (the explorer's `board_key` and `position_key`, so transpositions share a
row), per move and winning colour: how many games made that move there. A page reads one position's
rows (`counted_at`: one query on the primary key), so a board with 100,000 games costs a page no
more than one with 10, and a game finished on any server process shows at once.

A game is counted when it finishes, in the transaction that stores the action ending it
(`Store.add_entries` calls `count_game`): stored and counted together, or neither. Its row in
`explorer_games` is the guard that it is counted once (inserted first, "on conflict do nothing"),
so a retry, a second process or the backfill (`count_all`, run by the migration) find it counted.
A game taken back from its end (only a game on one screen may be) is counted no longer
(`uncount_game`) and is counted again when it ends again. Games the explorer refuses (real-time
ones, records the rules do not accept) are not counted.

The keys are stored as digests (BLAKE2b, 128 bits): an Omega position's key is its whole line of moves.
Written for SQLite and PostgreSQL (their "insert … on conflict").
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, ForeignKey, Integer, String, Table, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from ogames.errors import OgamesError
from ogames.rules import State
from ogames.teach.explorer import Stats, Tree, board_key, position_key
from ogames.web.core.store import Store, games, guarded, metadata, moves

MAX_MOVE = 32  # characters of a decision in the index (a game with a longer one is not counted)
MAX_WINNER = 16
BATCH = 200  # finished games read at once by the backfill

explorer_games = Table(  # the finished games counted, each once
    "explorer_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("board", String(32), nullable=False),
)
explorer_moves = Table(  # the games that made a move from a position, by winner
    "explorer_moves",
    metadata,
    Column("board", String(32), primary_key=True),  # digest of the board_key
    Column("position", String(32), primary_key=True),  # digest of the position_key
    Column("move", String(MAX_MOVE), primary_key=True),
    Column("winner", String(MAX_WINNER), primary_key=True),  # a colour, "draw", or "" (not known)
    Column("games", Integer, nullable=False),
)


def digest(key: str) -> str:
    return hashlib.blake2b(key.encode("utf-8"), digest_size=16).hexdigest()


@functools.lru_cache(maxsize=128)
def _tree(name: str, options: str) -> Tree | None:
    """An empty tree of a board (to read records with), or None if the explorer has no such board
    (a real-time game, options the rules refuse)."""
    try:
        return Tree.of(name, json.loads(options))
    except (OgamesError, TypeError):
        return None


def tree_of(head: Mapping[str, Any]) -> Tree | None:
    """The explorer's (empty) tree of a game's board, by its record's head; None: not explored."""
    name, options = head.get("game"), head.get("options")
    if not isinstance(name, str) or not isinstance(options, dict):
        return None
    return _tree(name, json.dumps(options, sort_keys=True))


@dataclass(frozen=True)
class Counting:
    """What a finished game adds to the index: its board, and one row per decision."""

    board: str
    rows: list[dict[str, Any]]  # explorer_moves' columns, `games` the count to add


def counting_of(record: dict[str, Any]) -> Counting | None:
    """A finished record's rows in the index, or None if the explorer refuses it."""
    tree = tree_of(record)
    steps = None if tree is None else tree.steps_of(record)
    if tree is None or steps is None:
        return None
    winner = record["result"].get("winner") or ""
    if not isinstance(winner, str) or len(winner) > MAX_WINNER or any(len(move) > MAX_MOVE for _, move in steps):
        return None
    board = digest(tree.key)
    made = Counter((digest(key), move) for key, move in steps)
    # In key order: two games ending at once then lock their shared rows in the same order, so
    # PostgreSQL never finds them waiting on each other (a deadlock would fail one game's last move).
    return Counting(board, [{"board": board, "position": position, "move": move, "winner": winner, "games": count}
                            for (position, move), count in sorted(made.items())])


def _insert(conn: Connection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """An insert with "on conflict" in the database's own words."""
    return postgresql.insert(table) if conn.dialect.name == "postgresql" else sqlite.insert(table)


def _stored_record(conn: Connection, game_id: str) -> dict[str, Any] | None:
    """A game's record as stored now (in the caller's transaction), if it is over."""
    row = conn.execute(select(games.c.head, games.c.status).where(games.c.id == game_id)).first()
    if row is None or row.status != "over":
        return None
    entries = conn.execute(select(moves.c.entry).where(moves.c.game_id == game_id).order_by(moves.c.ply)).scalars()
    return {**dict(row.head or {}), "moves": list(entries)}


def count_game(conn: Connection, game_id: str) -> bool:
    """Count a finished game in the index, in the caller's transaction, unless it is counted
    already or the explorer refuses it; whether this call counted it."""
    record = _stored_record(conn, game_id)
    counting = None if record is None else counting_of(record)
    if counting is None:
        return False
    guard = _insert(conn, explorer_games).values(game_id=game_id, board=counting.board)
    if conn.execute(guard.on_conflict_do_nothing(index_elements=["game_id"]).returning(explorer_games.c.game_id)).first() is None:
        return False  # counted before
    if counting.rows:  # (a game resigned or claimed before any move has none)
        add = _insert(conn, explorer_moves)
        conn.execute(add.on_conflict_do_update(index_elements=["board", "position", "move", "winner"],
                                               set_={"games": explorer_moves.c.games + add.excluded.games}), counting.rows)
    return True


def uncount_game(conn: Connection, game_id: str) -> bool:
    """Take a counted game out of the index (before a take-back changes its stored record), in the
    caller's transaction; whether it was counted."""
    if not conn.execute(delete(explorer_games).where(explorer_games.c.game_id == game_id)).rowcount:
        return False
    record = _stored_record(conn, game_id)
    counting = None if record is None else counting_of(record)
    for row in counting.rows if counting else []:
        where = [explorer_moves.c[name] == row[name] for name in ("board", "position", "move", "winner")]
        conn.execute(explorer_moves.update().where(*where).values(games=explorer_moves.c.games - row["games"]))
        conn.execute(delete(explorer_moves).where(*where, explorer_moves.c.games <= 0))
    return True


def count_all(conn: Connection) -> int:
    """Count every stored finished game not counted yet (the backfill: migration 0017), in batches
    by id; how many were counted. Running it again counts nothing twice."""
    counted, after = 0, ""
    while True:
        ids = list(conn.execute(select(games.c.id).where(games.c.status == "over", games.c.id > after)
                                .order_by(games.c.id).limit(BATCH)).scalars())
        if not ids:
            return counted
        counted += sum(count_game(conn, game_id) for game_id in ids)
        after = ids[-1]


@dataclass(frozen=True)
class Counted:
    """The site's games at one position of one board, as the index holds them (`Counts` of the
    explorer: it answers for that position alone)."""

    key: str  # the board_key
    position: str  # the position_key
    moves: dict[str, Stats]

    def moves_at(self, position: str) -> Mapping[str, Stats]:
        return self.moves if position == self.position else {}


@guarded()
def counted_at(store: Store, state: State, path: list[str]) -> Counted:
    """The site's games from a position (reached by `path`): one query on the index's key."""
    board, key = board_key(state.game), position_key(state, path)
    query = select(explorer_moves.c.move, explorer_moves.c.winner, explorer_moves.c.games).where(
        explorer_moves.c.board == digest(board), explorer_moves.c.position == digest(key))
    found: dict[str, Stats] = {}
    with store.engine.connect() as conn:
        for move, winner, count in conn.execute(query):
            stats = found.setdefault(move, Stats())
            stats.games += count
            if winner:
                stats.wins[winner] = stats.wins.get(winner, 0) + count
    return Counted(board, key, found)


__all__ = ["Counted", "count_all", "count_game", "counted_at", "counting_of", "explorer_games", "explorer_moves",
           "uncount_game"]
