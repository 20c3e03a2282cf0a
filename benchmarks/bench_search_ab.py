"""The compiled search's speed in two source trees of ogames, side by side (A/B) in one run.

Each round runs one child process per tree (`PYTHONPATH=<tree>/src`), in alternating order, so
that a busy machine slows both alike. A child loads every game's kernels first, then runs one
seeded search of a fixed number of iterations from the start of each game and reports the
iterations per second of wall-clock and of its own CPU time. A seeded search of a fixed budget is
the same work in both trees when they choose the same moves (the child reports the move, visits
and nodes, and the run checks they agree), so the ratio of the CPU rates is the speed change. The
table shows per game the median over the rounds of each tree's CPU rate and of the per-round
ratio B / A.

    git archive <commit> src | tar -x -C /tmp/before
    nice -n 10 .venv/bin/python benchmarks/bench_search_ab.py --a /tmp/before --b . --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# (title, game, options, iterations): the boards of bench_mcts.py, each budget about a second.
CASES = [
    ("Y 9", "oddy", {"sides": 3, "size": 9, "pie": False}, 40_000),
    ("Y 13", "oddy", {"sides": 3, "size": 13, "pie": False}, 25_000),
    ("Odd-Y 5-sided polar n=5", "oddy", {"sides": 5, "size": 5}, 30_000),
    ("Omny y 9", "omny", {"variant": "y", "size": 9}, 30_000),
    ("Omny y 20", "omny", {"variant": "y", "size": 20}, 8_000),
    ("Omny sunder 5", "omny", {"variant": "sunder", "size": 5}, 25_000),
    ("Omny sunder 9", "omny", {"variant": "sunder", "size": 9}, 8_000),
    ("Omny gyre 5", "omny", {"variant": "gyre", "size": 5}, 25_000),
    ("Omega 2p hexagon 5", "omega", {"players": 2, "size": 5}, 40_000),
    ("Omega 3p hexagon 8", "omega", {"players": 3, "size": 8}, 20_000),
    ("Onyx", "onyx", {}, 8_000),
]

CHILD = """
import json, sys, time
import ogames
from ogames.players import player
cases = json.loads(sys.argv[1])
for _, game, options, _ in cases:  # compile or load every kernel before timing
    player("mcts", iterations=64, seed=1).choose(ogames.load(game, **options).new_state())
out = []
for title, game, options, iterations in cases:
    state = ogames.load(game, **options).new_state()
    bot = player("mcts", iterations=iterations, seed=1)
    wall, cpu = time.perf_counter(), time.process_time()
    move = bot.choose(state)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    info = bot.info()
    out.append({"title": title, "wall": iterations / wall, "cpu": iterations / cpu,
                "search": [move, info["visits"], info["nodes"]]})
print(json.dumps({"file": ogames.__file__, "results": out}))
"""


def child(tree: Path, cases: list) -> dict:
    """One child process's figures in a source tree."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(cases)], env=env, capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(figures["file"]).resolve().is_relative_to((tree / "src").resolve()), figures["file"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", type=Path, required=True, help="the tree before (its src/ is imported)")
    parser.add_argument("--b", type=Path, required=True, help="the tree after")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write every round's figures here")
    args = parser.parse_args()
    rounds: list[dict] = []
    started = time.time()
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        got = {side: child(getattr(args, side), CASES) for side in order}
        rounds.append({side: got[side]["results"] for side in ("a", "b")})
        print(f"round {r + 1}/{args.rounds} done ({time.time() - started:.0f} s)", file=sys.stderr)
        if args.json:  # every round as it ends, so that a run cut short still tells
            args.json.write_text(json.dumps({"cases": [c[0] for c in CASES], "rounds": rounds}, indent=1))
    print(f"{'game':<26} {'A it/s (CPU)':>13} {'B it/s (CPU)':>13} {'B / A':>7}  same search")
    ratios = []
    for i, (title, *_rest) in enumerate(CASES):
        a = [rnd["a"][i] for rnd in rounds]
        b = [rnd["b"][i] for rnd in rounds]
        ratio = statistics.median(y["cpu"] / x["cpu"] for x, y in zip(a, b, strict=True))
        ratios.append(ratio)
        same = all(x["search"] == y["search"] for x, y in zip(a, b, strict=True))
        cpu_a, cpu_b = statistics.median(x["cpu"] for x in a), statistics.median(y["cpu"] for y in b)
        print(f"{title:<26} {cpu_a:>13,.0f} {cpu_b:>13,.0f} {ratio:>7.3f}  {'yes' if same else 'NO'}")
    print(f"{'geometric mean of B / A':<54} {statistics.geometric_mean(ratios):>7.3f}")


if __name__ == "__main__":
    main()
