"""A throwaway PostgreSQL and Redis on loopback, started by hand (no systemd), for the multi-worker
test and the load benchmark.

Debian's `postgresql` and `redis-server` packages provide the programs (`.ci/run` installs them);
PostgreSQL refuses to run as root, so when run as root its data folder belongs to the `postgres`
user and `initdb` and `postgres` run as that user. Both run in the foreground as child processes,
each in a process group of its own (tools/process_groups.py), and are stopped with everything they
started (PostgreSQL with a fast shutdown, which ends its sessions); their data lives in a
temporary folder.

    with postgres() as pg, redis_server() as redis:
        pg.new_database("games")   # -> postgresql+psycopg://postgres@127.0.0.1:PORT/games
        redis.url                  # -> redis://127.0.0.1:PORT/0
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import process_groups


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (Debian keeps them out of PATH), or None."""
    found = shutil.which("initdb")
    if found and Path(found).resolve().with_name("postgres").exists():
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(Path(p).parts[-3]))
    return Path(versions[-1]).parent if versions else None


def missing() -> str | None:
    """Why the services cannot be started here (a program is not installed), or None."""
    if postgres_bin() is None:
        return "PostgreSQL's programs are not installed (apt-get install postgresql)"
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no postgres user to run PostgreSQL as"
    return None


def _wait_for_port(port: int, process: subprocess.Popen, what: str, log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} stopped: {log.read_text()[-1500:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on port {port} within {timeout:.0f} s")


def _stop(process: subprocess.Popen, first: int = signal.SIGTERM) -> None:
    process_groups.end(process, first=first, grace=20.0)


def _wait_until_accepting(bin_dir: Path, port: int, process: subprocess.Popen, log: Path, timeout: float = 60.0) -> None:
    """Until PostgreSQL accepts sessions: it listens on its port a while before (a session is then
    refused with "the database system is starting up"), longer on a busy machine."""
    if not (bin_dir / "pg_isready").exists():  # the client programs come with the server's package; if not, the port must do
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"PostgreSQL stopped: {log.read_text()[-1500:]}")
        ready = subprocess.run(
            [str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-q"], check=False
        )
        if ready.returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError(f"PostgreSQL did not accept sessions on port {port} within {timeout:.0f} s")


@dataclass
class Postgres:
    """A running throwaway PostgreSQL: superuser `postgres`, trusted on loopback."""

    port: int
    process: subprocess.Popen

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        """Create an empty database; its SQLAlchemy URL."""
        from sqlalchemy import create_engine, text

        engine = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
                conn.execute(text(f'CREATE DATABASE "{name}"'))
        finally:
            engine.dispose()
        return self.url(name)


@contextlib.contextmanager
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server in a temporary folder (durability off: it is thrown away)."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL's programs are not installed")
    folder = Path(tempfile.mkdtemp(prefix="ogames-pg-"))
    as_user: dict[str, Any] = {}
    if os.geteuid() == 0:  # PostgreSQL never runs as root
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    data, log = folder / "data", folder / "postgres.log"
    try:
        subprocess.run(
            [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"],
            check=True,
            capture_output=True,
            **as_user,
        )
        port = free_port()
        settings = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"]
        command = [str(bin_dir / "postgres"), "-D", str(data), "-p", str(port), "-h", "127.0.0.1", "-k", str(folder)]
        with log.open("w") as output:
            process = process_groups.spawn([*command, *settings], stdout=output, stderr=subprocess.STDOUT, **as_user)
        try:
            _wait_for_port(port, process, "PostgreSQL", log)
            _wait_until_accepting(bin_dir, port, process, log)
            yield Postgres(port, process)
        finally:
            _stop(process, signal.SIGINT)  # a fast shutdown: open sessions are ended, not waited for
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Redis:
    """A running throwaway Redis."""

    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@contextlib.contextmanager
def redis_server() -> Iterator[Redis]:
    """A Redis server on loopback that keeps nothing on disk."""
    folder = Path(tempfile.mkdtemp(prefix="ogames-redis-"))
    log = folder / "redis.log"
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    command += ["--dir", str(folder)]
    try:
        with log.open("w") as output:
            process = process_groups.spawn([*command, "--daemonize", "no"], stdout=output, stderr=subprocess.STDOUT)
        try:
            _wait_for_port(port, process, "Redis", log)
            yield Redis(port, process)
        finally:
            _stop(process)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
