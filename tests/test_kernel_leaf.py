"""`ogames.kernels.leaf`: kernels compiled without numba's reference counting. The option is
numba's own but not in its public documentation, so these tests notice if it stops working: a
leaf that allocates must fail to compile (else refcounting is back, silently), and a leaf must
compute what the same function compiled normally computes."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from ogames.kernels import leaf


def _sum_of_squares(values: np.ndarray) -> float:
    total = 0.0
    for v in values:
        total += v * v
    return total


def _allocates(n: int) -> float:
    return float(np.zeros(n).sum())


def test_a_leaf_computes_as_njit_does() -> None:
    values = np.arange(10, dtype=np.float64)
    assert leaf(_sum_of_squares)(values) == njit(_sum_of_squares)(values) == 285.0


def test_a_leaf_that_allocates_fails_to_compile() -> None:
    with pytest.raises(TypingError):
        leaf(_allocates)(3)


def test_a_leaf_calling_a_kernel_that_allocates_fails_to_compile() -> None:
    inner = njit(_allocates)

    def outer(n: int) -> float:
        return inner(n)

    with pytest.raises(TypingError):
        leaf(outer)(3)
