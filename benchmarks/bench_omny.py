"""Omny random playouts per second: the numba kernel against the plain-Python game.

Run: .venv/bin/python benchmarks/bench_omny.py [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

import ogames
from ogames.kernels import omny as kernel
from ogames.rules.protocol import State

BOARDS = [
    ("y", {"variant": "y", "size": 7}),
    ("y", {"variant": "y", "size": 11}),
    ("sunder", {"variant": "sunder", "size": 5}),
    ("sunder", {"variant": "sunder", "size": 8}),
    ("gyre", {"variant": "gyre", "size": 6}),
]


def rate(playout, seconds: float) -> float:
    """Playouts per second of a zero-argument callable, timed for about `seconds`."""
    playout()  # warm up (compilation, caches)
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        playout()
        count += 1
    return count / elapsed


def reference_playout(game: ogames.Game, rng: random.Random) -> int:
    """A whole random game with the plain-Python win test (no numba at all)."""
    order = list(range(len(game.board)))
    rng.shuffle(order)
    total = game.total_stars
    return kernel.fill_winner_reference([0] * len(order), game.board.neighbours, game.star_mask, 0, total, total, order)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = parser.parse_args()
    table = Table(title="Omny random playouts per second (one core)")
    for column in ("variant", "size", "cells", "S", "kernel", "state API", "pure Python", "kernel / API"):
        table.add_column(column, justify="right")
    for variant, options in BOARDS:
        game = ogames.load("omny", **options)
        state = game.new_state()
        rng = random.Random(1)
        fast = rate(lambda s=state, r=rng: s.random_playout(r), args.seconds)
        generic = rate(lambda s=state, r=rng: State.random_playout(s, r), args.seconds)
        pure = rate(lambda g=game, r=rng: reference_playout(g, r), args.seconds)
        table.add_row(
            variant,
            str(options["size"]),
            str(len(game.board)),
            str(game.total_stars),
            f"{fast:,.0f}",
            f"{generic:,.1f}",
            f"{pure:,.1f}",
            f"{fast / generic:,.0f}×",
        )
    Console().print(table)
    Console().print(
        "kernel: OmnyState.random_playout (numba fill + win test); state API: State.random_playout through play() "
        "(win test still compiled); pure Python: the reference fill with the reference win test.",
        style="dim",
    )


if __name__ == "__main__":
    main()
