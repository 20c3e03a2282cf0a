"""How SQLite's journal and locking modes serve the web store: write and read latency with
writers and readers at once, for the three ways to keep a file fault from killing the server.

- `exclusive-wal` (the store as it is): WAL with EXCLUSIVE locking, one connection that the
  store's calls take turns on (web/core/store_faults.py's OneAtATime). No shared memory is mapped.
- `shared-wal` (the store before): WAL shared between pooled connections, readers in parallel,
  writers one at a time behind a lock. Its `-shm` index is memory-mapped: a SIGBUS risk.
- `rollback` (journal_mode=PERSIST, synchronous=FULL): no mapping either, but a commit syncs
  the journal and the file, and readers wait while it writes.

    python benchmarks/bench_sqlite_modes.py                 # 40 games, 4 writers, 4 readers, 3 rounds
    python benchmarks/bench_sqlite_modes.py --json --out benchmarks/results/sqlite_modes.jsonl
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event

import ogames
from ogames.web.core.store import Store


class Pooled(Store):
    """The store on a pooled engine (no turns), writers one at a time behind a lock, as it was
    before EXCLUSIVE locking; `journal` is SQLite's journal mode, `synchronous` its sync level."""

    def __init__(self, url: str, journal: str, synchronous: str):
        self.url, self.path, self.identity, self.turns = url, None, None, None
        self.engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        self.writer = threading.Lock()

        @event.listens_for(self.engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            for pragma in ("foreign_keys=ON", "mmap_size=0", f"journal_mode={journal}", f"synchronous={synchronous}"):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        self._open()

    def add_action(self, *args: Any, **kwargs: Any) -> None:
        with self.writer:
            super().add_action(*args, **kwargs)


def make(mode: str, url: str) -> Store:
    if mode == "exclusive-wal":
        return Store(url)
    if mode == "shared-wal":
        return Pooled(url, "WAL", "NORMAL")
    return Pooled(url, "PERSIST", "FULL")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[int(q * (len(ordered) - 1))] * 1000, 2) if ordered else 0.0


def run(mode: str, folder: Path, games: int, moves: int, writers: int, readers: int) -> dict[str, Any]:
    store = make(mode, f"sqlite:///{folder / f'{mode}.sqlite3'}")
    start = ogames.load("omny", variant="y", size=9).new_state()
    states = {}
    for index in range(games):
        states[index] = start.clone()
        store.create_game(f"g{index}", "omny", "hotseat", ["human", "human"], start.record(), {0: "a" * 43, 1: "b" * 43})
    written: list[float] = []
    read: list[float] = []
    stop = threading.Event()

    def write(mine: range) -> None:
        for ply in range(moves):
            for index in mine:
                state = states[index]
                if state.is_over:
                    continue
                state.play(state.legal_moves()[ply % 7])
                began = time.perf_counter()
                store.add_action(f"g{index}", ply, state.record(), ply)
                written.append(time.perf_counter() - began)

    def read_games() -> None:
        count = 0
        while not stop.is_set():
            began = time.perf_counter()
            store.load_game(f"g{count % games}")
            read.append(time.perf_counter() - began)
            count += 1
            time.sleep(0.001)  # a page asks now and then, not in a tight loop

    reading = [threading.Thread(target=read_games) for _ in range(readers)]
    writing = [threading.Thread(target=write, args=(range(k, games, writers),)) for k in range(writers)]
    for thread in reading:
        thread.start()
    began = time.perf_counter()
    for thread in writing:
        thread.start()
    for thread in writing:
        thread.join()
    elapsed = time.perf_counter() - began
    stop.set()
    for thread in reading:
        thread.join()
    store.close()
    return {
        "mode": mode,
        "writes_per_second": round(len(written) / elapsed, 1),
        "write_p50_ms": quantile(written, 0.5),
        "write_p99_ms": quantile(written, 0.99),
        "reads_per_second": round(len(read) / elapsed, 1),
        "read_p50_ms": quantile(read, 0.5),
        "read_p99_ms": quantile(read, 0.99),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3, help="each round runs every mode once, in turn")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", type=Path, help="append the rows (JSON lines) to this file")
    args = parser.parse_args()
    rows = []
    for round_number in range(1, args.rounds + 1):
        for mode in ("exclusive-wal", "shared-wal", "rollback"):
            with tempfile.TemporaryDirectory() as folder:
                row = run(mode, Path(folder), args.games, args.moves, args.writers, args.readers)
            row.update(round=round_number, load=open("/proc/loadavg").read().split()[0])
            rows.append(row)
            print(json.dumps(row) if args.json else "  ".join(f"{key} {value}" for key, value in row.items()), flush=True)
    if args.out:
        with args.out.open("a") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
