"""Onyx random playouts per second: the numba kernel against the plain-Python game.

.venv/bin/python benchmarks/bench_onyx.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

import ogames
from ogames.rules.onyx import OnyxState
from ogames.rules.protocol import State


def python_playout(state: OnyxState, rng: random.Random) -> list[float]:
    """The protocol's generic playout (uniform legal moves through `play`), bypassing the kernel."""
    return State.random_playout(state, rng)


def rate(playout: Callable[[OnyxState, random.Random], list[float]], state: OnyxState, seconds: float) -> tuple[int, float]:
    """Playouts completed in about `seconds`, and their rate per second."""
    rng = random.Random(1)
    playout(state, rng)  # warm up (numba compiles or loads its cache)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout(state, rng)
        count += 1
    return count, count / (time.perf_counter() - start)


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    table = Table(title="Onyx random playouts (from the set-up position)")
    for column in ("implementation", "playouts", "per second", "speed-up"):
        table.add_column(column, justify="right" if column != "implementation" else "left")
    state = ogames.load("onyx").new_state()
    python_count, python_rate = rate(python_playout, state, args.seconds)
    kernel_count, kernel_rate = rate(OnyxState.random_playout, state, args.seconds)
    table.add_row("plain Python (State.random_playout)", str(python_count), f"{python_rate:,.1f}", "1×")
    speed_up = f"{kernel_rate / python_rate:,.0f}×"
    table.add_row("numba kernel (OnyxState.random_playout)", str(kernel_count), f"{kernel_rate:,.0f}", speed_up)
    Console().print(table)


if __name__ == "__main__":
    main()
