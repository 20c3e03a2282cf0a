"""Child processes that end with everything they started: each runs in a process group of its own
(`start_new_session=True`), and ending it signals the whole group, so a server's workers, a
database's helpers or a browser's renderers never outlive it (tests, benchmarks, tools).

    process = spawn(["ogames", "serve", ...], stdout=log)
    end(process)                  # SIGTERM to it, then SIGKILL to what is left of its group
    end(process, kill=True)       # SIGKILL to it alone, as a crash would; then to what is left
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Any


def spawn(command: Sequence[str], **popen: Any) -> subprocess.Popen:
    """Start a command as the leader of a new process group (and session)."""
    return subprocess.Popen(list(command), start_new_session=True, **popen)


def signal_group(process: subprocess.Popen, sig: int) -> None:
    """Send a signal to the process's group (nothing if the group is gone)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def group_alive(pgid: int) -> bool:
    """Whether any process is left in a process group (zombies waiting to be reaped count)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def end(process: subprocess.Popen, *, kill: bool = False, first: int = signal.SIGTERM, grace: float = 15.0) -> None:
    """End a process started by `spawn` and everything in its group.

    Politely: `first` (SIGTERM) to the process, which ends what it started in its own way (a
    server lets its workers finish), and SIGKILL to the whole group if it has not ended within
    `grace` seconds. With `kill`: SIGKILL to the process alone, as a crash would. Either way,
    whatever is left in its group afterwards (orphans of a crash, a helper that outlived it) is
    killed, and the process is reaped, so `returncode` says how it ended."""
    if process.poll() is None:
        if kill:
            process.kill()
        else:
            process.send_signal(first)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            signal_group(process, signal.SIGKILL)
            process.wait()
    if group_alive(process.pid):
        signal_group(process, signal.SIGKILL)
        deadline = time.monotonic() + grace
        while group_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)  # until the orphans are reaped (by init): a poll, not a pause


__all__ = ["end", "group_alive", "signal_group", "spawn"]
