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

Written: `benchmarks/results/review-planted.md`, and every game as a JSON line in
`review-planted.jsonl` beside it (a run resumes from it; `--only omny` and `--only oddy` in two
processes share it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from ogames.teach.planted import Planted, finds_plant, planted_game
from ogames.teach.review import DEFAULT_BUDGET, DEFAULT_PROVE, review

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "benchmarks" / "results" / "review-planted.md"
LOG = ROOT / "benchmarks" / "results" / "review-planted.jsonl"
STRONG = "mcts:iterations=2000,prove=20000"
BOARDS: list[tuple[str, dict[str, Any]]] = [
    ("omny", {"variant": "y", "size": 6, "pie": False}),
    ("oddy", {"sides": 5, "size": 4, "pie": False}),
]


def play(game: str, options: dict[str, Any], wanted: int, budget: int, prove: int, log: Path) -> None:
    """Plant and review games of one board until `wanted` are in the log (seeds already there are
    not played again), one JSON line each: the game, and a seed that gave no plant as skipped."""
    done = [row for row in read_log(log) if row["game"] == game]
    seed = max((row["seed"] for row in done), default=0)
    games = sum(not row["skipped"] for row in done)
    while games < wanted:
        seed += 1
        planted: Planted | None = planted_game(game, options, seed, STRONG)
        row: dict[str, Any] = {"game": game, "seed": seed, "skipped": planted is None}
        if planted is not None:
            shipped = review(planted.record, budget=budget, prove=prove, seed=seed)
            alone = review(planted.record, budget=budget, prove=0, seed=seed)
            row.update(ply=planted.ply, move=planted.move, shipped=finds_plant(shipped, planted),
                       search=finds_plant(alone, planted), shipped_mark=shipped.moves[planted.ply - 1].mark,
                       search_mark=alone.moves[planted.ply - 1].mark)
            games += 1
        with log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        print(f"  {row}", file=sys.stderr)


def read_log(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def table(rows: list[dict[str, Any]], budget: int, prove: int, seconds: float) -> str:
    lines = [
        "# Review: planted blunders found",
        "",
        f"Written by `benchmarks/bench_review_planted.py`: strong games (`{STRONG}` against itself) with one move "
        "replaced, at a random ply, by a move the connection solver proves lost from a position it proves won, finished "
        f"by the same strong play. Reviewed at {budget} iterations a position, as shipped (with proofs up to "
        f"{prove:,} solver positions a position) and by the search alone. Found: the planted move marked a mistake "
        "or blunder with no smaller loss than any other move of the side that lost. The last run took "
        f"{seconds:.0f} s on a shared machine (indicative only); the games are in review-planted.jsonl.",
        "",
        "| board | games | found as shipped | found by the search alone | the search's marks of the plant | seeds skipped |",
        "|---|---:|---:|---:|---|---:|",
    ]
    played = [row for row in rows if not row["skipped"]]
    for game, options in [*BOARDS, ("all", {})]:
        mine = [row for row in played if game in ("all", row["game"])]
        skipped = sum(row["skipped"] and game in ("all", row["game"]) for row in rows)
        n = len(mine)
        if not n:
            continue
        shipped, search = sum(row["shipped"] for row in mine), sum(row["search"] for row in mine)
        marks: dict[str, int] = {}
        for row in mine:
            marks[str(row["search_mark"])] = marks.get(str(row["search_mark"]), 0) + 1
        tally = ", ".join(f"{mark} {count}" for mark, count in sorted(marks.items()))
        label = game if game == "all" else f"{game} {', '.join(f'{k}={v}' for k, v in options.items())}"
        lines.append(f"| {label} | {n} | {shipped} ({100 * shipped / n:.0f}%) | {search} ({100 * search / n:.0f}%) | "
                     f"{tally} | {skipped} |")
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help="planted games in all (shared by the boards)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--prove", type=int, default=DEFAULT_PROVE)
    parser.add_argument("--only", choices=[game for game, _ in BOARDS], help="play one board (run one process a board)")
    parser.add_argument("--log", type=Path, default=LOG, help="the games' JSON lines (resumed)")
    parser.add_argument("--dry", action="store_true", help="print the table, write no table")
    args = parser.parse_args()
    started = time.perf_counter()
    for game, options in BOARDS:
        if args.only in (None, game):
            play(game, options, args.games // len(BOARDS), args.budget, args.prove, args.log)
    text = table(read_log(args.log), args.budget, args.prove, time.perf_counter() - started)
    print(text)
    if not args.dry:
        TABLE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
