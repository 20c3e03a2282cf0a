"""Does a game's review slow the computer's moves? (issue 22: reviews run "without slowing live games".)

The server computes reviews in a worker of their own at the lowest CPU priority
(web/boards/game_review.py `review_lane`, niceness 19) beside the move workers (niceness 0). This
measures, side by side in one run, the time of a fixed amount of search — a computer move of
`--iterations` iterations in a move worker's process — in three conditions, interleaved move by
move so that the machine's other load falls on all three alike:

- **quiet**: nothing else runs in the benchmark's processes;
- **review, niceness 19**: a review of a long game runs in a review worker as the server starts it;
- **review, niceness 0**: the same review at the moves' own priority (what the review would cost
  the moves without its low priority).

On a machine with a core free for the review, all three are alike; when the cores are busy, the
second should stay near the first and the third fall behind.

    nice -n 10 python benchmarks/bench_review_priority.py --moves 8 --out benchmarks/results/review-priority.md

Timings on a shared machine are noisy: read the columns of one run against each other.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

import ogames
from ogames.web.boards import ai
from ogames.web.boards.game_review import REVIEW_NICENESS
from ogames.web.core.workers import ProcessLane


def long_game(size: int, seed: int = 1) -> dict[str, Any]:
    """A finished Omny game of random moves on a board of `size` (a review of it is long)."""
    state = ogames.load("omny", variant="y", size=size).new_state()
    chooser = random.Random(seed)
    while not state.is_over:
        state.play(chooser.choice(sorted(state.legal_moves())))
    record: dict[str, Any] = state.record()
    return record


def position(size: int) -> dict[str, Any]:
    """The position a move is timed in: a few moves into a game on a board of `size`."""
    state = ogames.load("omny", variant="y", size=size).new_state()
    for move in sorted(state.legal_moves())[:4]:
        state.play(move)
    record: dict[str, Any] = state.record()
    return record


async def timed_move(lane: ProcessLane, record: dict[str, Any], spec: str) -> float:
    started = time.perf_counter()
    await lane.run(ai.choose_move, record, spec)
    return time.perf_counter() - started


async def measure(args: argparse.Namespace) -> dict[str, list[float]]:
    moves = ProcessLane(niceness=0, name="ogames-moves")
    await moves.start()
    spec = f"mcts:iterations={args.iterations},think=600"
    record, game = position(args.board), long_game(args.review_board)
    await timed_move(moves, record, spec)  # warm: the kernels compiled
    times: dict[str, list[float]] = {"quiet": [], "review, niceness 19": [], "review, niceness 0": []}
    try:
        for _ in range(args.moves):
            for condition, niceness in (("quiet", None), ("review, niceness 19", REVIEW_NICENESS), ("review, niceness 0", 0)):
                if niceness is None:
                    times[condition].append(await timed_move(moves, record, spec))
                    continue
                reviewer = ProcessLane(niceness=niceness, name="ogames-review")
                await reviewer.start()
                review = asyncio.ensure_future(reviewer.run(ai.review_game, game, args.budget, 0))
                await asyncio.sleep(args.lead)  # the review is searching when the move starts
                times[condition].append(await timed_move(moves, record, spec))
                review.cancel()
                await reviewer.stop()
    finally:
        await moves.stop()
    return times


def report(times: dict[str, list[float]], args: argparse.Namespace) -> str:
    lines = [
        "# A review beside the computer's moves (bench_review_priority.py)",
        "",
        f"A move of {args.iterations} iterations (Omny y{args.board}) in a move worker (niceness 0), timed {args.moves} times in "
        f"each condition, interleaved; the review: a random Omny y{args.review_board} game at budget {args.budget}. "
        f"Machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end (a shared machine: noisy).",
        "",
        "| condition | median s | mean s | min s | max s |",
        "|---|---|---|---|---|",
    ]
    for condition, values in times.items():
        lines.append(f"| {condition} | {statistics.median(values):.3f} | {statistics.fmean(values):.3f} | "
                     f"{min(values):.3f} | {max(values):.3f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--board", type=int, default=9)
    parser.add_argument("--review-board", type=int, default=11)
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--lead", type=float, default=1.0, help="seconds the review runs before the move starts")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = report(asyncio.run(measure(args)), args)
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
