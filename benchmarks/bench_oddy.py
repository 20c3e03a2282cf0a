"""Odd-Y random playouts per second: compiled kernels against plain Python.

    .venv/bin/python benchmarks/bench_oddy.py [--seconds 1.0]

Columns: the state's `random_playout` (numba fill-and-test-once), the numba move-by-move kernel
(union-find, win test after each placement), the plain-Python move-by-move reference, and the
generic protocol playout (legal moves and `play` through the rules, as any game gets for free).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

import ogames
from ogames.kernels import oddy as k
from ogames.rules.protocol import State

CASES = [
    ("triangle 7", {"sides": 3, "size": 7}),
    ("triangle 11", {"sides": 3, "size": 11}),
    ("triangle 15", {"sides": 3, "size": 15}),
    ("polar 5 sides, n=5", {"sides": 5, "size": 5}),
    ("polar 7 sides, n=5", {"sides": 7, "size": 5}),
    ("polar 9 sides, n=5", {"sides": 9, "size": 5}),
]


def rate(run: Callable[[], object], seconds: float) -> float:
    """Calls per second of `run`, measured for about `seconds` after one warm-up call."""
    run()
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        run()
        count += 1
    return count / elapsed


def measure(options: dict, seconds: float) -> dict[str, float]:
    """Playouts per second from the empty board (pie off, so every way plays the same game)."""
    game = ogames.load("oddy", pie=False, **options)
    state = game.new_state()
    rng = random.Random(1)
    order = np.empty(len(game.board), dtype=np.int32)
    neighbours, cell_sides, m = game.board.neighbours, game.cell_sides.tolist(), game.options["sides"]
    empty = [0] * len(game.board)
    return {
        "fill": rate(lambda: state.random_playout(rng), seconds),
        "stepwise": rate(
            lambda: k.playout_stepwise(state.stones, game.table, game.cell_sides, game.runs, 1, rng.getrandbits(32), order),
            seconds,
        ),
        "reference": rate(lambda: k.playout_stepwise_reference(empty, neighbours, cell_sides, m, 1, rng), seconds),
        "generic": rate(lambda: State.random_playout(state, rng), seconds),
    }


def main() -> None:
    """Measure every case and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time spent on each measurement")
    args = parser.parse_args()
    table = Table(title="Odd-Y random playouts per second (one core)")
    for name in (
        "board",
        "cells",
        "kernel: fill",
        "kernel: stepwise",
        "Python: stepwise ref",
        "Python: via rules",
        "fill / via rules",
    ):
        table.add_column(name, justify="left" if name == "board" else "right")
    for name, options in CASES:
        rates = measure(options, args.seconds)
        cells = len(ogames.load("oddy", **options).board)
        table.add_row(
            name,
            str(cells),
            f"{rates['fill']:,.0f}",
            f"{rates['stepwise']:,.0f}",
            f"{rates['reference']:,.0f}",
            f"{rates['generic']:,.0f}",
            f"{rates['fill'] / rates['generic']:,.0f}×",
        )
    Console(width=max(Console().width, 120)).print(table)


if __name__ == "__main__":
    main()
