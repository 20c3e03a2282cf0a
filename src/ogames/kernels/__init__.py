"""Compiled kernels (numba) over the boards' flat arrays, each beside a plain-Python reference
(`reference.py`) that the tests compare it with."""

from collections.abc import Callable
from typing import Any, TypeVar

from numba import njit

F = TypeVar("F", bound=Callable[..., Any])


def leaf(func: F) -> F:
    """`njit(cache=True)` for a kernel that allocates no array and calls only other leaves:
    compiled without numba's reference counting (`_nrt=False`). A compiled function that takes
    arrays otherwise increments and decrements each array's count on every call, 20–35 ns a call
    against 4 ns (`benchmarks/bench_leaf_calls.py`), which is more than a small kernel costs: the
    playouts of Y 9 ran 2–3× slower for it. A leaf that allocates, or calls a kernel that does,
    fails to compile, so a mistake cannot pass unnoticed (`tests/test_kernel_leaf.py` checks that
    numba still honours the option)."""
    options: dict[str, Any] = {"cache": True, "_nrt": False}  # `_nrt` is not in numba's type hints
    return njit(**options)(func)
