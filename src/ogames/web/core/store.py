"""Storage of web games through SQLAlchemy: a SQLite file by default, any SQLAlchemy URL by setting.

The schema is managed by alembic (`ogames/web/core/migrations/`); `Store(url)` brings the database to
the newest schema before anything else, so an upgraded server keeps every old game.

A game is stored as the head of its record (everything but the moves: game, options, players,
seats, result) plus one row per record entry; `GameRow.record()` puts them together again and the
rules rebuild the state from it (`ogames.replay`). Each accepted action (a move, a resignation)
raises the game's `version` by one and is written in one transaction with the new head, and only
if the stored game is still at the version the action was made at, so two writers can never both
add one. An action usually appends one entry; an Omega placement within a turn rewrites the turn's
last entry, so an action replaces the entries from the first one it changed. Seat tokens are
stored as SHA-256 digests only.

Every method either does what it says or raises `StorageError` (web/core/store_faults.py) having
changed nothing: the database busy, read-only, unwritable, full or gone, said in a sentence.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlsplit

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    delete,
    event,
    false,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ogames.web.core.settings import DEFAULT_BUSY_SECONDS, default_database_path
from ogames.web.core.store_faults import OneAtATime, StorageError, check_file, file_identity, storage_error

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x6F67616D6573  # PostgreSQL advisory lock id held while migrating ("ogames")

metadata = MetaData()

# The tables as the newest migration leaves them (the migrations are the authority; these
# declarations are what the queries use).
games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("seat_kinds", JSON, nullable=False),
    Column("head", JSON, nullable=False),
    Column("ply", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("clock", JSON, nullable=True),  # web/boards/clock.py's Clock.stored(); None: untimed
    Column("listed", Boolean, nullable=False, server_default=false()),  # an open game with a seat to take
    # When the turn a correspondence game waits for runs out (web/boards/correspondence.py); None: no deadline.
    Column("deadline", Float, nullable=True),
    Column("rated", Boolean, nullable=False, server_default=false()),  # its end changes ratings (web/ratings/)
    # What the archive searches by (migration 0010), written with the head: `variant_of`, `outcome_of`.
    Column("variant", String(32), nullable=True),
    Column("outcome", String(16), nullable=True),
    # Hints a person took in a casual game against the computer (migration 0013; web/boards/learner_hints.py).
    Column("hints_used", Integer, nullable=False, server_default=text("0")),
)
moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("entry", JSON, nullable=False),
    Column("stored_at", Float, nullable=False),
)
seat_tokens = Table(
    "seat_tokens",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("digest", String(64), nullable=False),
)


# A game is stored "playing", "over" (it has a result), or "aborted": ended before every person had
# moved, with no result (web/boards/endings.py; ratings skip it).
ABORTED = "aborted"

class StaleMove(Exception):
    """The stored game is no longer at the version an action was made at (another came first)."""


def digest(token: str) -> str:
    """The SHA-256 hex digest stored in place of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of_token(digests: dict[int, str], token: str) -> int | None:
    """The seat whose stored digest a token matches, or None; every digest is compared, each in
    constant time, so the answer's timing says nothing about the tokens."""
    wanted = digest(token)
    found = None
    for seat, stored in digests.items():
        if hmac.compare_digest(stored, wanted):
            found = seat
    return found


@dataclass
class GameRow:
    """One stored game: its head, its moves and how its seats are played."""

    id: str
    game: str
    mode: str
    seat_kinds: list[str]
    head: dict[str, Any]
    moves: list[dict[str, Any]] = field(default_factory=list)
    version: int = 0
    status: str = "playing"
    created_at: float = 0.0
    updated_at: float = 0.0
    clock: dict[str, Any] | None = None
    listed: bool = False
    rated: bool = False
    hints_used: int = 0

    def record(self) -> dict[str, Any]:
        """The game's record (format of `ogames.records`), as the rules wrote it move by move."""
        head = dict(self.head)
        record = {key: head.pop(key) for key in ("format", "version", "game", "options", "players", "seats")}
        record["moves"] = list(self.moves)
        record.update(head)  # result, and meta where a game writes it
        return record


