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

Everyone logged in, a full lobby (`--community`, benchmarks/web_community.py): beside the plain
load (and the floor's, with `--floor`), the same load with every player an account signed up
through the site's forms (CSRF token, session cookie), rated games between two accounts, each game
page keeping the header's challenges socket open, and before the players start `--seeks` open
seeks posted by other accounts whose lobby pages stay open, and `--watchers` accounts opening the
lobby again and again. Its own figures: the sign-ups, the seeks, the lobby list's latency and size.

    python benchmarks/bench_web_load.py                      # 150 games, 300 players
    python benchmarks/bench_web_load.py --games 20 --moves 10 --json
    python benchmarks/bench_web_load.py --games 60 --workers 2   # two processes, PostgreSQL, Redis
    python benchmarks/bench_web_load.py --think 0 --floor --json  # as fast as the clients can, beside the floor
    python benchmarks/bench_web_load.py --floor --community  # the floor, plain, and everyone logged in with 500 seeks
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import random
import signal
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

import web_community as community  # (beside this file)
from ogames.web.core.settings import PAGES_ENV, SIGNUPS_ENV, SOCKETS_ENV


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
    lobby: community.LobbyTally = field(default_factory=community.LobbyTally)  # (--community) the lobby's pages


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


FLOOR = Path(__file__).with_name("floor_server.py")
TOOLS = Path(__file__).resolve().parents[1] / "tools"


def tool(name: str) -> Any:
    """A module of tools/ (process_groups, local_services: not a package)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    return importlib.import_module(name)


class Servers(contextlib.AbstractContextManager["Servers"]):
    """The server processes of one load: each in a process group of its own, every one ended (with
    what it started) when the load is done or fails (tools/process_groups.py)."""

    def __init__(self) -> None:
        self.processes: list[subprocess.Popen] = []

    def start(self, database: str, log: Path, redis: str | None = None, floor: bool = False) -> str:
        """Start a server (ogames's or the floor) and wait until it answers: its address."""
        port = free_port()
        if floor:
            command = [sys.executable, str(FLOOR), "--port", str(port), "--database", database]
        else:
            command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(port), "--database", database]
            # Every player of the load connects from this one address: the server's cap on one
            # address's open sockets (web/core/socket_cap.py), its sign-ups an hour (the community
            # load signs its players up: web/accounts/guessing.py) and its pages (web/core/guard.py)
            # are lifted for it.
            os.environ[SOCKETS_ENV] = str(10**6)
            os.environ[SIGNUPS_ENV] = str(10**6)
            os.environ[PAGES_ENV] = str(10**6)
        command += ["--redis", redis] if redis else []
        with log.open("w") as output:
            process = tool("process_groups").spawn(command, stdout=output, stderr=subprocess.STDOUT)
        self.processes.append(process)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit("the server stopped: " + log.read_text()[-2000:])
            try:
                with urllib.request.urlopen(base + "/", timeout=2):
                    return base
            except OSError:
                time.sleep(0.2)
        raise SystemExit("the server did not answer within 90 s")

    def __exit__(self, *_: object) -> None:
        for process in self.processes:
            tool("process_groups").end(process)


def start_services(stack: contextlib.ExitStack) -> tuple[str, str]:
    """A throwaway PostgreSQL and Redis (tools/local_services.py): (database URL, Redis URL)."""
    local_services = tool("local_services")
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
    base: str, game_id: str, seat: int, token: str, moves: int, think: float, deadline: float, tally: Tally, rng: random.Random,
    account: community.Seat | None = None,
) -> None:
    """One person at one seat: move when it is this seat's turn, time each move's round trip. A
    logged-in player's page (`account`) sends its cookie, says which seat it holds (`here`, as the
    game page does) and keeps the header's challenges socket open."""
    if account is None:
        await play_seat(base, game_id, seat, token, moves, think, deadline, tally, rng)
        return
    async with community.challenges_page(account, tally.lobby):
        await play_seat(base, game_id, seat, token, moves, think, deadline, tally, rng, account.browser.headers)


async def play_seat(
    base: str, game_id: str, seat: int, token: str, moves: int, think: float, deadline: float, tally: Tally, rng: random.Random,
    headers: dict[str, str] | None = None,
) -> None:
    """The game page's socket: the moves of one seat, timed."""
    address = base.replace("http://", "ws://") + f"/ws/g/{game_id}?deltas=1"  # as the game page asks
    async with websockets.connect(address, max_size=2**20, open_timeout=60, additional_headers=headers) as socket_:
        if headers is not None:
            await socket_.send(json.dumps({"type": "here", "tokens": [token]}))
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
                if SLOW_MOVE is not None and tally.latencies[-1] > SLOW_MOVE:
                    # a slow move and when it was answered (to set beside the server's log)
                    slow = round(tally.latencies[-1], 3)
                    print(game_id, seat, sent_version, version, slow, f"{time.time():.3f}", file=sys.stderr)
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


