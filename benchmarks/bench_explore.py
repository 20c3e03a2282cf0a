"""What the opening explorer's site part costs: building one board's tree from the newest finished
games (web/explore/site.py's bounded build), and answering a position from a kept tree, side by
side in one run.

    nice -n 10 .venv/bin/python benchmarks/bench_explore.py [--games 500] [--out benchmarks/results/explore.md]

The games are self-play-like random games of Y 5 stored through the web store, as the site keeps
them; the build reads the newest RECENT of them.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

import ogames
from ogames.teach.explorer import next_moves, position
from ogames.web.core.store import Store
from ogames.web.explore.site import RECENT, build, refresh

OPTIONS = {"variant": "y", "size": 5}


def stored(store: Store, count: int, first: int = 0) -> None:
    """`count` finished random games of Y 5 in the store (numbered from `first`)."""
    game = ogames.load("omny", **OPTIONS)
    for number in range(first, first + count):
        rng = random.Random(number)
        state = game.new_state(["ann", "bob"])
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        record = state.record()
        head = {key: value for key, value in record.items() if key != "moves"}
        start = {**head, "result": None, "moves": []}
        store.create_game(f"b{number:05d}", "omny", "online", ["human", "human"], start, {})
        store.add_entries(f"b{number:05d}", 0, head, 0, record["moves"], None)


def timed(action, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=RECENT)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    game = ogames.load("omny", **OPTIONS)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/g.sqlite3")
        stored(store, args.games)
        builds = timed(lambda: build(store, game), args.repeat)
        kept = refresh(store, game)
        unchanged = timed(lambda: refresh(store, game, kept), args.repeat)
        stored(store, 10, first=args.games)
        start = time.perf_counter()
        refresh(store, game, kept)
        ten = time.perf_counter() - start
        tree = kept.tree
        state = position(game, [])
        answers = timed(lambda: next_moves(state, [], [tree]), args.repeat * 20)
        store.close()
    lines = [
        "# The opening explorer's site part",
        "",
        f"`benchmarks/bench_explore.py`: {args.games} finished random games of Y 5 in a SQLite store; "
        f"{platform.machine()} CPython {platform.python_version()}, a shared machine (indicative only).",
        "",
        "| what | median | max |",
        "|---|---:|---:|",
        f"| build one board's tree from the newest {min(args.games, RECENT)} games | {statistics.median(builds):.3f} s "
        f"| {max(builds):.3f} s |",
        f"| bring the kept tree up to date: nothing finished since | {statistics.median(unchanged) * 1e3:.1f} ms "
        f"| {max(unchanged) * 1e3:.1f} ms |",
        f"| bring the kept tree up to date: 10 games finished since | {ten:.3f} s | |",
        f"| the next moves of a position from the kept tree | {statistics.median(answers) * 1e6:.0f} µs "
        f"| {max(answers) * 1e6:.0f} µs |",
        "",
        f"The tree held {tree.lines} games.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
