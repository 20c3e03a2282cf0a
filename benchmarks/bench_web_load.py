"""Load on the web server: many people playing at once over WebSockets, on loopback.

Starts `ogames serve` as its own process on a fresh SQLite file (or uses --server URL), creates
GAMES two-person games through the JSON API, and connects one WebSocket client per seat (two per
game). Each client, when its seat is to move, waits a human-like pause, sends a legal move from
the view and times the round trip: from sending the move to receiving the view that contains it.
Clients speak as the game page does: they ask for deltas (`?deltas=1`) and keep their view by
applying them (a server that sends whole views is read as well).
Every client stops after MOVES moves of its game, or at the game's end, or at --time-limit.

At the end every game is read back from the server and its accepted moves are compared with the
moves the clients saw acknowledged: a move acknowledged but not stored counts as lost.

The stack's floor (`--floor`): the same run also serves the same load from
`benchmarks/floor_server.py` — ogames's framework, protocol and storage with no rules and no
drawing — one server after the other on fresh SQLite files, and reports both side by side with
ogames's share of the floor's moves per second. Every client counts the bytes of the messages it
receives: `bytes_per_move_message` is the mean size of the messages that bring a page a new
version (the message every page of a game receives after each move).

Several server processes (docs/web.md, "Scale-out"): `--workers N` starts N `ogames serve`
processes on different ports, sharing a throwaway PostgreSQL and Redis (Debian's, started by
tools/local_services.py; `--postgres` does the same for one worker), or `--server` takes several
addresses separated by commas. Games are created round-robin on the servers and the two seats of a
game sit on different ones, so every move crosses from one process to the other through Redis.

    python benchmarks/bench_web_load.py                      # 150 games, 300 players
    python benchmarks/bench_web_load.py --games 20 --moves 10 --json
    python benchmarks/bench_web_load.py --games 60 --workers 2   # two processes, PostgreSQL, Redis
    python benchmarks/bench_web_load.py --think 0 --floor --json  # as fast as the clients can, beside the floor
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from rich.console import Console
from rich.table import Table


@dataclass
class Tally:
    """What every client measured, gathered in one place (the clients share one event loop)."""

    latencies: list[float] = field(default_factory=list)
    # From a move's sending to the opponent's screen (on another server when there are several).
    seen: list[float] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)  # (game id, version after the move) -> sent at
    refused: list[str] = field(default_factory=list)
    acknowledged: dict[str, int] = field(default_factory=dict)  # game id -> highest version seen acknowledged
    dropped: int = 0
    move_messages: int = 0  # messages that brought a page a new version
    move_bytes: int = 0
    other_bytes: int = 0  # every other message (the first state, refusals, pongs)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


FLOOR = Path(__file__).with_name("floor_server.py")


def start_server(database: str, log: Path, redis: str | None = None, floor: bool = False) -> tuple[subprocess.Popen, str]:
    port = free_port()
    if floor:
        command = [sys.executable, str(FLOOR), "--port", str(port), "--database", database]
    else:
        command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(port), "--database", database]
    command += ["--redis", redis] if redis else []
    with log.open("w") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server stopped: " + log.read_text()[-2000:])
        try:
            with urllib.request.urlopen(base + "/", timeout=2):
                return process, base
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not answer within 90 s")


def start_services(stack: contextlib.ExitStack) -> tuple[str, str]:
    """A throwaway PostgreSQL and Redis (tools/local_services.py): (database URL, Redis URL)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import local_services

    why = local_services.missing()
    if why:
        raise SystemExit(f"cannot start several workers: {why}")
    pg = stack.enter_context(local_services.postgres())
    redis = stack.enter_context(local_services.redis_server())
    return pg.new_database("load"), redis.url


