"""Omega random playouts per second from the empty board, for 2/3/4 players on sides 5, 8 and 10:
the numba kernel (`OmegaState.random_playout`), the plain-Python reference playout of the kernel
module, and the protocol's generic playout through `play`.

.venv/bin/python benchmarks/bench_omega.py [--seconds 1] [--sizes 5 8 10] [--players 2 3 4]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

import ogames
from ogames.kernels.omega import playout_reference
from ogames.rules.omega import OmegaState
from ogames.rules.protocol import State

Playout = Callable[[OmegaState, random.Random], object]


def kernel_playout(state: OmegaState, rng: random.Random) -> object:
    """The compiled playout the AI players call."""
    return state.random_playout(rng)


def reference_playout(state: OmegaState, rng: random.Random) -> object:
    """The kernel module's plain-Python reference (random fill, then flood-fill scores)."""
    return playout_reference(list(state.stones), state.board.neighbours, state.p, state.stone_index, state.game.end_empty, rng)


def generic_playout(state: OmegaState, rng: random.Random) -> object:
    """The protocol's generic playout: uniform legal moves through `play`, bypassing the kernel."""
    return State.random_playout(state, rng)


def rate(playout: Playout, state: OmegaState, seconds: float) -> float:
    """Playouts per second over about `seconds` (after one warm-up call)."""
    rng = random.Random(1)
    playout(state, rng)  # warm up: numba compiles or loads its cache
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout(state, rng)
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 8, 10])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    table = Table(title="Omega random playouts per second (from the empty board)")
    columns = ("players", "side", "cells", "numba kernel", "plain reference", "generic play()", "÷ reference", "÷ generic")
    for column in columns:
        table.add_column(column, justify="right")
    for players in args.players:
        for size in args.sizes:
            state = ogames.load("omega", players=players, size=size).new_state()
            fast = rate(kernel_playout, state, args.seconds)
            plain = rate(reference_playout, state, args.seconds)
            generic = rate(generic_playout, state, args.seconds)
            table.add_row(
                str(players),
                str(size),
                str(len(state.board)),
                f"{fast:,.0f}",
                f"{plain:,.0f}",
                f"{generic:,.1f}",
                f"{fast / plain:,.0f}×",
                f"{fast / generic:,.0f}×",
            )
    Console().print(table)


if __name__ == "__main__":
    main()