def split_record(record: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(head, moves) of a record: what `games.head` and the `moves` rows hold."""
    head = {key: value for key, value in record.items() if key != "moves"}
    return head, list(record["moves"])


Method = TypeVar("Method", bound=Callable[..., Any])


def guarded(*, writes: bool = False) -> Callable[[Method], Method]:
    """A store method that takes its turn on SQLite's one connection (web/core/store_faults.py) and
    raises StorageError for any failure of the database; one that `writes` first checks that the
    SQLite file can still be written."""

    def wrap(method: Method) -> Method:
        @functools.wraps(method)
        def run(self: Store, *args: Any, **kwargs: Any) -> Any:
            def call() -> Any:
                if writes and self.path is not None:
                    check_file(self.path, self.identity)
                return method(self, *args, **kwargs)

            try:
                return call() if self.turns is None else self.turns.run(call)
            except (DBAPIError, PoolTimeout) as exc:
                raise storage_error(exc) from None

        return run  # type: ignore[return-value]

    return wrap


class Store:
    """The games database. Every method is one short transaction (call them off the event loop);
    the database must be writable when the store opens (StorageError says why not)."""

    def __init__(self, url: str, busy_seconds: float = DEFAULT_BUSY_SECONDS, *, shared: bool = False):
        self.url = url
        self.engine = make_engine(url, busy_seconds, shared=shared)
        self.path = sqlite_file(url)  # None: PostgreSQL, or SQLite in memory
        self.identity: tuple[int, int] | None = None
        # The time rows are stamped with (games created and updated: the archive's dates; the chat's
        # messages, reports and sanctions: a guest ban's period): a test replaces it to pin a moment,
        # such as one just before UTC midnight.
        self.clock: Callable[[], float] = time.time
        # SQLite: one connection, used by one call at a time (make_engine says why); PostgreSQL's
        # connections are pooled and its own locks keep writers apart.
        self.turns = OneAtATime(busy_seconds) if self.engine.dialect.name == "sqlite" else None
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        self.identity = None if self.path is None else file_identity(self.path)

    @guarded()
    def _open(self) -> None:
        """Bring the schema up to date, then try a write and take it back: a database the server
        cannot write is refused now, not at the first move."""
        if self.path is not None and self.path.exists():
            check_file(self.path, None)  # before SQLite meets it: the clearest reason
        migrate(self.engine)
        if self.path is not None:
            check_file(self.path, None)
        with self.engine.connect() as conn:
            trial = conn.begin()
            conn.execute(text("UPDATE alembic_version SET version_num = version_num"))
            trial.rollback()

    def close(self) -> None:
        """Release the database connections (and SQLite's file), once the calls under way are done."""
        if self.turns is not None:
            self.turns.close()
        self.engine.dispose()

    @guarded(writes=True)
    def create_game(
        self,
        game_id: str,
        game: str,
        mode: str,
        seat_kinds: list[str],
        record: dict[str, Any],
        tokens: dict[int, str],
        *,
        digests: dict[int, str] | None = None,
        clock: dict[str, Any] | None = None,
        listed: bool = False,
        deadline: float | None = None,
        rated: bool = False,
    ) -> None:
        """Store a new game (with no moves yet), its clock (and the deadline of its first turn, for a
        correspondence game), whether it is rated, and the digests of its seat tokens (and of seats
        whose tokens were given out before: `digests`)."""
        head, made = split_record(record)
        now = self.clock()
        with self.engine.begin() as conn:
            conn.execute(
                insert(games).values(
                    id=game_id,
                    game=game,
                    mode=mode,
                    seat_kinds=seat_kinds,
                    head=head,
                    ply=len(made),
                    version=0,
                    status=_status(head),
                    variant=variant_of(head),
                    created_at=now,
                    updated_at=now,
                    clock=clock,
                    listed=listed,
                    deadline=deadline,
                    rated=rated,
                )
            )
            for ply, entry in enumerate(made):
                conn.execute(insert(moves).values(game_id=game_id, ply=ply, entry=entry, stored_at=now))
            for seat, token in tokens.items():
                conn.execute(insert(seat_tokens).values(game_id=game_id, seat=seat, digest=digest(token)))
            for seat, known in (digests or {}).items():
                conn.execute(insert(seat_tokens).values(game_id=game_id, seat=seat, digest=known))

    def add_action(
        self, game_id: str, version: int, record: dict[str, Any], first: int, clock: dict[str, Any] | None = None,
        deadline: float | None = None, *, taken_back: bool = False,
    ) -> None:
        """Store an action made at `version` from the game's whole record after it: its head and
        its entries from index `first` on (`add_entries`)."""
        head, made = split_record(record)
        self.add_entries(game_id, version, head, first, made[first:], clock, deadline, taken_back=taken_back)

    @guarded(writes=True)
    def add_entries(
        self,
        game_id: str,
        version: int,
        head: dict[str, Any],
        first: int,
        entries: list[dict[str, Any]],
        clock: dict[str, Any] | None = None,
        deadline: float | None = None,
        *,
        taken_back: bool = False,
    ) -> None:
        """Store an action made at `version` (a move, a resignation, an undo, a loss on time): the
        record's new head and its entries from index `first` on (replacing any stored from there;
        an undo leaves fewer), and the clock after it if the game has one (with the deadline of the
        next turn, for a correspondence game), in one transaction; StaleMove (nothing written) if
        the stored game is not at that version. An action that ends the game counts it in the opening
        explorer's index in the same transaction (web/explore/site.py); a take-back (`taken_back`:
        the only action that may reopen an ended game) uncounts it if it was counted."""
        now = self.clock()
        ended = bool(head.get("result"))
        values: dict[str, Any] = {"head": head, "ply": first + len(entries), "version": version + 1, "status": _status(head)}
        values["updated_at"] = now
        values["variant"] = variant_of(head)
        values["outcome"] = outcome_of(head, entries[-1] if entries else None, clock)
        if clock is not None:
            values["clock"] = clock
            values["deadline"] = None if ended else deadline
        if ended:
            values["listed"] = False
        # The opening explorer's index counts a game in the transaction that ends it (imported here:
        # web/explore/site.py builds on this module).
        from ogames.web.explore import site as explorer

        explored = (ended or taken_back) and explorer.tree_of(head) is not None  # (not asked of every move)
        with self.engine.begin() as conn:
            if explored and taken_back and not ended:
                explorer.uncount_game(conn, game_id)  # if it had ended (rolled back with the rest if stale)
            changed = conn.execute(
                update(games).where(games.c.id == game_id, games.c.version == version).values(**values)
            ).rowcount
            if changed != 1:
                raise StaleMove(f"game {game_id} is not at version {version}")
            conn.execute(delete(moves).where(moves.c.game_id == game_id, moves.c.ply >= first))
            for ply, entry in enumerate(entries, start=first):
                conn.execute(insert(moves).values(game_id=game_id, ply=ply, entry=entry, stored_at=now))
            if explored and ended:
                explorer.count_game(conn, game_id)

    @guarded(writes=True)
    def abort_game(self, game_id: str, version: int, clock: dict[str, Any] | None = None) -> None:
        """End a game at `version` as aborted (no result, no deadline, no longer listed; its record
        unchanged), raising its version; StaleMove (nothing written) if the stored game is not
        at that version or is no longer being played."""
        values: dict[str, Any] = {"status": ABORTED, "version": version + 1, "updated_at": self.clock(), "listed": False,
                                  "deadline": None}
        if clock is not None:
            values["clock"] = clock
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(games).where(games.c.id == game_id, games.c.version == version, games.c.status == "playing")
                .values(**values)
            ).rowcount
            if changed != 1:
                raise StaleMove(f"game {game_id} is not at version {version}, or not being played")

    @guarded()
    def due_games(self, at: float, limit: int = 100) -> list[str]:
        """The ids of the games being played whose turn's deadline is `at` or earlier, the longest
        overdue first (the sweeper ends them)."""
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(games.c.id)
                .where(games.c.status == "playing", games.c.deadline.is_not(None), games.c.deadline <= at)
                .order_by(games.c.deadline)
                .limit(limit)
            ).scalars())

    @guarded()
    def load_game(self, game_id: str) -> GameRow | None:
        """A stored game with its moves in order, or None."""
        with self.engine.connect() as conn:
            while True:
                row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
                if row is None:
                    return None
                made = conn.execute(select(moves.c.entry).where(moves.c.game_id == game_id).order_by(moves.c.ply)).scalars().all()
                # Another server process may have stored an action between the two reads (each
                # statement sees the newest commits): read again until head and moves agree.
                if conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar() == row["version"]:
                    break
        return GameRow(
            id=row["id"],
            game=row["game"],
            mode=row["mode"],
            seat_kinds=list(row["seat_kinds"]),
            head=dict(row["head"]),
            moves=list(made),
            version=row["version"],
            status=row["status"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            clock=row["clock"],
            listed=bool(row["listed"]),
            rated=bool(row["rated"]),
            hints_used=int(row["hints_used"] or 0),
        )

    @guarded(writes=True)
    def use_hint(self, game_id: str, version: int, limit: int) -> int | None:
        """Count one more hint taken in a game being played at `version`, if it has taken fewer than
        `limit`: the new count, or None (nothing written) if the game is not there, not at that
        version, no longer played, or its hints are all used. One statement: of two processes
        counting the last hint at once, one wins."""
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.version == version, games.c.status == "playing",
                       games.c.hints_used < limit)
                .values(hints_used=games.c.hints_used + 1)
            ).rowcount
            if changed != 1:
                return None
            return int(conn.execute(select(games.c.hints_used).where(games.c.id == game_id)).scalar_one())

    @guarded()
    def hints_used(self, game_id: str) -> int:
        """The hints a game has taken (0 for a game not stored)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(games.c.hints_used).where(games.c.id == game_id)).scalar() or 0)

    @guarded()
    def token_digests(self, game_id: str) -> dict[int, str]:
        """The stored digests of a game's seat tokens, by seat."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seat_tokens.c.seat, seat_tokens.c.digest).where(seat_tokens.c.game_id == game_id)).all()
        return {seat: stored for seat, stored in rows}

    @guarded(writes=True)
    def take_seat(self, game_id: str, seat: int, token: str) -> list[str] | None:
        """Give an open seat to whoever asked first: its kind becomes "invited" and the token's
        digest is stored, in one transaction. The game's new seat kinds, or None (nothing written)
        if the seat is not open (taken already, or never offered)."""
        try:
            with self.engine.begin() as conn:
                row = conn.execute(select(games.c.seat_kinds, games.c.status).where(games.c.id == game_id)).first()
                if row is None or row.status != "playing":
                    return None
                kinds = list(row.seat_kinds)
                if not 0 <= seat < len(kinds) or kinds[seat] != "open":
                    return None
                kinds[seat] = "invited"
                # The seat's token row is the guard: of two takers at once, the second one's insert fails.
                conn.execute(insert(seat_tokens).values(game_id=game_id, seat=seat, digest=digest(token)))
                conn.execute(update(games).where(games.c.id == game_id).values(seat_kinds=kinds, listed="open" in kinds))
        except IntegrityError:
            return None
        return kinds

    @guarded()
    def open_games(self, limit: int = 20) -> list[dict[str, Any]]:
        """Listed games that still have a seat to take, newest first: id, game, options, seat kinds, clock."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games.c.id, games.c.game, games.c.mode, games.c.ply, games.c.head, games.c.seat_kinds, games.c.clock,
                    games.c.created_at,
                )
                .where(games.c.listed.is_(True), games.c.status == "playing")
                .order_by(games.c.updated_at.desc())
                .limit(limit)
            ).mappings()
            return [
                {
                    "id": row["id"],
                    "game": row["game"],
                    "mode": row["mode"],
                    "ply": row["ply"],
                    "result": None,
                    "options": (row["head"] or {}).get("options", {}),
                    "seats": list(row["seat_kinds"]),
                    "clock": _clock_summary(row["clock"]),
                    "created_at": row["created_at"],
                }
                for row in rows
            ]

    @guarded()
    def recent_games(self, limit: int = 12, statuses: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        """The most recently changed games (only those in `statuses` when given): id, game, mode,
        status, ply, result, updated_at."""
        query = select(games.c.id, games.c.game, games.c.mode, games.c.status, games.c.ply, games.c.head, games.c.updated_at)
        if statuses is not None:
            query = query.where(games.c.status.in_(statuses))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(games.c.updated_at.desc()).limit(limit)).mappings()
            return [
                {
                    "id": row["id"],
                    "game": row["game"],
                    "mode": row["mode"],
                    "status": row["status"],
                    "ply": row["ply"],
                    "result": (row["head"] or {}).get("result"),
                    "updated_at": row["updated_at"],
                }
                for row in rows
            ]

    @guarded()
    def finished_games(self, limit: int = 12) -> list[dict[str, Any]]:
        """The games that ended most recently."""
        return self.recent_games(limit, ("over",))

    @guarded()
    def version_of(self, game_id: str) -> int | None:
        """A stored game's version (its count of accepted actions), or None if there is no such game."""
        with self.engine.connect() as conn:
            return conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()

    @guarded()
    def move_count(self, game_id: str) -> int:
        """How many record entries a game has stored (for tests and checks)."""
        with self.engine.connect() as conn:
            return len(conn.execute(select(moves.c.ply).where(moves.c.game_id == game_id)).all())


