"""Does the review find the move that lost? Strong games with one planted losing move.

    nice -n 10 .venv/bin/python benchmarks/bench_review_planted.py                 # 60 games, writes the results
    .venv/bin/python benchmarks/bench_review_planted.py --games 6 --dry             # a quick look

For each seed, `ogames.teach.planted.planted_game` plays a strong game (`STRONG`: the search with
the connection solver inside) of Omny (Y, size 6) or Odd-Y (5 sides, size 4), both without the pie
rule, to a random ply; there the solver proves the side to move wins, and one of its moves that
the solver proves lost replaces the move; strong play finishes the game, and the plant's side
loses. Seeds that give no such position are skipped (and counted). Each game is reviewed twice at
the review's defaults: as shipped (the search and the solver's proofs within the review's small
budget) and by the search alone (`prove=0`). The plant is found when the review marks it a mistake
or a blunder with no smaller loss than any other move of the side that lost (`finds_plant`).

Written: `benchmarks/results/review-planted.md`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ogames.teach.planted import Planted, finds_plant, planted_game
from ogames.teach.review import DEFAULT_BUDGET, DEFAULT_PROVE, review

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "benchmarks" / "results" / "review-planted.md"
STRONG = "mcts:iterations=2000,prove=20000"
BOARDS: list[tuple[str, dict[str, Any]]] = [
    ("omny", {"variant": "y", "size": 6, "pie": False}),
    ("oddy", {"sides": 5, "size": 4, "pie": False}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help="planted games in all (shared by the boards)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--prove", type=int, default=DEFAULT_PROVE)
    parser.add_argument("--dry", action="store_true", help="print the table, write nothing")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = []
    total: dict[str, int] = {"games": 0, "shipped": 0, "search": 0, "skipped": 0}
    for game, options in BOARDS:
        wanted = args.games // len(BOARDS)
        found = {"games": 0, "shipped": 0, "search": 0, "skipped": 0, "marks": 0}
        marks: dict[str, int] = {}
        seed = 0
        while found["games"] < wanted:
            seed += 1
            planted: Planted | None = planted_game(game, options, seed, STRONG)
            if planted is None:
                found["skipped"] += 1
                continue
            found["games"] += 1
            shipped = review(planted.record, budget=args.budget, prove=args.prove, seed=seed)
            alone = review(planted.record, budget=args.budget, prove=0, seed=seed)
            found["shipped"] += finds_plant(shipped, planted)
            found["search"] += finds_plant(alone, planted)
            mark = alone.moves[planted.ply - 1].mark or "none"
            marks[mark] = marks.get(mark, 0) + 1
            print(f"  {game} seed {seed}: ply {planted.ply} {planted.move}; shipped {shipped.moves[planted.ply - 1].mark}, "
                  f"search alone {mark}", file=sys.stderr)
        label = f"{game} {', '.join(f'{k}={v}' for k, v in options.items())}"
        rows.append((label, found, marks))
        for key in total:
            total[key] += found[key]
    lines = [
        "# Review: planted blunders found",
        "",
        f"Written by `benchmarks/bench_review_planted.py`: strong games (`{STRONG}` against itself) with one move "
        "replaced, at a random ply, by a move the connection solver proves lost from a position it proves won, finished "
        f"by the same strong play. Reviewed at {args.budget} iterations a position, as shipped (with proofs up to "
        f"{args.prove:,} solver positions a position) and by the search alone. Found: the planted move marked a mistake "
        f"or blunder with no smaller loss than any other move of the side that lost. {time.perf_counter() - started:.0f} s "
        "on a shared machine (indicative only).",
        "",
        "| board | games | found as shipped | found by the search alone | the search's marks of the plant | seeds skipped |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for label, found, marks in rows:
        n = found["games"]
        tally = ", ".join(f"{mark} {count}" for mark, count in sorted(marks.items()))
        lines.append(f"| {label} | {n} | {found['shipped']} ({100 * found['shipped'] / n:.0f}%) | "
                     f"{found['search']} ({100 * found['search'] / n:.0f}%) | {tally} | {found['skipped']} |")
    n = total["games"]
    lines.append(f"| all | {n} | {total['shipped']} ({100 * total['shipped'] / n:.0f}%) | "
                 f"{total['search']} ({100 * total['search'] / n:.0f}%) | | {total['skipped']} |")
    lines.append("")
    text = "\n".join(lines)
    print(text)
    if not args.dry:
        TABLE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