def call(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON request. All the benchmark's requests come from one address, which the server's
    per-client rate limit counts as one busy client: on 429 it waits and asks again."""
    data = None if body is None else json.dumps(body).encode()
    for _ in range(100):
        request = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            if error.code != 429:
                raise SystemExit(f"{path}: {error.code} {error.read()[:200]!r}") from None
            time.sleep(0.25)
    raise SystemExit(f"{path}: still rate-limited after 100 tries")


async def player(
    base: str, game_id: str, seat: int, token: str, moves: int, think: float, deadline: float, tally: Tally, rng: random.Random
) -> None:
    """One person at one seat: move when it is this seat's turn, time each move's round trip."""
    address = base.replace("http://", "ws://") + f"/ws/g/{game_id}?deltas=1"  # as the game page asks
    async with websockets.connect(address, max_size=2**20, open_timeout=60) as socket_:
        sent_at: float | None = None
        sent_version = -1
        message: dict[str, Any] = {}  # the page's view of the game, kept up to date by every message
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(socket_.recv(), timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            incoming = json.loads(raw)
            size = len(raw if isinstance(raw, bytes) else raw.encode())
            if incoming.get("type") == "error":
                tally.refused.append(str(incoming.get("message"))[:80])
                tally.other_bytes += size
                sent_at = None
                continue
            if incoming.get("type") not in ("state", "delta"):
                tally.other_bytes += size
                continue
            if message and int(incoming["version"]) > int(message["version"]):
                tally.move_messages += 1
                tally.move_bytes += size
            else:
                tally.other_bytes += size
            if incoming["type"] == "delta":
                if incoming.get("base") != message.get("seq"):  # never: the server sends a full state instead
                    tally.refused.append("a delta on another base than the view held")
                    return
                message = applied(message, incoming)
            else:
                message = incoming
            version = int(message["version"])
            if message["mover"] == seat and (game_id, version) in tally.sent:
                tally.seen.append(time.perf_counter() - tally.sent.pop((game_id, version)))
            if sent_at is not None and version > sent_version:
                tally.latencies.append(time.perf_counter() - sent_at)
                if os.environ.get("LOAD_DEBUG") and tally.latencies[-1] > 0.5:
                    print(game_id, seat, sent_version, version, round(tally.latencies[-1], 2), round(time.monotonic() % 1000, 2))
                tally.acknowledged[game_id] = max(tally.acknowledged.get(game_id, 0), version)
                sent_at = None
            if message["over"] or version >= moves:
                return
            if message["mover"] != seat or sent_at is not None or not message["legal"]:
                continue
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            move = rng.choice(message["legal"])
            sent_version = version
            sent_at = time.perf_counter()
            tally.sent[(game_id, version + 1)] = sent_at
            await socket_.send(json.dumps({"type": "move", "move": move, "token": token, "version": version}))
        tally.dropped += sent_at is not None


def applied(view: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """A view with a delta applied (the page's `applyDelta`, as `ogames.web` describes it)."""
    from ogames.web.core.delta import apply_delta

    return apply_delta(view, delta)


async def run(
    bases: list[str], games: int, moves: int, think: float, time_limit: float, game: str, options: dict[str, Any], seed: int
) -> dict[str, Any]:
    """Play the games with the players spread over the servers (a game's seats on different ones)."""
    created = [call(bases[index % len(bases)], "/api/games", {"game": game, "options": options}) for index in range(games)]
    tally = Tally()
    rng = random.Random(seed)
    deadline = time.monotonic() + time_limit
    started = time.perf_counter()
    clients = []
    for index, body in enumerate(created):
        for seat, token in body["tokens"].items():
            server = bases[(index + int(seat)) % len(bases)]  # the seats of a game on different servers
            own = random.Random(rng.random())
            clients.append(player(server, body["id"], int(seat), token, moves, think, deadline, tally, own))
    base = bases[0]
    outcomes = await asyncio.gather(*clients, return_exceptions=True)
    elapsed = time.perf_counter() - started
    failures = [repr(outcome)[:120] for outcome in outcomes if isinstance(outcome, BaseException)]
    lost = 0
    for body in created:
        stored = call(base, f"/api/games/{body['id']}")
        lost += max(0, tally.acknowledged.get(body["id"], 0) - int(stored["version"]))
    latencies, seen = sorted(tally.latencies), sorted(tally.seen)

    def quantile(q: float, values: list[float] = latencies) -> float:
        return 1000 * values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")

    return {
        "servers": len(bases),
        "games": games,
        "players": len(clients),
        "moves": len(latencies),
        "seconds": round(elapsed, 1),
        "moves_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(quantile(0.50), 2),
        "p90_ms": round(quantile(0.90), 2),
        "p99_ms": round(quantile(0.99), 2),
        "opponent_p50_ms": round(quantile(0.50, seen), 2),
        "opponent_p99_ms": round(quantile(0.99, seen), 2),
        "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
        "mean_ms": round(1000 * statistics.fmean(latencies), 2) if latencies else None,
        "refused": len(tally.refused),
        "refusals": sorted(set(tally.refused))[:5],
        "unanswered": tally.dropped,
        "client_failures": failures[:5],
        "lost_moves": lost,
        "move_messages": tally.move_messages,
        "bytes_per_move_message": round(tally.move_bytes / tally.move_messages) if tally.move_messages else None,
        "other_bytes": tally.other_bytes,
    }


def load(args: argparse.Namespace, options: dict[str, Any], folder: Path, floor: bool = False) -> dict[str, Any]:
    """Start the servers (ogames's, or the floor), play the load on them, stop them: the figures."""
    processes: list[subprocess.Popen] = []
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as services:
        bases = [address.strip() for address in args.server.split(",")] if args.server and not floor else []
        store = "given servers"
        name = "floor" if floor else "ogames"
        if not bases and (args.workers > 1 or args.postgres) and not floor:
            database, redis = start_services(services)
            store = "postgresql + redis"
            for index in range(args.workers):
                process, base = start_server(database, folder / f"server{index}.log", redis)
                processes.append(process)
                bases.append(base)
        elif not bases:
            store = "sqlite"
            process, base = start_server(f"sqlite:///{folder / f'{name}.sqlite3'}", folder / f"{name}.log", floor=floor)
            processes.append(process)
            bases.append(base)
        try:
            figures = asyncio.run(run(bases, args.games, args.moves, args.think, args.time_limit, args.game, options, args.seed))
        finally:
            for process in processes:
                process.terminate()
                process.wait(15)
    figures["server"] = name
    figures["store"] = store
    figures["cores"] = os.cpu_count()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--moves", type=int, default=30, help="stop each game after this many moves")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause before a move, seconds")
    parser.add_argument("--time-limit", type=float, default=180.0, help="stop every client after this, seconds")
    parser.add_argument("--game", default="omny")
    parser.add_argument("--options", default='{"variant": "y", "size": 9}', help="the game's options as JSON")
    parser.add_argument("--server", help="running servers' addresses, separated by commas (default: start them)")
    parser.add_argument("--workers", type=int, default=1, help="server processes to start (more than 1: on PostgreSQL and Redis)")
    parser.add_argument("--postgres", action="store_true", help="start one worker on PostgreSQL and Redis too (not SQLite)")
    parser.add_argument("--floor", action="store_true", help="also serve the same load from the stack's floor (floor_server.py)")
    parser.add_argument("--rounds", type=int, default=1, help="with --floor: floor and ogames this many times each, alternating")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.games <= 2000 or not 1 <= args.moves <= 1000:
        parser.error("--games must be 1..2000 and --moves 1..1000")
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        parser.error(f"--options is not JSON: {exc}")
    if not 1 <= args.workers <= 16 or not 1 <= args.rounds <= 10:
        parser.error("--workers must be 1..16 and --rounds 1..10")
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds if args.floor else 1):
            if args.floor:
                runs.append(load(args, options, Path(folder) / f"floor{round_}", floor=True) | {"round": round_})
            runs.append(load(args, options, Path(folder) / f"ogames{round_}") | {"round": round_})
    if args.floor:
        best = {name: max((r["moves_per_second"] for r in runs if r["server"] == name), default=0.0)
                for name in ("floor", "ogames")}
        share = round(best["ogames"] / best["floor"], 3) if best["floor"] else None
        summary = {"of_floor": share, "floor_moves_per_second": best["floor"], "ogames_moves_per_second": best["ogames"]}
    else:
        summary = {}
    if args.json:
        print(json.dumps(runs[0] if len(runs) == 1 else {"runs": runs, **summary}))
        return
    figures = runs[0]
    title = (
        f"web load: {figures['players']} WebSocket players in {figures['games']} games ({args.game} {args.options}), "
        f"think {args.think:g} s, {figures['servers']} server process(es), {figures['store']}"
    )
    table = Table(title=title)
    table.add_column("")
    for figures in runs:
        table.add_column(f"{figures['server']} #{figures['round'] + 1}" if args.floor else figures["server"])
    shown = ("moves", "seconds", "moves_per_second", "p50_ms", "p90_ms", "p99_ms", "max_ms", "opponent_p50_ms", "opponent_p99_ms")
    shown += ("refused", "unanswered", "lost_moves", "bytes_per_move_message")
    for name in shown:
        table.add_row(name, *(str(figures[name]) for figures in runs))
    Console().print(table)
    if summary:
        Console().print(f"ogames serves {summary['of_floor']} of its stack's floor (best of each: "
                        f"{summary['ogames_moves_per_second']} vs {summary['floor_moves_per_second']} moves/s)")
    for figures in runs:
        if figures["client_failures"] or figures["refusals"]:
            Console().print({figures["server"]: {"client_failures": figures["client_failures"], "refusals": figures["refusals"]}})


if __name__ == "__main__":
    main()
