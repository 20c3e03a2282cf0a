"""Starvation: do the computer's moves and Omiga's bots wait behind visitors' analyses, and does a
game's socket wait behind other clients' large boards? (issue 19, "Nobody can starve the others".)

Starts `ogames serve` as its own process on a fresh SQLite file and measures, side by side in one
run, each thing twice — quiet, and under load:

- **computer replies**: games against the computer at a few levels (Omny, hexagon 9); each reply's
  time from sending the person's move to the view with the computer's move. The load: anonymous
  clients (each at its own loopback address) asking for the longest analysis
  (`max_analysis_seconds`) flat out, taking a refusal's Retry-After (at most a second) as their
  only pause. The issue asks a reply within its level's budget + 0.5 s: its budget is what the
  level takes alone, so the figure to read is a loaded reply against the quiet one + 0.5 s.
- **an Omiga bot's first card**: a real-time table of a person and a bot; the game time of the
  bot's first accepted card after the signal, against the bot's reaction time (its decision is
  made in the move workers; it is late by what it waited for them). Same load.
- **pings**: a game's WebSocket pings' round trips, quiet and while four clients create 25-sided
  polar boards (10,876 cells) through the API.

    python benchmarks/bench_starvation.py                     # levels 1, 4, 7; 5 replies each
    python benchmarks/bench_starvation.py --levels 1,7 --moves 3 --analysts 4 --out benchmarks/results/starvation.md

`PYTHONPATH=OTHER/src python benchmarks/bench_starvation.py` measures another checkout's server (the
one before this benchmark, say) with the same clients.

Timings on a shared machine are noisy: run it with `nice -n 10`, and read the two columns of one
run against each other rather than against another run's.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
from websockets.sync.client import ClientConnection, connect

import ogames
from ogames.players import player
from ogames.players.levels import OMIGA_LEVELS
from ogames.web.core.settings import Settings

SETTINGS = Settings()


# ----- the server and its clients ------------------------------------------------------------------


class Server:
    def __init__(self, folder: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = folder / "server.log"
        command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(self.port),
                   "--database", f"sqlite:///{folder / 'g.sqlite3'}"]
        with self.log.open("w") as output:
            self.process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while True:
            try:
                if self.request("GET", "/")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start: " + self.log.read_text())
            time.sleep(0.2)

    def request(self, method: str, path: str, body: Any = None, source: str = "127.0.0.1",
                timeout: float = 120) -> tuple[int, dict[str, str], Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0))
        try:
            data = None if body is None else json.dumps(body).encode()
            connection.request(method, path, body=data, headers={"content-type": "application/json"} if data else {})
            response = connection.getresponse()
            text = response.read().decode()
            headers = {name.lower(): value for name, value in response.getheaders()}
            try:
                return response.status, headers, json.loads(text)
            except json.JSONDecodeError:
                return response.status, headers, text
        finally:
            connection.close()

    def post(self, path: str, body: Any, source: str = "127.0.0.1") -> Any:
        for _ in range(100):
            status, _, answer = self.request("POST", path, body, source)
            if status != 429:
                assert status < 300, (path, status, answer)
                return answer
            time.sleep(0.2)
        raise SystemExit(f"{path}: refused for speed again and again")

    def socket(self, path: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}{path}", open_timeout=60, max_size=2**25)

    def workers(self) -> list[psutil.Process]:
        """The server's spawned worker processes (moves and analyses)."""
        found = []
        for child in psutil.Process(self.process.pid).children(recursive=True):
            try:
                if "spawn_main" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.NoSuchProcess:
                pass
        return found

    def stop(self) -> None:
        family = psutil.Process(self.process.pid).children(recursive=True)
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        for child in family:
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass


