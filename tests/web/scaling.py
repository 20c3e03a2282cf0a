"""What the tests of several server processes share: whether Debian's PostgreSQL and Redis and the
scale extra's drivers are there (`needs_services`), and the `services` fixture (conftest.py) that
starts one throwaway PostgreSQL and one Redis per test module (tools/local_services.py)."""

from __future__ import annotations

import importlib.util

import local_services  # tools/, on pytest's pythonpath
import pytest

WHY_NOT = local_services.missing() or (
    "the scale extra's drivers are not installed (pip install 'ogames[scale]')"
    if importlib.util.find_spec("psycopg") is None or importlib.util.find_spec("redis") is None
    else None
)
needs_services = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")

__all__ = ["WHY_NOT", "local_services", "needs_services"]
