"""Games as Ray tasks: the tournament executor for a Ray cluster (or a Ray instance on this machine).

    with connect("auto") as cluster:
        summary = run(t, "out/y5", executor=RayExecutor(in_flight=2 * cluster.cpus))

Each game is one Ray task running `play.run_task` on a picklable `play.Task`, the same function
the local worker processes run, so the records are the same game for game (every game is seeded
by the tournament's seed and its number). The driver (this process) keeps everything else: it
checks and saves each record as its task ends, drives the progress display and rates the
entrants, so a Ray tournament's folder is an ordinary tournament folder that either runner can
resume. At most `in_flight` games are submitted at once (by default twice the cluster's CPUs):
a tournament of a million games does not sit in Ray's queue, and an interruption has little to
cancel.

Where `connect` finds Ray (the `--ray` option):
- `auto`: Ray's own search for `ray.init(address="auto")` — the cluster in `RAY_ADDRESS`, else the
  latest one started on this machine with `ray start`, else any Ray instance running on this
  machine — and if it finds none, a new Ray instance on this machine, stopped again at the end;
- `local`: always a new Ray instance on this machine (with `cpus` CPUs if given), stopped at the end;
- `HOST:PORT` (a head node's address, as `ray start --head` prints it) or `ray://HOST:PORT`
  (Ray Client): that cluster, and an error at once if nothing accepts a connection there.
If this process is already connected to Ray (`ray.init` called before), that connection is used
and left open. Every node must have the same ogames installed (the tasks import it). Ray is an
optional extra (`pip install "ogames[ray]"`); without it `connect` raises RayUnavailable.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ogames.arena.play import Task, run_task
from ogames.arena.tournament import Finished
from ogames.errors import BadOption, OgamesError, shown

# A host (name, IPv4, or IPv6 in brackets) and a port, optionally after ray://.
_ADDRESS = re.compile(r"^(?P<scheme>ray://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$")
# ray.init settings for every connection: Ray's own log lines and the workers' output stay out of
# the terminal, where the progress bar is.
_QUIET: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
REACH_TIMEOUT = 5.0  # seconds to wait for a TCP answer from a named cluster before giving up
LOCAL_OBJECT_STORE = 200 * 2**20  # bytes: records are small, so a local instance needs little shared memory


class RayUnavailable(OgamesError, RuntimeError):
    """Ray is not installed, or no cluster could be reached at the address given."""


@dataclass(frozen=True)
class Cluster:
    """The Ray cluster this process is connected to: how it was named and its CPUs."""

    address: str
    cpus: int
    started_here: bool
    reused: bool = False  # this process was connected already (ray.init called before)

    def describe(self) -> str:
        """A few words for the headline, e.g. `Ray (a local instance, 2 CPUs)`."""
        if self.started_here:
            where = "a local instance"
        elif self.reused:
            where = "connected already"
        else:
            where = "the running cluster" if self.address == "auto" else f"cluster {self.address}"
        return f"Ray ({where}, {self.cpus} CPU{'s' if self.cpus != 1 else ''})"


def import_ray() -> Any:
    """The ray module, or RayUnavailable saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable('--ray needs Ray, an optional extra: pip install "ogames[ray]" (or pip install ray)') from None
    return ray


def parse_address(text: str) -> str:
    """A `--ray` value checked: auto, local, or an address; BadOption for anything else."""
    value = text.strip()
    if value in ("auto", "local"):
        return value
    match = _ADDRESS.match(value)
    if not match or not 0 < int(match["port"]) < 65536:
        raise BadOption(f"--ray {shown(text)}: use auto, local, HOST:PORT or ray://HOST:PORT")
    return value


def check_reachable(address: str, timeout: float = REACH_TIMEOUT) -> None:
    """RayUnavailable unless something accepts a TCP connection at the address (Ray itself would
    retry for a long time before saying so)."""
    match = _ADDRESS.match(address)
    assert match is not None  # parse_address let it through
    host, port = match["host"].strip("[]"), int(match["port"])
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise RayUnavailable(
            f"no Ray cluster answers at {address} ({why}): start one there with `ray start --head`, or use --ray auto"
        ) from None


