"""What the opening explorer's site part costs with its index (web/explore/site.py): the explorer's
page and its JSON with 10 and with 20,000 stored finished games of a board, side by side in one
run (the requests alternate between the two sites), and what filling and updating the index cost.

    nice -n 10 .venv/bin/python benchmarks/bench_explore.py [--games 20000] [--repeat 40] \\
        [--out benchmarks/results/explore.md]

The games are random games of Y 5, written straight into the games tables as a server before the
index stored them, then counted by the migration's backfill (`count_all`); a few more are ended
through `Store.add_entries`, as the site ends them, to time the ending action with its counting.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert

import ogames
from ogames.web import create_app
from ogames.web.core.settings import Settings
from ogames.web.core.store import Store, games, moves
from ogames.web.explore.site import count_all

OPTIONS = {"variant": "y", "size": 5}
QUERY = "game=omny&variant=y&size=5&source=site"
DEEP = "&moves=c3,b2,b3"
ENDED = 50  # games ended through the store at the end, timed one by one
WHAT = {"the page (the start)": f"/explore?{QUERY}", "its JSON": f"/api/explore?{QUERY}",
        "the page, 3 moves in": f"/explore?{QUERY}{DEEP}"}


def record_of(number: int) -> dict[str, Any]:
    """A finished random game of Y 5 (seeded by its number)."""
    rng = random.Random(number)
    state = ogames.load("omny", **OPTIONS).new_state(["ann", "bob"])
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return state.record()


def written(url: str, count: int) -> None:
    """`count` finished games written into the tables in bulk (as stored before the index)."""
    store = Store(url)
    with store.engine.begin() as conn:
        for start in range(0, count, 1000):
            records = [(f"b{number:06d}", record_of(number)) for number in range(start, min(count, start + 1000))]
            conn.execute(insert(games), [
                {"id": game_id, "game": "omny", "mode": "online", "seat_kinds": ["human", "human"],
                 "head": {key: value for key, value in record.items() if key != "moves"}, "ply": len(record["moves"]),
                 "version": 1, "status": "over", "created_at": 1.0, "updated_at": 1.0, "variant": "y"}
                for game_id, record in records])
            conn.execute(insert(moves), [{"game_id": game_id, "ply": ply, "entry": entry, "stored_at": 1.0}
                                         for game_id, record in records for ply, entry in enumerate(record["moves"])])
    store.close()


def backfilled(url: str) -> tuple[int, float]:
    """The backfill over the stored games: (games counted, seconds)."""
    store = Store(url)
    start = time.perf_counter()
    with store.engine.begin() as conn:
        counted = count_all(conn)
    seconds = time.perf_counter() - start
    store.close()
    return counted, seconds


def ending_times(url: str, first: int) -> tuple[list[float], list[float]]:
    """ENDED more games stored through the store, each one's last two actions timed: (the move
    before the end, the move ending it: stored and counted in the index)."""
    store = Store(url)
    plain, ending = [], []
    for number in range(first, first + ENDED):
        record = record_of(number)
        head = {key: value for key, value in record.items() if key != "moves"}
        store.create_game(f"e{number}", "omny", "online", ["human", "human"], {**head, "result": None, "moves": []}, {})
        *before, penultimate, last = record["moves"]
        store.add_entries(f"e{number}", 0, {**head, "result": None}, 0, before)
        for version, entry, times in ((1, penultimate, plain), (2, last, ending)):
            start = time.perf_counter()
            store.add_entries(f"e{number}", version, head if entry is last else {**head, "result": None},
                              len(before) + version - 1, [entry])
            times.append(time.perf_counter() - start)
    store.close()
    return plain, ending


def timed(client: TestClient, path: str) -> float:
    start = time.perf_counter()
    answer = client.get(path)
    elapsed = time.perf_counter() - start
    assert answer.status_code == 200, answer.text
    return elapsed


def ms(values: list[float], pick: Callable[[list[float]], float]) -> str:
    return f"{pick(values) * 1e3:.1f} ms"


def at_least_one(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number is needed, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1 is needed, not {value}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=at_least_one, default=20_000)
    parser.add_argument("--small", type=at_least_one, default=10)
    parser.add_argument("--repeat", type=at_least_one, default=40)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.small >= args.games:
        parser.error("--small must be fewer games than --games")
    if args.out is not None and not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no such folder")  # refused now, not after the run
    with tempfile.TemporaryDirectory() as folder:
        urls = {size: f"sqlite:///{folder}/g{size}.sqlite3" for size in (args.small, args.games)}
        fill = {}
        for size, url in urls.items():
            written(url, size)
            fill[size] = backfilled(url)
        plain, ends = ending_times(urls[args.games], args.games)
        pages: dict[tuple[int, str], list[float]] = {}
        with contextlib.ExitStack() as running:
            clients = {size: running.enter_context(TestClient(create_app(Settings(database_url=url, ai_executor="thread"))))
                       for size, url in urls.items()}
            for client in clients.values():  # each page once before timing (the book, the templates)
                timed(client, f"/explore?{QUERY}")
            for _ in range(args.repeat):
                for size, client in clients.items():  # alternating: both sites see the same load
                    for what, path in WHAT.items():
                        pages.setdefault((size, what), []).append(timed(client, path))
            root = clients[args.games].get(f"/api/explore?{QUERY}").json()["games"]
    lines = [
        "# The opening explorer's site part: the index",
        "",
        f"`benchmarks/bench_explore.py`: finished random games of Y 5 in SQLite stores; {platform.machine()} CPython "
        f"{platform.python_version()}, a shared two-core machine under load (indicative only; the two sites' requests "
        f"alternate, so they compare side by side).",
        "",
        f"| request ({args.repeat} each) | {args.small} games: median | p90 | {args.games:,} games: median | p90 |",
        "|---|---:|---:|---:|---:|",
    ]
    p90 = lambda values: statistics.quantiles(values, n=10)[-1]  # noqa: E731
    for what in WHAT:
        small, large = pages[(args.small, what)], pages[(args.games, what)]
        lines.append(f"| {what} | {ms(small, statistics.median)} | {ms(small, p90)} "
                     f"| {ms(large, statistics.median)} | {ms(large, p90)} |")
    counted, seconds = fill[args.games]
    lines += [
        "",
        f"The large site's root counted {root:,} games. The backfill (migration 0017's `count_all`) counted {counted:,} "
        f"games in {seconds:.1f} s ({seconds / counted * 1e3:.1f} ms a game). Storing a move ({ENDED} games, each one's "
        f"last two): the move before the end median {ms(plain, statistics.median)} (max {ms(plain, max)}), the move "
        f"ending the game, counted in the same transaction, median {ms(ends, statistics.median)} (max {ms(ends, max)}).",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
