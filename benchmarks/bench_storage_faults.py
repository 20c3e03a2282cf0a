"""How fast a locked database is answered (the bound tests/web/test_storage_faults.py asserts,
generously): the busy timeout is 2 s, so a refusal should come after about 2 s, never the 30 s
(one request after another: longer still) a locked SQLite file took before.

- `start-locked`: `ogames serve` on a SQLite file another program holds, from start to its
  one-line refusal; `start-missing` is the same command refused at once (a missing folder), so
  the difference is the wait for the lock.
- `turn-busy`: a store whose one connection is taken by a slow call refuses a move (in process).
- `postgres-row-lock`: a move on a game whose row another PostgreSQL client holds `FOR UPDATE`,
  answered 503 by a running server (needs Debian's PostgreSQL and the scale extra).

    python benchmarks/bench_storage_faults.py --repeat 5 --out benchmarks/results/storage_faults.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ogames
from ogames.web.core.store import Store
from ogames.web.core.store_faults import StorageError

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(database: str) -> tuple[float, str]:
    """Seconds until `ogames serve` stops by itself, and what it said."""
    began = time.monotonic()
    command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(free_port()), "--database", database]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    return time.monotonic() - began, (result.stdout + result.stderr).strip()


def new_file(folder: Path) -> Path:
    path = folder / "games.sqlite3"
    Store(f"sqlite:///{path}").close()
    return path


def start_locked(folder: Path) -> float:
    path = new_file(folder)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")
        seconds, said = serve(f"sqlite:///{path}")
        other.execute("ROLLBACK")
    assert "another program is using it" in said, said
    return seconds


def start_missing(folder: Path) -> float:
    seconds, said = serve(f"sqlite:///{folder / 'missing' / 'games.sqlite3'}")
    assert "does not exist" in said, said
    return seconds


def turn_busy(folder: Path) -> float:
    store = Store(f"sqlite:///{folder / 'games.sqlite3'}")
    state = ogames.load("omny", variant="y", size=3).new_state()
    store.create_game("g", "omny", "hotseat", ["human", "human"], state.record(), {})
    state.play("b2")
    started, release = threading.Event(), threading.Event()
    assert store.turns is not None

    def slow() -> None:
        started.set()
        release.wait(60)

    holder = threading.Thread(target=store.turns.run, args=(slow,))
    holder.start()
    started.wait(60)
    began = time.monotonic()
    try:
        store.add_action("g", 0, state.record(), 0)
        raise AssertionError("the move was stored while the store was busy")
    except StorageError as exc:
        assert exc.kind == "busy"
        seconds = time.monotonic() - began
    finally:
        release.set()
        holder.join()
        store.close()
    return seconds


def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def postgres_row_lock(repeat: int) -> list[float]:
    sys.path.insert(0, str(ROOT / "tools"))
    import local_services
    import psycopg

    if local_services.missing():
        raise SystemExit(f"postgres-row-lock: {local_services.missing()}")
    times = []
    with local_services.postgres() as pg, tempfile.TemporaryDirectory() as folder:
        url = ""
        for _ in range(60):  # PostgreSQL may still be starting up
            try:
                url = pg.new_database("bench_storage_faults")
                break
            except Exception:
                time.sleep(0.5)
        port = free_port()
        command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(port), "--database", url]
        with (Path(folder) / "server.log").open("w") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                with contextlib.suppress(OSError), urllib.request.urlopen(base + "/", timeout=2):
                    break
                assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
                time.sleep(0.2)
            for _ in range(repeat):
                status, game = post(base, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 5}})
                assert status == 201, game
                with psycopg.connect(url.replace("+psycopg", "")) as other:
                    other.execute("SELECT version FROM games WHERE id = %s FOR UPDATE", (game["id"],))
                    began = time.monotonic()
                    move = {"move": "c3", "token": game["tokens"]["0"], "version": 0}
                    status, answer = post(base, f"/api/games/{game['id']}/moves", move)
                    times.append(time.monotonic() - began)
                    assert status == 503 and "busy" in answer["error"], answer
                    other.rollback()
        finally:
            process.terminate()
            process.wait(15)
    return times


def measure(name: str, once: Callable[[Path], float], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            times.append(once(Path(folder)))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--out", type=Path, help="append the rows (JSON lines) to this file")
    args = parser.parse_args()
    runs = {
        "start-locked": measure("start-locked", start_locked, args.repeat),
        "start-missing": measure("start-missing", start_missing, args.repeat),
        "turn-busy": measure("turn-busy", turn_busy, args.repeat),
    }
    if not args.no_postgres:
        runs["postgres-row-lock"] = postgres_row_lock(args.repeat)
    load = open("/proc/loadavg").read().split()[0]
    rows = []
    for name, times in runs.items():
        row = {"case": name, "median_s": round(statistics.median(times), 2), "max_s": round(max(times), 2)}
        row.update(runs=len(times), busy_timeout_s=2.0, loadavg=load)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        with args.out.open("a") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