def receive_until(ws: ClientConnection, accept: Callable[[dict[str, Any]], bool], timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
        if accept(message):
            return message


# ----- the load --------------------------------------------------------------------------------------


def finished_record() -> dict[str, Any]:
    rng = random.Random(3)
    state = ogames.load("omny", variant="y", size=9).new_state()
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return state.record()


@contextmanager
def analyses_flat_out(server: Server, clients: int) -> Iterator[dict[str, int]]:
    """Anonymous clients asking for the longest analyses without pause; what they were answered."""
    record = finished_record()
    stop = threading.Event()
    answered: dict[str, int] = {}

    def client(source: str) -> None:
        while not stop.is_set():
            body = {"record": record, "ply": 5, "seconds": SETTINGS.max_analysis_seconds}
            status, headers, answer = server.request("POST", "/api/analysis", body, source)
            key = str(status) if status == 200 else f"{status} {answer.get('code') if isinstance(answer, dict) else ''}"
            answered[key] = answered.get(key, 0) + 1
            if status != 200:
                stop.wait(min(1.0, float(headers.get("retry-after", 1))))

    threads = [threading.Thread(target=client, args=(f"127.0.0.{10 + n}",), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    busy_since = time.monotonic()
    while not any(_searching(worker) for worker in server.workers()):  # the load is on (nothing else searches now)
        if time.monotonic() - busy_since > 120:
            raise SystemExit("no analysis worker started searching")
    try:
        yield answered
    finally:
        stop.set()
        for thread in threads:
            thread.join(2 * SETTINGS.max_analysis_seconds)


def _searching(worker: psutil.Process) -> bool:
    try:
        return worker.cpu_percent(interval=0.5) > 30
    except psutil.NoSuchProcess:
        return False


@contextmanager
def large_boards_created(server: Server, clients: int = 4) -> Iterator[list[float]]:
    stop = threading.Event()
    took: list[float] = []

    def client(source: str) -> None:
        while not stop.is_set():
            started = time.monotonic()
            server.post("/api/games", {"game": "oddy", "options": {"sides": 25, "size": 30}}, source)
            took.append(time.monotonic() - started)

    threads = [threading.Thread(target=client, args=(f"127.0.0.{30 + n}",), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    try:
        yield took
    finally:
        stop.set()
        for thread in threads:
            thread.join(300)


# ----- the measurements ----------------------------------------------------------------------------


def computer_replies(server: Server, level: int, moves: int) -> list[float]:
    """Seconds from a person's move to the computer's reply on the page, `moves` times."""
    body = {"game": "omny", "options": {"variant": "y", "size": 9}, "seats": ["here", f"computer:{level}"]}
    made = server.post("/api/games", body)
    replies = []
    with server.socket(f"/ws/g/{made['id']}") as ws:
        view = receive_until(ws, lambda m: m["type"] == "state")
        rng = random.Random(level)
        while len(replies) < moves and not view["over"]:
            asked = time.monotonic()
            answer = server.post(f"/api/games/{made['id']}/moves",
                                 {"move": rng.choice(view["legal"]), "token": made["tokens"]["0"], "version": view["version"]})
            if answer["over"]:
                break
            view = receive_until(ws, lambda m, v=answer["version"]: m["type"] == "state" and m["version"] == v + 1)
            replies.append(time.monotonic() - asked)
    return replies


def bot_first_card(server: Server, level: int) -> float:
    """The game time of an Omiga bot's first accepted card (seconds after the signal)."""
    body = {"options": {"width": 7, "height": 5}, "seats": [{"kind": "here"}, {"kind": "bot", "level": level}]}
    made = server.post("/api/omiga", body)
    with server.socket(f"/ws/o/{made['id']}") as ws:
        ws.send(json.dumps({"type": "ready", "tokens": [made["tokens"]["0"]]}))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            view = receive_until(ws, lambda m: m["type"] == "state")
            cards = [move for move in view["moves"] if move["by"] != view["seats"][0]["actor"]]
            if cards:
                return float(cards[0]["t"])
    raise SystemExit("the bot played no card")


def pings(server: Server, game_id: str, count: int) -> list[float]:
    delays = []
    with server.socket(f"/ws/g/{game_id}") as ws:
        receive_until(ws, lambda m: m["type"] == "state")
        for _ in range(count):
            asked = time.monotonic()
            ws.send('{"type": "ping"}')
            receive_until(ws, lambda m: m["type"] != "state")
            delays.append(time.monotonic() - asked)
            time.sleep(0.15)  # within the socket's rate
    return delays


# ----- the report ----------------------------------------------------------------------------------


def figures(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,4,7", help="computer levels to play against (default 1,4,7)")
    parser.add_argument("--moves", type=int, default=5, help="computer replies timed per level and phase")
    parser.add_argument("--analysts", type=int, default=4, help="clients asking for analyses flat out")
    parser.add_argument("--bot-level", type=int, default=10, help="the Omiga bot's level (10: 0.05 s reactions)")
    parser.add_argument("--out", type=Path, help="write the report (markdown) here too")
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",")]
    bot = player(OMIGA_LEVELS[args.bot_level])
    reaction = f"{bot.reaction:g} s ± {bot.jitter:.0%}"  # type: ignore[attr-defined]
    started = time.strftime("%Y-%m-%d %H:%M")
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        try:
            for level in levels:  # the move worker started, every level's kernels loaded
                computer_replies(server, level, 1)
            bot_first_card(server, args.bot_level)
            quiet = {level: computer_replies(server, level, args.moves) for level in levels}
            quiet_bot = bot_first_card(server, args.bot_level)
            with analyses_flat_out(server, args.analysts) as answered:
                loaded = {level: computer_replies(server, level, args.moves) for level in levels}
                loaded_bot = bot_first_card(server, args.bot_level)
            game = server.post("/api/games", {"game": "omny", "options": {"variant": "y", "size": 4}})["id"]
            quiet_pings = pings(server, game, 40)
            with large_boards_created(server) as took:
                busy_pings = pings(server, game, 40)
        finally:
            server.stop()
    lines = [
        f"# Starvation ({started}, `benchmarks/bench_starvation.py --levels {args.levels} --moves {args.moves} "
        f"--analysts {args.analysts} --bot-level {args.bot_level}`)",
        "",
        f"Load: {args.analysts} anonymous clients asking for {SETTINGS.max_analysis_seconds:g} s analyses flat out; "
        f"their answers: {dict(sorted(answered.items()))}.",
        "",
        "| what | quiet: median / max (s) | analyses flat out: median / max (s) | within quiet max + 0.5 s |",
        "|---|---|---|---|",
    ]
    for level in levels:
        within = bool(loaded[level]) and max(loaded[level]) <= max(quiet[level], default=0) + 0.5
        lines.append(f"| computer level {level}, Omny hexagon 9 | {figures(quiet[level])} | {figures(loaded[level])} | "
                     f"{'yes' if within else 'no'} |")
    lines.append(f"| Omiga bot level {args.bot_level} ({reaction}): first card's game time | {quiet_bot:.2f} | "
                 f"{loaded_bot:.2f} | {'yes' if loaded_bot <= quiet_bot + 0.5 else 'no'} |")
    lines += [
        "",
        "| pings of a game's socket | quiet: median / max (s) | 4 clients creating 25-sided polar boards: median / max (s) |",
        "|---|---|---|",
        f"| round trip | {figures(quiet_pings)} | {figures(busy_pings)} (a board created in {figures(took)} s) |",
        "",
        f"Machine: {psutil.cpu_count()} cores, load average {', '.join(f'{x:.1f}' for x in psutil.getloadavg())} "
        "at the end (a shared machine: figures are noisy; compare the columns of one run).",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report)


if __name__ == "__main__":
    main()
