"""What one call of a small compiled kernel costs, with and without numba's reference counting.

    .venv/bin/python benchmarks/bench_leaf_calls.py

The kernel is the bridge answer of the playouts (a few array reads), called once per cell of a
45-cell board in a compiled loop: as plain `njit`, as `njit(inline="always")` and as
`ogames.kernels.leaf` (no reference counting). Prints ns per call (docs/architecture.md,
"Compiled kernels and their cache", quotes it).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit
from rich.console import Console
from rich.table import Table

from ogames.kernels import leaf
from ogames.kernels.stones import bridge_answer as _bridge_answer

# The playouts' own kernel, as plain Python, compiled below in each of the three ways.
bridge_answer = _bridge_answer.py_func


def calling(kernel):  # type: ignore[no-untyped-def]
    @njit
    def loop(reps: int, stones: np.ndarray, bridges: np.ndarray) -> int:
        total = 0
        for r in range(reps):
            for last in range(stones.shape[0]):
                total += kernel(stones, bridges, last, 1 + (r & 1))
        return total

    return loop


def main() -> None:
    cells, reps = 45, 200_000
    rng = np.random.default_rng(1)
    stones = rng.integers(0, 3, cells).astype(np.int8)
    bridges = rng.integers(-1, cells, (cells, 6, 3)).astype(np.int32)
    table = Table(title="one call of a small kernel from a compiled loop (best of 3)")
    table.add_column("compiled as")
    table.add_column("ns per call", justify="right")
    for name, kernel in (
        ("njit", njit(bridge_answer)),
        ('njit(inline="always")', njit(inline="always")(bridge_answer)),
        ("leaf (no reference counting)", leaf(bridge_answer)),
    ):
        loop = calling(kernel)
        loop(10, stones, bridges)
        best = min(_timed(loop, reps, stones, bridges) for _ in range(3))
        table.add_row(name, f"{best / (reps * cells) * 1e9:.1f}")
    Console().print(table)


def _timed(loop, reps: int, stones: np.ndarray, bridges: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    loop(reps, stones, bridges)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
