"""How the games database meets faults: one kind of error (`StorageError`) with a sentence for
people whatever the driver said, SQLite's connection used by one caller at a time with a bounded
wait (`OneAtATime`), and a check that a SQLite file can still be written (`check_file`).

A store call either does what it was asked or raises `StorageError` having changed nothing; the
web server answers that with 503 and one line in its log, never a traceback.
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ogames.wording import say

Result = TypeVar("Result")

# What a fault means for people, by kind.
MEANINGS = {
    "busy": say("db-busy", "the database is busy: try again in a moment"),
    "read-only": say("db-read-only", "the database is read-only"),
    "unwritable": say("db-unwritable", "the database's files cannot be written"),
    "full": say("db-full", "the disk holding the database is full"),
    "cannot-open": say("db-cannot-open", "the database cannot be opened"),
    "damaged": say("db-damaged", "the database file is damaged or is not a database"),
    "unreachable": say("db-unreachable", "the database cannot be reached"),
    "failed": say("db-failed", "the database failed"),
}

# SQLite's primary result codes (Python's `sqlite_errorname`, without extended suffixes), and
# PostgreSQL's SQLSTATEs, by the kind of fault they report.
SQLITE_KINDS = {
    "SQLITE_BUSY": "busy",
    "SQLITE_LOCKED": "busy",
    "SQLITE_READONLY": "read-only",
    "SQLITE_PERM": "unwritable",
    "SQLITE_IOERR": "unwritable",
    "SQLITE_FULL": "full",
    "SQLITE_CANTOPEN": "cannot-open",
    "SQLITE_NOTADB": "damaged",
    "SQLITE_CORRUPT": "damaged",
}
POSTGRES_KINDS = {
    "55P03": "busy",  # lock_not_available: `lock_timeout` ran out
    "57014": "busy",  # query_canceled (statement_timeout)
    "40P01": "busy",  # deadlock_detected
    "25006": "read-only",  # read_only_sql_transaction
    "42501": "read-only",  # insufficient_privilege
    "53100": "full",  # disk_full
    "53200": "full",  # out_of_memory
}


class StorageError(Exception):
    """The database could not do what was asked, and nothing was changed; `kind` is one of
    MEANINGS' keys and the text says what happened in a sentence."""

    def __init__(self, kind: str, detail: str = ""):
        self.kind = kind
        self.detail = detail
        meaning = MEANINGS.get(kind, MEANINGS["failed"])
        super().__init__(say("db-detail", "{meaning} ({detail})", meaning=meaning, detail=detail) if detail else meaning)


def storage_error(exc: BaseException) -> StorageError:
    """The StorageError a driver's or the pool's error means."""
    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, PoolTimeout):
        return StorageError("busy", "no free connection")
    original = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    detail = _first_line(original)
    name = getattr(original, "sqlite_errorname", None)
    if isinstance(name, str):
        primary = "_".join(name.split("_")[:2])  # SQLITE_IOERR_WRITE → SQLITE_IOERR
        return StorageError(SQLITE_KINDS.get(primary, "failed"), detail)
    state = getattr(original, "sqlstate", None)
    if isinstance(state, str):
        if state.startswith("08"):  # connection_exception and its kinds
            return StorageError("unreachable", detail)
        return StorageError(POSTGRES_KINDS.get(state, "failed"), detail)
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return StorageError("unreachable", detail)
    return StorageError(_kind_by_text(detail), detail)


def _kind_by_text(detail: str) -> str:
    """The kind a message names, for drivers that give no code (older Pythons' sqlite3)."""
    text = detail.lower()
    for words, kind in (
        ("locked", "busy"),
        ("readonly", "read-only"),
        ("read-only", "read-only"),
        ("disk i/o", "unwritable"),
        ("full", "full"),
        ("unable to open", "cannot-open"),
        ("not a database", "damaged"),
        ("malformed", "damaged"),
        ("connect", "unreachable"),
    ):
        if words in text:
            return kind
    return "failed"


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


class OneAtATime:
    """Calls run one at a time on one thread, in the order they came.

    SQLite's file is held by one connection (see `store.make_engine`), so the store's calls take
    turns on it: a call waits at most `patience` seconds for its turn and is then refused as busy
    — without having run, so nothing was changed — instead of queueing behind a stuck one. A call
    that has started is always waited for: its answer (stored or not) is the truth. A call made
    from the turn's own thread (one store method using another) runs at once.
    """

    def __init__(self, patience: float, name: str = "ogames-db"):
        self.patience = patience
        self._ident: int | None = None
        self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=name, initializer=self._mark)

    def _mark(self) -> None:
        self._ident = threading.get_ident()

    def run(self, call: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
        """`call(*args, **kwargs)` in its turn; StorageError("busy") if the turn did not come in time."""
        if threading.get_ident() == self._ident:
            return call(*args, **kwargs)
        future = self._thread.submit(call, *args, **kwargs)
        try:
            return future.result(timeout=self.patience)
        except concurrent.futures.TimeoutError:
            if future.cancel():
                raise StorageError("busy", f"its turn did not come within {self.patience:g} s") from None
            return future.result()

    def close(self) -> None:
        """Finish the calls already waiting and stop the thread."""
        self._thread.shutdown(wait=True)


def check_file(path: Path, identity: tuple[int, int] | None) -> None:
    """StorageError unless the SQLite file at `path` may be written now and is still the file the
    server opened (`identity`: its device and inode then), so that a file made read-only,
    immutable or removed while the server runs stops writes before SQLite meets it.

    Asked of the kernel without opening the file: closing any descriptor of a file drops every
    POSIX lock the process holds on it, SQLite's included."""
    try:
        found = path.stat()
    except OSError as exc:
        if identity is not None:
            raise StorageError("unwritable", f"{path} was removed or moved while the server ran") from None
        raise StorageError("cannot-open", f"{path}: {exc.strerror}") from None
    if identity is not None and (found.st_dev, found.st_ino) != identity:
        raise StorageError("unwritable", f"{path} was replaced by another file while the server ran")
    if not os.access(path, os.W_OK):
        read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
        why = "its file system is read-only" if read_only else "its permissions or attributes (chattr +i) forbid writing"
        raise StorageError("unwritable", f"{path}: {why}")


def file_identity(path: Path) -> tuple[int, int] | None:
    """A file's device and inode (None if it is not there)."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino
