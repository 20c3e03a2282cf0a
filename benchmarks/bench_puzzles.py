"""Re-prove every shipped puzzle (src/ogames/teach/puzzles/puzzles.jsonl) and report the time per
game and every failure; writes benchmarks/results/puzzles.md.

    nice -n 10 .venv/bin/python benchmarks/bench_puzzles.py [--file PATH] [--no-write]

The test suite re-proves a random 50 on every run; this proves them all. Times are wall-clock on
whatever machine runs it (a shared one is noisy): the counts and failures are what matter.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import defaultdict
from pathlib import Path

from ogames.teach.puzzles import SHIPPED, Prover, position_of, read, verify

OUT = Path(__file__).resolve().parent / "results" / "puzzles.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default=str(SHIPPED))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    puzzles = list(read(args.file))
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    failures: list[str] = []
    provers: dict[str, Prover] = {}
    for puzzle in puzzles:
        label = f"{puzzle.game} {json.dumps(puzzle.options, sort_keys=True)}"
        started = time.perf_counter()
        prover = provers.setdefault(label, Prover(position_of(puzzle).game))
        problems = verify(puzzle, prover)
        seconds[label] += time.perf_counter() - started
        counts[label] += 1
        if problems:
            failures.append(f"{puzzle.id}: {'; '.join(problems)}")
            print("FAILED", failures[-1], flush=True)
    lines = [
        "# Re-proving every shipped puzzle",
        "",
        f"`benchmarks/bench_puzzles.py` on {platform.machine()} CPython {platform.python_version()}, a shared two-core",
        "machine under other work (times are indicative only).",
        "",
        "| game and options | puzzles | seconds | per puzzle |",
        "|---|---:|---:|---:|",
    ]
    for label in sorted(counts):
        lines.append(f"| {label} | {counts[label]} | {seconds[label]:.1f} | {seconds[label] / counts[label]:.2f} |")
    total = sum(seconds.values())
    lines += [f"| all | {len(puzzles)} | {total:.1f} | {total / max(1, len(puzzles)):.2f} |", ""]
    lines.append(f"Failures: {len(failures)}." if not failures else "Failures:\n\n" + "\n".join(f"- {f}" for f in failures))
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