def _clock_summary(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    """How an open game's clock is listed: days per move, or minutes and increment."""
    if not clock:
        return None
    if "days" in clock:
        return {"days": clock["days"]}
    return {"base": clock["base"], "increment": clock["increment"]}


def variant_of(head: dict[str, Any]) -> str | None:
    """The variant a game's options name, if its game has variants."""
    variant = (head.get("options") or {}).get("variant")
    return None if variant is None else str(variant)[:32]


OUTCOMES = ("win", "draw", "resign", "time")  # how a finished game ended, as the archive searches it


def outcome_of(head: dict[str, Any], last: dict[str, Any] | None, clock: dict[str, Any] | None) -> str | None:
    """How a game ended, from its head, its last record entry and its stored clock: `time` (a seat
    ran out of time: stored as its resignation, with the clock's flag), `resign`, `draw` or `win`;
    None while it is played."""
    result = head.get("result")
    if not result:
        return None
    if isinstance(clock, dict) and clock.get("flagged") is not None:
        return "time"
    if last is not None and last.get("move") == "resign":
        return "resign"
    return "draw" if isinstance(result, dict) and result.get("winner") == "draw" else "win"


def _status(head: dict[str, Any]) -> str:
    return "over" if head.get("result") else "playing"


def make_engine(url: str, busy_seconds: float = DEFAULT_BUSY_SECONDS, *, shared: bool = False) -> Engine:
    """An engine for a URL (`postgresql://` means psycopg 3) on which no lock is waited for longer
    than `busy_seconds`. StorageError if a SQLite file's folder is not there (only the default
    data folder is made).

    A SQLite file is held by one connection in WAL mode with EXCLUSIVE locking: WAL's speed (a
    move is appended to the log, no sync), and no shared-memory index. In WAL's usual shared mode
    that index is the `-shm` file mapped into memory, and a write into the mapping of a file that
    has become unwritable (immutable, or on a file system remounted read-only) kills the process
    with SIGBUS; with EXCLUSIVE locking the index lives on the heap and every fault is an error
    code. The price: while the server runs, no other program can open the file (one server process
    per SQLite file, which is how it is served; several processes share PostgreSQL). Memory-mapped
    reads are off for the same reason. A rollback journal would also avoid the mapping, but its
    syncs and its readers blocked by every commit made moves several times slower.

    `shared` keeps WAL's usual locking instead, for an operator who must read the file while the
    server runs (an online `sqlite3 .backup`, a test comparing what is stored): other programs
    may then open it, and a file made unwritable underneath the server may crash it."""
    parsed = make_url(url)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3 (the scale extra), not psycopg2
    if parsed.get_backend_name() != "sqlite":
        return _server_engine(parsed, busy_seconds)
    path = sqlite_file(url)
    if path is not None:
        _check_folder(path)
        if _read_only_uri(parsed):
            raise StorageError("read-only", "the URL opens it read-only, and the server stores every game and move")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": busy_seconds},
        **({"pool_size": 1, "max_overflow": 0, "pool_timeout": busy_seconds} if path is not None else {}),
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA mmap_size=0")
        if path is not None:
            if not shared:
                cursor.execute("PRAGMA locking_mode=EXCLUSIVE")  # before WAL is entered: no shared memory
            cursor.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL still survives a killed process (a committed move is in the
            # log); only a power cut can lose the last commits. FULL would sync on every move.
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def _server_engine(url: Any, busy_seconds: float) -> Engine:
    """A PostgreSQL engine whose statements wait at most `busy_seconds` for a lock another client
    holds (`lock_timeout`), and whose callers wait as long for a pooled connection."""
    engine = create_engine(url, pool_pre_ping=True, pool_timeout=busy_seconds)
    if engine.dialect.name == "postgresql":

        @event.listens_for(engine, "connect")
        def _timeouts(dbapi_connection: Any, _record: Any) -> None:
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET lock_timeout = {int(busy_seconds * 1000)}")
            dbapi_connection.commit()  # a session setting, kept when the pool rolls back

    return engine


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (a plain path or a `file:` URI), or None (another database, or
    SQLite in memory)."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        split = urlsplit(database)
        if not split.path or split.path == ":memory:" or "mode=memory" in split.query:
            return None
        return Path(split.path)
    return Path(database)


def _read_only_uri(url: Any) -> bool:
    """Whether a SQLite `file:` URI opens its file read-only (`mode=ro`, or `immutable=1`; SQLAlchemy
    keeps the URI's parameters with the URL's)."""
    if not (url.database or "").startswith("file:"):
        return False
    query = {**dict(parse_qsl(urlsplit(url.database).query)), **{key: str(value) for key, value in url.query.items()}}
    return query.get("mode") == "ro" or query.get("immutable", "0") not in ("", "0", "false", "no", "off")


def _check_folder(path: Path) -> None:
    """Make the default data folder if needed; StorageError if another file's folder is not there
    (a mistyped path is told, not made)."""
    folder = path.parent
    if folder.is_dir():
        return
    if path == default_database_path():
        folder.mkdir(parents=True, exist_ok=True)
        return
    if folder.exists():
        raise StorageError("cannot-open", f"{folder} is not a folder")
    raise StorageError("cannot-open", f"the folder {folder} does not exist: make it first, or check the path")


def alembic_config(engine: Engine | None = None) -> Any:
    """An alembic Config for the package's migrations (no ini file needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return config


def migrate(engine: Engine, revision: str = "head", *, down: bool = False) -> None:
    """Bring the database to a schema revision (default: the newest), or back `down` to an older
    one, on the engine's own connection (a SQLite file admits no other)."""
    from alembic import command

    config = alembic_config(engine)
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Several server processes may start at once on a new database: they take turns
            # (the lock lasts until this transaction ends), so only the first creates the tables,
            # the others waiting for it however long it takes (not just the busy timeout).
            connection.execute(text("SET LOCAL lock_timeout = 0"))
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)
