"""A client's rate limit holds across server processes that share one Redis (web/limits.py).

Two `ogames serve` processes on one PostgreSQL and one Redis (as in test_scale_out.py); one client
address sends the API's whole burst, half to each process, then one request more to each: both are
refused, saying when to try again — each process alone has seen only half the burst, so only a
count kept in Redis can refuse them.
"""

from __future__ import annotations

import http.client
import math
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from ogames.web import Settings

from .scaling import needs_services, two_servers

pytestmark = pytest.mark.slow

SETTINGS = Settings()
BURST = int(SETTINGS.api_burst)
WINDOW = math.ceil(SETTINGS.api_burst / SETTINGS.api_rate)  # seconds in which at most BURST pass
SOURCES = [f"127.0.0.{n}" for n in range(41, 46)]  # a fresh client for each try


def get(base: str, path: str, source: str) -> tuple[int, dict[str, str]]:
    """(status, headers) of a GET from a loopback address of our choosing (the client's identity)."""
    connection = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=60, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()


@needs_services
def test_one_clients_api_limit_is_counted_once_across_two_processes(services: tuple[Any, Any], tmp_path: Path) -> None:
    with two_servers(services, tmp_path, "shared_limits") as (_, base_a, base_b):
        path = "/api/games/no-such-game"  # (any API request counts: this one is cheap to answer)
        for source in SOURCES:
            started = time.monotonic()
            with ThreadPoolExecutor(8) as pool:
                bases = [(base_a, base_b)[n % 2] for n in range(BURST)]
                burst = [status for status, _ in pool.map(get, bases, [path] * BURST, [source] * BURST)]
            beyond = [get(base, path, source) for base in (base_a, base_b)]
            if time.monotonic() - started < WINDOW * 0.8:
                break  # all within one window: the count is the burst's (else try again, as a new client)
        else:
            pytest.fail(f"the machine never sent {BURST} requests within {WINDOW * 0.8:g} s")
        assert burst == [404] * BURST  # the whole burst passes, half on each process
        assert [status for status, _ in beyond] == [429, 429]  # each process refuses: the count is shared
        assert all(int(headers["retry-after"]) >= 1 for _, headers in beyond)
        assert get(base_a, path, "127.0.0.49")[0] == 404  # another client has its own count