@dataclass
class Community:
    """What `--community` adds: every player an account, the lobby's seeks and watchers."""

    seeks: int = 500
    watchers: int = 5
    revisit: float = 10.0  # a watcher opens the lobby again after about this many seconds (0: never)
    parallel: int = 4  # sign-ups at once


async def run(
    bases: list[str], games: int, moves: int, think: float, time_limit: float, game: str, options: dict[str, Any], seed: int,
    social: Community | None = None,
) -> dict[str, Any]:
    """Play the games with the players spread over the servers (a game's seats on different ones)."""
    async with contextlib.AsyncExitStack() as stack:
        tally = Tally()
        rng = random.Random(seed)
        extra: dict[str, Any] = {}
        if social is None:
            asked = {"game": game, "options": options}
            created = [call(bases[index % len(bases)], "/api/games", asked) for index in range(games)]
            seats = [  # the seats of a game on different servers
                (body["id"], int(seat), token, None, bases[(index + int(seat)) % len(bases)])
                for index, body in enumerate(created) for seat, token in body["tokens"].items()
            ]
        else:
            signing = time.perf_counter()
            people, posters, watchers = await asyncio.gather(
                asyncio.to_thread(community.sign_up_many, bases, "p", 2 * games, social.parallel),
                asyncio.to_thread(community.sign_up_many, bases, "s", -(-social.seeks // community.MAX_SEEKS), social.parallel),
                asyncio.to_thread(community.sign_up_many, bases, "w", social.watchers, 1),
            )
            signed_up_in = time.perf_counter() - signing
            logged_in = await asyncio.to_thread(community.create_games, people, bases, game, options)
            seats = [(at.game_id, at.seat, at.token, at, at.browser.base) for at in logged_in]
            created = [{"id": at.game_id} for at in logged_in if at.seat == 0]
            lobby = community.Lobby(posters, watchers, social.seeks, social.revisit, rng.random, tally.lobby)
            accounts = len(people) + len(posters) + len(watchers)
            stack.callback(lambda: extra.update(community.figures(lobby, accounts, signed_up_in)))  # (once the lobby is closed)
            await stack.enter_async_context(lobby)
        deadline = time.monotonic() + time_limit
        started = time.perf_counter()
        clients = [
            player(server, game_id, seat, token, moves, think, deadline, tally, random.Random(rng.random()), account)
            for game_id, seat, token, account, server in seats
        ]
        outcomes = await asyncio.gather(*clients, return_exceptions=True)
        elapsed = time.perf_counter() - started
    base = bases[0]
    failures = [repr(outcome)[:120] for outcome in outcomes if isinstance(outcome, BaseException)]
    lost = rated = 0
    for body in created:
        stored = call(base, f"/api/games/{body['id']}")
        lost += max(0, tally.acknowledged.get(body["id"], 0) - int(stored["version"]))
        rated += bool(stored.get("rated"))
    if social is not None:  # each player's own account page lists the game: the seat is the account's
        extra["rated_games"] = rated
        extra["seats_of_accounts"] = sum(map(community.listed_on_account, logged_in))
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
    } | extra


def load(
    args: argparse.Namespace, options: dict[str, Any], folder: Path, floor: bool = False, social: Community | None = None
) -> dict[str, Any]:
    """Start the servers (ogames's, or the floor), play the load on them (`social`: the community's
    load), stop them: the figures."""
    folder.mkdir(parents=True, exist_ok=True)
    name = "floor" if floor else "ogames"
    given = [address.strip() for address in args.server.split(",")] if args.server and not floor else []
    shared = not given and (args.workers > 1 or args.postgres) and not floor
    store = "given servers" if given else "postgresql + redis" if shared else "sqlite"
    with contextlib.ExitStack() as stack:
        database, redis = start_services(stack) if shared else (f"sqlite:///{folder / f'{name}.sqlite3'}", None)
        servers = stack.enter_context(Servers())  # (ended before the services they use)
        bases = given or [servers.start(database, folder / f"{name}{index}.log", redis, floor)
                          for index in range(args.workers if shared else 1)]
        figures = asyncio.run(run(bases, args.games, args.moves, args.think, args.time_limit, args.game, options, args.seed,
                                  social))
    figures["server"] = name
    figures["mode"] = "floor" if floor else "plain" if social is None else "community"
    figures["store"] = store
    figures["cores"] = os.cpu_count()
    return figures


SLOW_MOVE: float | None = None  # LOAD_DEBUG=SECONDS: print each move slower than this, with its wall time


def main() -> None:
    global SLOW_MOVE
    # Stopped by a signal, the bench still ends the servers it started (Servers.__exit__).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    if os.environ.get("LOAD_DEBUG"):
        try:
            SLOW_MOVE = float(os.environ["LOAD_DEBUG"])
        except ValueError:
            parser.error("LOAD_DEBUG must be a number of seconds")
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
    parser.add_argument("--rounds", type=int, default=1, help="with --floor or --community: each load this often, alternating")
    parser.add_argument("--community", action="store_true",
                        help="also the community's load: every player logged in, the lobby full of seeks (web_community.py)")
    parser.add_argument("--no-plain", action="store_true", help="with --community: not the plain load beside it")
    parser.add_argument("--seeks", type=int, default=500, help="with --community: open seeks in the lobby")
    parser.add_argument("--watchers", type=int, default=5, help="with --community: accounts watching the lobby")
    parser.add_argument("--revisit", type=float, default=10.0,
                        help="with --community: a watcher opens the lobby again after about this many seconds (0: never)")
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
    if not 0 <= args.seeks <= 10_000 or not 0 <= args.watchers <= 1000 or args.revisit < 0:
        parser.error("--seeks must be 0..10000, --watchers 0..1000 and --revisit not negative")
    social = Community(args.seeks, args.watchers, args.revisit) if args.community else None
    plain = not (args.community and args.no_plain)
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds if args.floor or args.community else 1):
            if args.floor:
                runs.append(load(args, options, Path(folder) / f"floor{round_}", floor=True) | {"round": round_})
            if plain:
                runs.append(load(args, options, Path(folder) / f"ogames{round_}") | {"round": round_})
            if social is not None:
                runs.append(load(args, options, Path(folder) / f"community{round_}", social=social) | {"round": round_})
    summary: dict[str, Any] = {}
    best = {mode: max((r["moves_per_second"] for r in runs if r["mode"] == mode), default=0.0)
            for mode in ("floor", "plain", "community")}
    if args.floor:
        share = round(best["plain"] / best["floor"], 3) if best["floor"] else None
        summary = {"of_floor": share, "floor_moves_per_second": best["floor"], "ogames_moves_per_second": best["plain"]}
    if social is not None:
        summary["community_moves_per_second"] = best["community"]
    if args.json:
        print(json.dumps(runs[0] if len(runs) == 1 else {"runs": runs, **summary}))
        return
    figures = runs[0]
    title = (
        f"web load: {figures['players']} WebSocket players in {figures['games']} games ({args.game} {args.options}), "
        f"think {args.think:g} s, {figures['servers']} server process(es), {figures['store']}"
    )
    if social is not None:
        title += f"; community: every player logged in, {social.seeks} seeks, {social.watchers} lobby watchers"
    table = Table(title=title)
    table.add_column("")
    several = len(runs) > 1
    for figures in runs:
        name = {"floor": "floor", "plain": "ogames", "community": "ogames community"}[figures["mode"]]
        table.add_column(f"{name} #{figures['round'] + 1}" if several else name)
    shown = ("moves", "seconds", "moves_per_second", "p50_ms", "p90_ms", "p99_ms", "max_ms", "opponent_p50_ms", "opponent_p99_ms")
    shown += ("refused", "unanswered", "lost_moves", "bytes_per_move_message", "other_bytes")
    if social is not None:
        shown += ("accounts", "rated_games", "seats_of_accounts", "signup_seconds", "seeks_posted", "seeks_seconds",
                  "seeks_listed_min", "lobby_opened", "lobby_list_p50_ms", "lobby_list_p99_ms", "lobby_list_bytes",
                  "lobby_other_bytes")
    for name in shown:
        table.add_row(name, *(str(figures.get(name, "")) for figures in runs))
    Console().print(table)
    if args.floor:
        Console().print(f"ogames serves {summary['of_floor']} of its stack's floor (best of each: "
                        f"{summary['ogames_moves_per_second']} vs {summary['floor_moves_per_second']} moves/s)")
    for figures in runs:
        problems = {key: figures.get(key) for key in ("client_failures", "refusals", "lobby_failures") if figures.get(key)}
        if problems:
            Console().print({f"{figures['server']} {figures['mode']}": problems})


if __name__ == "__main__":
    main()
