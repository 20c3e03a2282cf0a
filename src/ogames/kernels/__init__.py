"""Compiled kernels (numba) over the boards' flat arrays, each beside a plain-Python reference
(`reference.py`) that the tests compare it with."""
