"""A pytest plugin (loaded by the root conftest.py): no test leaves a process running.

Tests start servers, workers, databases and browsers; each ends them with their children, also
when it fails or times out (tools/process_groups.py, fixtures' finalizers). When the session's
tests are done, every process the pytest process started (and theirs) must have ended: any that
is still running is named, ended, and fails the run. Under pytest-xdist each worker checks its own.

Processes that live as long as their parent by design are allowed: multiprocessing's resource
tracker (it ends when its parent does). Without psutil (the test extra) nothing is checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

try:
    import psutil
except ImportError:  # pragma: no cover - psutil comes with the test extra
    psutil = None

# Command-line fragments of the children a process keeps for its lifetime by design.
ALLOWED = ("multiprocessing.resource_tracker",)
GRACE = 10.0  # seconds for processes that are ending right now (a server told to stop) to finish


def running_children() -> list[Any]:
    """The processes this one started (and theirs) that are still running, but the allowed ones."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                continue  # ended, only not yet reaped
            command = " ".join(child.cmdline())
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if not any(allowed in command for allowed in ALLOWED):
            found.append(child)
    return found


def describe(process: Any) -> str:
    try:
        return f"{process.pid} {' '.join(process.cmdline())[:160]}"
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return f"{process.pid} (ended meanwhile)"


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """After the session's last test (and every other fixture's end): fail if a process is left."""
    yield
    if psutil is None:
        return
    left = running_children()
    if left:
        _, left = psutil.wait_procs(left, timeout=GRACE)
        left = [p for p in left if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    if not left:
        return
    named = [describe(p) for p in left]
    for process in left:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(left, timeout=GRACE)
    pytest.fail(
        f"the tests left {len(named)} process(es) running (killed now): " + "; ".join(named),
        pytrace=False,
    )
