"""`ogames serve` as a separate process on a free loopback port, for the browser and restart tests.

The server runs in a process group of its own (tools/process_groups.py): stopping it ends what it
started too (the computer's worker processes, multiprocessing's resource tracker)."""

from __future__ import annotations

import datetime
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import process_groups  # tools/, on pytest's pythonpath

# Debian's Chromium, which the browser tests drive (`playwright install` cannot download browsers here).
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# `ogames serve` started by `python -c`, with some of its functions replaced first (each a statement;
# the arguments follow the program). The server's secret seed replaced by a known one:
KNOWN_DEAL = "from ogames.web.omiga import live; live.secret_seed = lambda: {seed}"
# Its clocks reading a simulated time: the real time plus the seconds written in a file (a test runs
# days ahead by writing to it: `simulate`), its sweeper looking for correspondence games out of time
# every tenth of a second (its setting `sweep_seconds`, OGAMES_SWEEP_SECONDS).
SIMULATED_TIME = (
    "import os, pathlib, time; from ogames.web.boards import clock; os.environ['OGAMES_SWEEP_SECONDS'] = '0.1'; "
    "clock.now = lambda: time.time() + float(pathlib.Path({file!r}).read_text() or 0)"
)
# Its pages showing the puzzle of a fixed day rather than today's (web/puzzles/routes.py `today`):
# what a page holds must not change with the day a test runs on.
PINNED_DAY = "import datetime; from ogames.web.puzzles import routes; routes.today = lambda: datetime.date.fromisoformat({day!r})"
SERVE = "from ogames.cli.app import main; main()"
# The day whose puzzle the servers the tests start show. Its puzzle in the shipped set is an Omega
# one, Black to move: the longest words the home page's button can hold in Russian ("Omega: Чёрные:
# ход и выигрыш"; test_browser_phone_pages.py checks that it fits a phone).
TEST_DAY = datetime.date(2026, 11, 7)

# How long a browser test waits for a move of the computer (ms): generous, as the first one on a
# server starts its worker process (imports, compiled kernels), which takes half a minute and more
# on a loaded two-core machine where it takes a few seconds alone.
COMPUTER_WAIT_MS = 300_000


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(
    database: Path | str,
    log: Path,
    timeout: float = 60.0,
    redis: str | None = None,
    port: int | None = None,
    extra: tuple[str, ...] = (),
    deal: int | None = None,
    simulated: Path | None = None,
    day: datetime.date = TEST_DAY,
    knows_address: bool = False,
) -> tuple[subprocess.Popen, str]:
    """Start the server on a SQLite file (or a database URL), in step with others through a Redis
    URL if given; (the process, its base address) once it answers. `deal`: every Omiga table is
    dealt from this seed instead of the server's secret one, for a test that must know the deal
    (a table's creator may not choose its seed). `simulated`: the clocks run that file's seconds
    ahead of the real time (`simulate`). `day`: the day whose puzzle the pages show (not today's, so
    that the pages do not change with the day a test runs on; with `--workers`, each worker imports
    the site afresh and shows today's). `knows_address`: the server is told its own address
    (OGAMES_SITE_URL), as its mails' links need, on whichever port it starts.

    A free port is free only when it is asked for: another process (a test's client connection
    takes its port from the same range) may take it before the server binds it, and the server
    then refuses to start, saying so. On a port of its own choosing this tries another, up to
    `PORT_TRIES` times; a port the test named is tried once."""
    for attempt in range(1 if port else PORT_TRIES):
        try:
            return _start_on(port or free_port(), database, log, timeout, redis, extra, deal, simulated, day, knows_address)
        except _PortTaken as taken:
            if port or attempt == PORT_TRIES - 1:
                raise AssertionError(f"the server stopped: {taken}") from None
    raise AssertionError("unreachable")  # (the loop returns or raises)


PORT_TRIES = 5  # free ports start_server tries when the one it found is taken before the server binds it


class _PortTaken(Exception):
    """The server refused to start: its port was in use."""


def _start_on(port: int, database: Path | str, log: Path, timeout: float, redis: str | None, extra: tuple[str, ...],
              deal: int | None, simulated: Path | None, day: datetime.date,
              knows_address: bool) -> tuple[subprocess.Popen, str]:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    replaced = [PINNED_DAY.format(day=day.isoformat())]
    if deal is not None:
        replaced.append(KNOWN_DEAL.format(seed=int(deal)))
    if simulated is not None:
        if not simulated.exists():
            simulate(simulated, 0.0)
        replaced.append(SIMULATED_TIME.format(file=str(simulated)))
    command = [sys.executable, "-c", "; ".join([*replaced, SERVE]), "serve", "--port", str(port), "--database", url]
    if redis:
        command += ["--redis", redis]
    command += extra
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "OGAMES_SITE_URL": base} if knows_address else None
    output = log.open("a")
    before = output.tell()
    process = process_groups.spawn(command, stdout=output, stderr=subprocess.STDOUT, env=env)
    output.close()
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            said = log.read_bytes()[before:].decode(errors="replace")
            if f"port {port} on 127.0.0.1 is in use" in said:
                raise _PortTaken(said.strip())
            raise AssertionError("the server stopped: " + log.read_text())
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as response:
                # Ours once it has said its address (after finding the port free): a server another
                # test started on the same free port meanwhile would answer too.
                if response.status == 200 and base.encode() in log.read_bytes()[before:]:
                    return process, base
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop_server(process)
            raise AssertionError(f"the server did not answer within {timeout:.0f} s")
        time.sleep(0.2)


def simulate(file: Path, ahead: float) -> None:
    """Make the clocks of the servers started with `simulated=file` run `ahead` seconds ahead of the real time."""
    partial = file.with_suffix(".writing")
    partial.write_text(repr(float(ahead)))
    partial.replace(file)  # at once: a server never reads half a number


def stop_server(process: subprocess.Popen, kill: bool = False) -> None:
    """Stop a server and everything it started: politely (SIGTERM), or at once (SIGKILL to the
    server alone, as a crash would; what it started is ended after)."""
    process_groups.end(process, kill=kill)


def call(base: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """(status, JSON answer) of a GET, or of a POST when there is a body. Tests that advance games
    through the API ask faster than a person: when the server's per-client rate limit says wait
    (429 `rate-limited`), this waits and asks again."""
    data = None if body is None else json.dumps(body).encode()
    for _ in range(100):
        request = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            answer = json.loads(error.read())
            if error.code != 429 or answer.get("code") != "rate-limited":
                return error.code, answer
        time.sleep(0.2)
    return 429, answer


def play_through(base: str, moves: list[str], game: str = "omny", options: dict[str, Any] | None = None) -> str:
    """A two-seat game made on a server through its JSON API (Omny Y 4 unless told) and played
    with these moves, each by the seat to move; its id."""
    status, made = call(base, "/api/games", {"game": game, "options": options or {"variant": "y", "size": 4}})
    assert status == 201, made
    for ply, move in enumerate(moves):
        status, answer = call(base, f"/api/games/{made['id']}/moves",
                              {"move": move, "token": made["tokens"][str(ply % 2)], "version": ply})
        assert status == 200, answer
    return str(made["id"])
