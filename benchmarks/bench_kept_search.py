"""Kept searches with several move workers: how often does a game's computer move find its search
kept, with the server's move workers (each game's moves at its home worker, web/core/move_workers.py)
against one shared queue (a `ProcessPoolExecutor`, what the server used before)?

Plays G games of Omny (Y, size N) at once against the computer, each as a person would: the
computer's move in a worker (`ai.choose_move`, exactly the server's call), then the person's reply
(a random legal move) after a think time. Both pools have the same number of worker processes and
play the same games (same seeds), side by side in one run. For every computer move after a game's
first it reports whether the search was resumed (the worker kept the game's search) and the visits
the tree held when its search began, and its time (asked to answered, waiting for a worker included).

    python benchmarks/bench_kept_search.py                      # 2 workers, 6 games, 8 moves each
    python benchmarks/bench_kept_search.py --workers 2 --games 6 --out benchmarks/results/kept_search.md

Timings on a shared machine are noisy: run it with `nice -n 10` and read the two rows of one run
against each other.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import os
import random
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import ogames
from ogames.players.base import BasePlayer
from ogames.web.boards import ai
from ogames.web.core.computer import board_spec
from ogames.web.core.move_workers import MoveWorkers
from ogames.web.core.workers import ProcessLane


def worker_move(record: dict[str, Any], spec: str, game: str) -> tuple[str, bool, int, str | None, int]:
    """In a worker: the server's computer move; whether the worker had a search of the game kept
    (the benchmark takes no move back, so a kept search always continues the record), the visits
    its tree held when the search began, the reply it expects, and the worker's process id."""
    seat = ogames.replay(record).mover
    kept = seat in ai.kept_report(game)
    move = ai.choose_move(record, spec, game=game)
    after = ai.kept_searches.peek((game, seat or 0))  # none when the move ended the game
    info = after.player.info() if after is not None and isinstance(after.player, BasePlayer) else {}
    line = [str(step) for step in info.get("pv") or []]
    reused = int(info.get("reused") or 0) if kept else 0
    return move, kept, reused, line[1] if len(line) > 1 else None, os.getpid()


@dataclass
class Tally:
    later: int = 0  # computer moves after a game's first
    fresh: int = 0  # of them, with the game's search kept since its last move (the same worker)
    stale: int = 0  # with a search kept from an earlier move (a worker the game had left)
    reused: list[int] = field(default_factory=list)  # visits carried over, when kept
    seconds: list[float] = field(default_factory=list)


async def play(call: Any, game: str, seed: int, args: argparse.Namespace, tally: Tally) -> None:
    """One game: the computer's moves through `call`, the person's replies after a think time (the
    reply the computer expects with probability `args.expected`, else a random one)."""
    rng = random.Random(seed)
    state = ogames.load("omny", variant="y", size=args.size, pie=False).new_state()
    spec = board_spec(args.level, 10.0, state.game)
    last = None
    for number in range(args.moves):
        asked = time.monotonic()
        move, kept, reused, expected, worker = await call(game, worker_move, state.record(), spec, game)
        if number:  # a game's first move may load a worker's kernels: not timed
            tally.seconds.append(time.monotonic() - asked)
            tally.later += 1
            if kept:
                tally.fresh += worker == last
                tally.stale += worker != last
                tally.reused.append(reused)
        last = worker
        state.play(move)
        if state.is_over:
            return
        await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
        legal = state.legal_moves()
        state.play(expected if expected in legal and rng.random() < args.expected else rng.choice(legal))
        if state.is_over:
            return


async def run(kind: str, args: argparse.Namespace) -> Tally:
    tally = Tally()
    if kind == "home worker":
        pool = MoveWorkers(args.workers, lambda: ProcessLane(niceness=0, name="bench-moves"))
        call = pool.run
        warm = [pool.run(None, ai.ready) for _ in range(args.workers)]
        await asyncio.gather(*warm)
    else:
        loop = asyncio.get_running_loop()
        executor = concurrent.futures.ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn"))

        async def call(game: str, function: Any, *rest: Any) -> Any:
            return await loop.run_in_executor(executor, function, *rest)

        await asyncio.gather(*(loop.run_in_executor(executor, ai.ready) for _ in range(args.workers)))
    try:
        await asyncio.gather(*(play(call, f"g{n}", n, args, tally) for n in range(args.games)))
    finally:
        if kind == "home worker":
            await pool.close()
        else:
            executor.shutdown(wait=True)
    return tally


def row(kind: str, tally: Tally) -> str:
    def share(count: int) -> str:
        return f"{count} ({count / tally.later:.0%})" if tally.later else "0"

    reused = statistics.median(tally.reused) if tally.reused else 0
    seconds = sorted(tally.seconds)
    rebuilt = tally.later - tally.fresh - tally.stale
    return (f"| {kind} | {tally.later} | {share(tally.fresh)} | {share(tally.stale)} | {share(rebuilt)} | {reused:.0f} | "
            f"{statistics.median(seconds):.2f} / {seconds[int(0.9 * (len(seconds) - 1))]:.2f} / {seconds[-1]:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--moves", type=int, default=8, help="computer moves a game at most")
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--think", type=float, default=0.3, help="the person's mean think time, seconds")
    parser.add_argument("--expected", type=float, default=0.5, help="how often the person plays the reply the computer expects")
    parser.add_argument("--out")
    args = parser.parse_args()
    rows = [row(kind, asyncio.run(run(kind, args))) for kind in ("shared queue", "home worker")]
    spec = board_spec(args.level, 10.0, ogames.load("omny", variant="y", size=args.size))
    lines = [
        f"## {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, `benchmarks/bench_kept_search.py --workers {args.workers} "
        f"--games {args.games} --moves {args.moves} --size {args.size} --level {args.level} --think {args.think} "
        f"--expected {args.expected}`",
        "",
        f"{args.games} games of Omny Y {args.size} at once against the computer (`{spec}`), {args.workers} move worker "
        f"processes, the person replying after {args.think} s on average, with the reply the computer expects "
        f"{args.expected:.0%} of the time.",
        "",
        "| pool | computer moves after a game's first | its search kept since its last move | kept from an earlier move "
        "| rebuilt | visits carried over, when kept (median) | time median / p90 / max (s) |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"Machine: {os.cpu_count()} cores, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} at the end "
        "(a shared machine: timings are noisy; compare the rows of one run).",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "a") as out:
            out.write("\n" + text + "\n")


if __name__ == "__main__":
    main()
