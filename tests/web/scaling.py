"""What the tests of several server processes share: whether Debian's PostgreSQL and Redis and the
scale extra's drivers are there (`needs_services`), the `services` fixture (conftest.py) that
starts one throwaway PostgreSQL and one Redis per test module (tools/local_services.py), and
`two_servers`, two server processes on a new database of them."""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import local_services  # tools/, on pytest's pythonpath
import pytest

from .serving import start_server, stop_server

WHY_NOT = local_services.missing() or (
    "the scale extra's drivers are not installed (pip install 'ogames[scale]')"
    if importlib.util.find_spec("psycopg") is None or importlib.util.find_spec("redis") is None
    else None
)
needs_services = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")



@contextlib.contextmanager
def two_servers(services: tuple[Any, Any], folder: Path, database: str) -> Iterator[tuple[str, str, str]]:
    """Two `ogames serve` processes on one new PostgreSQL database and the Redis of `services`:
    (database URL, address of A, address of B). Both are stopped on the way out, and then neither's
    log (a.log, b.log in `folder`) may hold a traceback."""
    pg, redis = services
    url = pg.new_database(database)
    a, base_a = start_server(url, folder / "a.log", redis=redis.url)
    try:
        b, base_b = start_server(url, folder / "b.log", redis=redis.url)
        try:
            yield url, base_a, base_b
        finally:
            stop_server(b)
    finally:
        stop_server(a)
    for log in ("a.log", "b.log"):
        assert "Traceback" not in (folder / log).read_text()


__all__ = ["WHY_NOT", "local_services", "needs_services", "two_servers"]
