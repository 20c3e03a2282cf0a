"""The server's own work for one move, early and late in a game: does it grow with the moves?

One `Hub` in this process on a fresh SQLite file, a game of two people on one screen, and two
pages watching it as the game page does (deltas, `?deltas=1`). Each move is timed from the
request to the messages both pages are sent, written as JSON: `Hub.move` (the seat's checks, the
rules on a copy of the state, the database, the view, the deltas) and the sending's encoding.
Random legal moves are played to the end of the game; the table shows the medians of the moves
in a window early in a game beside one late in it: the wall time, the database write's (in its
thread), and the CPU time of the event loop's thread, the server's own work for the move (which
the machine's other load disturbs far less than the wall time). Omny y 20 (210 cells) lasts long
enough to show the moves' share; Y 13 (91 cells) is the search benchmarks' board.

`--compare SRC` runs the same games on another copy of the package (`git archive main src | tar
-x -C /tmp/before`, then `--compare /tmp/before/src`) in a child process, rounds alternating with
this checkout's, and shows both.

    python benchmarks/bench_move_cost.py                  # the table
    python benchmarks/bench_move_cost.py --games 5 --rounds 3 --compare /tmp/before/src --json
    python benchmarks/bench_move_cost.py --profile 150    # cProfile of the moves from ply 150 on

The machine may be shared: compare the figures of one run, not those of different runs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import ogames
from ogames.web.boards.hub import Hub
from ogames.web.boards.protocol import NewGame
from ogames.web.core.settings import Settings
from ogames.web.core.store import Store

BOARDS: list[tuple[str, str, dict[str, Any], list[tuple[int, int]]]] = [
    ("Omny y 20 (210 cells)", "omny", {"variant": "y", "size": 20}, [(10, 30), (150, 170)]),
    ("Y 13 (91 cells)", "oddy", {"sides": 3, "size": 13, "pie": False}, [(10, 20), (60, 70)]),
]


def encode(message: Any) -> str:
    """A message as the WebSocket sends it (`common.send_all`: a typed view or delta written by
    pydantic; a plain one by Starlette's `send_json`, as the server did before its views were typed)."""
    if hasattr(message, "model_dump_json"):
        return str(message.model_dump_json(exclude_unset=True))
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


async def one_game(game: str, options: dict[str, Any], seed: int, folder: Path,
                   profile_from: int | None = None, show: int | None = None) -> list[dict[str, float]]:
    """Every move of one random game: its ply, the whole time, the database's share, bytes sent."""
    settings = Settings(database_url=f"sqlite:///{folder / f'{game}-{seed}.sqlite3'}", ai_executor="thread", warm_rules=False)
    store = Store(settings.database_url)
    hub = Hub(store, settings)
    rng = random.Random(seed)
    profiler = cProfile.Profile() if profile_from is not None else None
    try:
        live, tokens = await hub.create(NewGame(game=game, options=options, mode="hotseat"))
        pages = [hub.watch(live, deltas=True) for _ in range(2)]
        for outbox in pages:
            outbox.show(hub.view_of(live))  # the first view, whole, as `serve_socket` sends it
            encode(outbox.get_nowait())
        stored = store.add_entries
        spent = [0.0]

        def timed_add(*args: Any, **kwargs: Any) -> None:
            start = time.perf_counter()
            try:
                stored(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start

        store.add_entries = timed_add  # type: ignore[method-assign]
        moves: list[dict[str, float]] = []
        while not live.state.is_over:
            move = rng.choice(live.state.legal_moves())
            token = tokens[live.state.mover]
            ply = live.state.ply
            spent[0] = 0.0
            if profiler is not None and profile_from is not None and ply >= profile_from:
                profiler.enable()
            start, cpu = time.perf_counter(), time.thread_time()
            await hub.move(live.id, token, live.version, move)
            sent = [encode(outbox.get_nowait()) for outbox in pages]
            took, cpu = time.perf_counter() - start, time.thread_time() - cpu
            if profiler is not None:
                profiler.disable()
            moves.append({"ply": ply, "seconds": took, "store": spent[0], "cpu": cpu, "bytes": len(sent[0].encode())})
            if show is not None and ply == show:
                print(sent[0])
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(35)
        return moves
    finally:
        await hub.close()
        store.close()


def view_part(game: str, options: dict[str, Any], plies: list[int], seed: int = 1, repeat: int = 7,
              number: int = 100) -> list[dict[str, Any]]:
    """What the web adds to a move at each of `plies`, without the database and the event loop:
    the view of the position after the move made from the one before (as the hub makes it for
    its watchers), the delta from the view before and its JSON, less the rules' own share of it
    (the legal moves, the board's facts, the winning cells and scores, asked of a copy of the
    position as well). The best of
    `repeat` runs of `number`, in CPU time (the machine's other load only ever adds)."""
    state = ogames.load(game, **options).new_state()
    rng = random.Random(seed)
    states = [state.clone()]
    while state.ply < max(plies) and not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        states.append(state.clone())
    rows = []
    for ply in plies:
        if ply < len(states):
            rows.append({"ply": ply, **_view_part_at(states[ply - 1], states[ply], repeat, number)})
    return rows


def _view_part_at(before: Any, after: Any, repeat: int, number: int) -> dict[str, float]:
    from ogames.web.boards.game_view import view
    from ogames.web.boards.live import LiveGame
    from ogames.web.core.delta import make_delta, stamp

    live = LiveGame("g", "hotseat", ["human"] * after.game.seat_count, before.clone(), {}, time.time())
    shown = stamp(view(live))
    kept = dict(getattr(live, "positions", {}))  # the position before's facts (none kept before they were)
    copies = iter([after.clone() for _ in range(repeat * number * 2 + 2)])

    def web() -> None:
        live.state = next(copies)  # a new object: nothing of its position made yet
        if kept:
            live.positions = dict(kept)
        encode(make_delta(shown, stamp(view(live))))

    def rules() -> None:  # what the view asks of the rules
        copy = next(copies)
        copy.legal_moves()
        copy.facts()
        copy.winning_cells()
        copy.scores  # noqa: B018  (a property the view reads)

    # CPU time of this thread: what other processes take of the cores is not counted.
    whole = min(timeit.Timer(web, timer=time.thread_time).repeat(number=number, repeat=repeat)) / number
    own = min(timeit.Timer(rules, timer=time.thread_time).repeat(number=number, repeat=repeat)) / number
    return {"view_delta_us": 1e6 * whole, "rules_us": 1e6 * own, "web_us": 1e6 * (whole - own)}


def window(moves: list[dict[str, float]], low: int, high: int) -> dict[str, float] | None:
    """Medians of the moves made at plies low..high-1 (None if no game got that far)."""
    inside = [m for m in moves if low <= m["ply"] < high]
    if not inside:
        return None
    return {
        "moves": len(inside),
        "ms": 1000 * statistics.median(m["seconds"] for m in inside),
        "store_ms": 1000 * statistics.median(m["store"] for m in inside),
        "loop_cpu_ms": 1000 * statistics.median(m["cpu"] for m in inside),
        # The least disturbed moves (the machine's other load only ever adds): the lowest tenth.
        "loop_cpu_p10_ms": 1000 * statistics.quantiles([m["cpu"] for m in inside], n=10)[0],
        "bytes": statistics.mean(m["bytes"] for m in inside),
    }


def measure(games: int) -> list[dict[str, Any]]:
    """The table's rows: every board's windows over `games` random games, and the web's part at
    the first ply of each window."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for name, game, options, windows in BOARDS:
            played: list[dict[str, float]] = []
            for seed in range(1, games + 1):
                played += asyncio.run(one_game(game, options, seed, Path(folder)))
            for low, high in windows:
                figures = window(played, low, high)
                part = view_part(game, options, [low])
                if figures is not None and part:
                    rows.append({"board": name, "plies": f"{low}–{high - 1}", **figures, **part[0]})
    return rows


def measured_in(source: str | None, games: int) -> list[dict[str, Any]]:
    """`measure` in a child process importing the package from `source` (None: this checkout's)."""
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = source
    command = [sys.executable, __file__, "--games", str(games), "--json"]
    return list(json.loads(subprocess.run(command, env=environment, check=True, capture_output=True, text=True).stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="random games per board")
    parser.add_argument("--rounds", type=int, default=1, help="with --compare: each side this many times, alternating")
    parser.add_argument("--compare", metavar="SRC", help="also measure the package in this folder (another checkout's src)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=int, help="profile the moves from this ply on (first board, one game)")
    args = parser.parse_args()
    if args.profile is not None:
        with tempfile.TemporaryDirectory() as folder:
            _, game, options, _ = BOARDS[0]
            asyncio.run(one_game(game, options, 1, Path(folder), args.profile))
        return
    if args.compare is None:
        rows = measure(args.games)
    else:
        rows = []
        for round_ in range(1, args.rounds + 1):
            for side, source in (("compared", args.compare), ("this", None)):
                rows += [{"round": round_, "code": side, **row} for row in measured_in(source, args.games)]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    table = Table(title="The server's work per move (median), early and late in a game")
    keys = ["round", "code"] if args.compare else []
    for column in (*keys, "board", "plies", "moves", "ms per move", "database ms", "event loop's CPU ms", "its p10 ms",
                   "view+delta µs", "rules' µs", "web's µs", "bytes/move msg"):
        table.add_column(column, justify="left" if column in ("board", "plies", "code") else "right")
    for row in rows:
        table.add_row(*(str(row[key]) for key in keys), row["board"], row["plies"], str(row["moves"]), f"{row['ms']:.2f}",
                      f"{row['store_ms']:.2f}", f"{row['loop_cpu_ms']:.3f}", f"{row['loop_cpu_p10_ms']:.3f}",
                      f"{row['view_delta_us']:.0f}", f"{row['rules_us']:.0f}", f"{row['web_us']:.0f}", f"{row['bytes']:.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