@contextmanager
def connect(address: str, cpus: int | None = None) -> Iterator[Cluster]:
    """Connected to Ray as the module's docstring says, for the `with` block; a Ray instance
    started here is shut down at its end. `cpus` sizes an instance started here (default: the cores)."""
    target = parse_address(address)
    ray = import_ray()
    started_here = False
    reused = ray.is_initialized()
    if not reused:
        if target not in ("auto", "local"):
            check_reachable(target)
        if target == "auto":
            started_here = not _join(ray, cpus)
        else:
            started_here = target == "local"
            _init(ray, address, target, cpus)
    try:
        cpus_seen = max(1, int(ray.cluster_resources().get("CPU", 1)))
        yield Cluster(address, cpus_seen, started_here, reused)
    finally:
        if started_here:
            ray.shutdown()


@contextmanager
def _native_stderr_silenced() -> Iterator[None]:
    """Ray's C++ core writes its retry warnings (e.g. one a second while a cluster does not answer
    as Ray) straight to file descriptor 2, past Python's logging: park them in a temporary file
    while connecting. A failure still ends in RayUnavailable's one line."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


def _join(ray: Any, cpus: int | None) -> bool:
    """Join a running cluster found by Ray's "auto" search, or start a local instance if there is
    none (Ray raises ConnectionError then); whether a cluster was joined."""
    try:
        with _native_stderr_silenced():
            ray.init(address="auto", **_QUIET)
    except ConnectionError:
        _init(ray, "auto", "local", cpus)
        return False
    except Exception as exc:
        raise _unavailable("auto", exc) from None
    return True


def _init(ray: Any, shown_as: str, target: str, cpus: int | None) -> None:
    settings: dict[str, Any] = dict(_QUIET)
    if target == "local":
        settings.update(num_cpus=cpus, object_store_memory=LOCAL_OBJECT_STORE, include_dashboard=False)
    try:
        with _native_stderr_silenced():
            ray.init(address=target, **settings)
    except Exception as exc:  # Ray's own errors are many kinds; each becomes one line
        raise _unavailable(shown_as, exc) from None


def _unavailable(address: str, exc: Exception) -> RayUnavailable:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    said = "" if address in first else f" ({first})"
    return RayUnavailable(f"could not connect to a Ray cluster at {address}{said}: is `ray start --head` running there?")


class RayExecutor:
    """A tournament `Executor` (see `tournament.py`) that plays each game as one Ray task."""

    def __init__(self, in_flight: int):
        if in_flight < 1:
            raise BadOption(f"--workers must be at least 1, not {in_flight}")
        self.in_flight = in_flight

    def __call__(self, tasks: list[Task], finished: Finished, started: Callable[[], None]) -> None:
        ray = import_ray()
        remote = ray.remote(num_cpus=1)(run_task)
        waiting = iter(tasks)
        pending: dict[Any, int] = {}  # object ref → game number

        def submit() -> None:
            for task in islice(waiting, self.in_flight - len(pending)):
                pending[remote.remote(task)] = task.number

        try:
            submit()
            started()
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    number = pending.pop(ref)
                    finished(*_result(ray, ref, number))
                submit()
        except BaseException:
            # Interrupted (Ctrl-C) or failed: stop the games under way. The saved games stay;
            # a resumed run (with Ray or without) plays the rest.
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # already finished or its worker gone: nothing to stop
                    pass
            raise


def _result(ray: Any, ref: Any, number: int) -> tuple[int, dict[str, Any] | None, str | None]:
    """The task's (number, record, error); a task Ray could not run (its worker died, its node
    was lost) becomes a failed game that a resumed run plays again."""
    try:
        result = ray.get(ref)
    except ray.exceptions.RayError as exc:
        text = str(exc).strip().splitlines()
        return number, None, f"Ray could not run the game: {type(exc).__name__}" + (f": {text[0]}" if text else "")
    return tuple(result)
