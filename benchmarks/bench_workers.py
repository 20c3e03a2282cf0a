"""Root-parallel `mcts` (`workers=2`) against one tree (`workers=1`): speed and strength.

Speed: iterations per second of one search of `--seconds` from the empty board and from a
mid-game position (random plies, seeded), workers 1 and 2 alternating in rounds so that a busy
machine slows both alike; medians over the rounds, wall-clock and CPU time (CPU time counts both
threads), the speed-up of two workers (median of each round's ratio) and the load average seen.
On a loaded machine the scheduler shares the CPU by session (autogroups), so a process gets about
the same share with two threads as with one and the wall-clock speed-up tends to 1; "2·CPU
ratio" (twice the ratio of iterations per CPU second) is what two free cores would give if the
threads did not slow each other.

Strength, measured without the clock (a shared machine distorts wall-clock matches): two workers
with I iterations each (2·I in total) against one tree with
  - `equal time`: 2·I / s iterations, s the measured speed-up: what one tree does in the time two
    workers take for 2·I, were the machine quiet;
  - `ideal`: I iterations — the equal-time match with a perfect speed-up of 2;
  - `equal work`: 2·I iterations — what splitting the same work over two trees costs;
and, as the yardstick, `doubling`: one tree of 2·I against one of I (the most two workers could
gain). From the empty board these games are decided by the seat (Y 9 without pie: the first
player won 36 of 40 at I = 5,000 in the arena; Omny sunder 5 with pie: the player who swapped won
39 of 40), so the games start from seeded random openings of `--plies` moves, each opening
played twice with the seats swapped (two processes); "seat decided" counts the openings whose
two games the same seat won. Records: `tournaments/workers/*.jsonl`.

    .venv/bin/python benchmarks/bench_workers.py speed [--rounds 5] [--seconds 1]
    .venv/bin/python benchmarks/bench_workers.py strength [--games 60] [--per-worker 5000] [--speedup S]
        [--matches "equal time,ideal,equal work,doubling"] [--plies 1] [--only "Y 9"]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import ogames
from ogames.players import player
from ogames.players.mcts import warm_up

RESULTS = Path(__file__).parent / "results" / "workers.json"
SPEED_CASES: list[tuple[str, dict[str, Any], str]] = [
    ("oddy", {"sides": 3, "size": 9, "pie": False}, "Y 9"),
    ("omny", {"variant": "sunder", "size": 5}, "Omny sunder 5"),
    ("omega", {"players": 3, "size": 5}, "Omega 3p hexagon 5"),
    ("onyx", {}, "Onyx"),
]
STRENGTH_CASES: list[tuple[str, dict[str, Any], str]] = [
    ("oddy", {"sides": 3, "size": 9, "pie": False}, "Y 9 (pie off)"),
    ("omny", {"variant": "sunder", "size": 5, "pie": True}, "Omny sunder 5 (pie)"),
]


def position(game: str, options: dict[str, Any], middle: bool) -> Any:
    """The empty board, or a third of the cells filled by seeded random plies (a game that ends
    on the way is replaced by the next seed's)."""
    loaded: Any = ogames.load(game, **options)
    if not middle:
        return loaded.new_state()
    plies = len(loaded.new_state().stones) // 3
    for seed in range(100):
        rng = random.Random(seed)
        state = loaded.new_state()
        for _ in range(plies):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()), t=0.0)
        if not state.is_over:
            return state
    raise RuntimeError(f"no game of {game} lasted {plies} random plies")


def one_search(state: Any, workers: int, seconds: float) -> tuple[float, float]:
    """Iterations per second of wall-clock and of process CPU time, one search of `seconds`."""
    bot = player("mcts", think=seconds, seed=1, workers=workers, reuse=False)
    start, cpu = time.perf_counter(), time.process_time()
    bot.choose(state.clone())
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    done = bot.info()["iterations"]
    return done / elapsed, done / max(used, 1e-9)


def speed(rounds: int, seconds: float, console: Console) -> dict[str, Any]:
    """The speed table; returns its figures (and the overall speed-up) for the results file."""
    table = Table(title=f"mcts iterations/s, workers 1 and 2 (median of {rounds} alternating rounds of {seconds} s)")
    columns = ("board", "from", "w=1 wall", "w=2 wall", "speed-up", "w=1 CPU", "w=2 CPU", "2·CPU ratio", "load")
    for column in columns:
        table.add_column(column, justify="left" if column in ("board", "from") else "right")
    rows = []
    for game, options, name in SPEED_CASES:
        for middle in (False, True):
            state = position(game, options, middle)
            warm_up(state)
            player("mcts", iterations=64, workers=2).choose(state.clone())  # threads warm too
            figures: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
            ratios, loads = [], []
            for r in range(rounds):
                for workers in (1, 2) if r % 2 == 0 else (2, 1):
                    loads.append(os.getloadavg()[0])
                    figures[workers].append(one_search(state, workers, seconds))
                ratios.append(figures[2][-1][0] / figures[1][-1][0])
            wall = {w: statistics.median(f[0] for f in figures[w]) for w in figures}
            cpu = {w: statistics.median(f[1] for f in figures[w]) for w in figures}
            row: dict[str, Any] = {
                "board": name,
                "from": "mid-game" if middle else "empty",
                "wall": wall,
                "cpu": cpu,
                "speedup": statistics.median(ratios),
                "load": statistics.median(loads),
            }
            rows.append(row)
            table.add_row(
                name,
                row["from"],
                f"{wall[1]:,.0f}",
                f"{wall[2]:,.0f}",
                f"{row['speedup']:.2f}×",
                f"{cpu[1]:,.0f}",
                f"{cpu[2]:,.0f}",
                f"{2 * cpu[2] / cpu[1]:.2f}",
                f"{row['load']:.1f}",
            )
            console.print(f"{name} {row['from']}: speed-up {row['speedup']:.2f} at load {row['load']:.1f}")
    console.print(table)
    overall = statistics.median(row["speedup"] for row in rows)
    console.print(f"median speed-up over the boards: {overall:.2f}")
    return {"rounds": rounds, "seconds": seconds, "rows": rows, "speedup": overall}


def opening(game: str, options: dict[str, Any], plies: int, seed: int) -> list[str]:
    """`plies` seeded random moves from the empty board (the next seed's if a game ends)."""
    loaded = ogames.load(game, **options)
    for attempt in range(100):
        rng = random.Random(seed * 1000 + attempt)
        state, moves = loaded.new_state(), []
        for _ in range(plies):
            moves.append(rng.choice(state.legal_moves()))
            state.play(moves[-1], t=0.0)
            if state.is_over:
                break
        if not state.is_over:
            return moves
    raise RuntimeError(f"no opening of {plies} plies in {game} leaves the game going")


def play_one(task: tuple[str, dict[str, Any], list[str], list[str], int]) -> dict[str, Any]:
    """One game from the opening, seat k played by specs[k]; its record in brief."""
    game, options, moves, specs, seed = task
    state: Any = ogames.load(game, **options).new_state()
    for move in moves:
        state.play(move, t=0.0)
    bots = [player(spec, seed=seed * 10 + k) for k, spec in enumerate(specs)]
    while not state.is_over:
        state.play(bots[state.mover].choose(state), t=0.0)
    return {"opening": moves, "seats": specs, "winner": state.owner[state.winner], "moves": state.ply}


def match(
    game: str, options: dict[str, Any], a: str, b: str, games: int, plies: int, first: int, label: str
) -> tuple[int, int, int]:
    """`a` against `b` from games/2 seeded random openings, each played twice with the seats
    swapped, in two processes; (a's wins, games, openings whose two games the same seat won).
    Every game is kept in tournaments/workers/LABEL.jsonl."""
    tasks = []
    for k in range(first, first + games // 2):
        moves = opening(game, options, plies, k)
        tasks += [(game, options, moves, [a, b], 2 * k), (game, options, moves, [b, a], 2 * k + 1)]
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork")) as pool:
        records = list(pool.map(play_one, tasks))
    folder = Path("tournaments") / "workers"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{label}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    wins = sum(1 for r in records if r["seats"][r["winner"]] == a)
    same = sum(1 for k in range(0, len(records), 2) if records[k]["winner"] == records[k + 1]["winner"])
    return wins, len(records), same


def strength(
    games: int, per_worker: int, speedup: float, which: list[str], plies: int, only: str, first: int, console: Console
) -> list[dict[str, Any]]:
    """The strength table; returns its rows."""
    two = f"mcts:workers=2,iterations={2 * per_worker}"
    pairs = {
        "equal time": (two, f"mcts:iterations={round(2 * per_worker / speedup)}"),
        "ideal": (two, f"mcts:iterations={per_worker}"),
        "equal work": (two, f"mcts:iterations={2 * per_worker}"),
        "doubling": (f"mcts:iterations={2 * per_worker}", f"mcts:iterations={per_worker}"),
    }
    title = f"root parallel against one tree, {games} games from {games // 2} random {plies}-ply openings (s = {speedup:.2f})"
    table = Table(title=title)
    for column in ("board", "match", "A", "B", "A won", "share", "95% interval", "seat decided"):
        table.add_column(column, justify="left" if column in ("board", "match", "A", "B") else "right")
    rows = []
    for game, options, name in STRENGTH_CASES:
        if only not in name:
            continue
        warm_up(ogames.load(game, **options).new_state())
        for label in which:
            a, b = pairs[label]
            start = time.perf_counter()
            slug = "-".join(str(v) for v in (game, *options.values())) + f"-{label.replace(' ', '-')}-{per_worker}-from{first}"
            wins, played, same = match(game, options, a, b, games, plies, first, slug)
            share = wins / played
            half = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / played)
            row = {"board": name, "match": label, "a": a, "b": b, "wins": wins, "games": played, "seat_decided": same}
            rows.append({**row, "first": first})
            interval = f"{max(0, share - half):.0%}–{min(1, share + half):.0%}"
            short_a, short_b = a.removeprefix("mcts:"), b.removeprefix("mcts:")
            table.add_row(name, label, short_a, short_b, f"{wins}/{played}", f"{share:.0%}", interval, f"{same}/{played // 2}")
            took = time.perf_counter() - start
            console.print(f"{name} {label}: {wins}/{played}, seat decided {same} of {played // 2} ({took:.0f} s)")
    console.print(table)
    return rows


def main() -> None:
    """Run the part asked for and keep its figures in benchmarks/results/workers.json."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=("speed", "strength"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--per-worker", type=int, default=5000)
    parser.add_argument("--speedup", type=float, default=None, help="s; by default the last speed run's median")
    parser.add_argument("--matches", default="equal time,ideal", help="of: equal time, ideal, equal work, doubling")
    parser.add_argument("--plies", type=int, default=1, help="random plies of each opening")
    parser.add_argument("--first", type=int, default=0, help="number of the first opening (its seed)")
    parser.add_argument("--only", default="", help="strength boards whose name contains this (e.g. 'Y 9')")
    args = parser.parse_args()
    console = Console()
    saved = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if args.part == "speed":
        saved["speed"] = speed(args.rounds, args.seconds, console)
    else:
        speedup = args.speedup if args.speedup is not None else saved.get("speed", {}).get("speedup")
        if speedup is None:
            parser.error("run the speed part first or give --speedup")
        which = [m.strip() for m in args.matches.split(",")]
        rows = strength(args.games, args.per_worker, speedup, which, args.plies, args.only, args.first, console)
        fresh = {(r["board"], r["match"], args.per_worker, args.first) for r in rows}
        kept = [r for r in saved.get("strength", []) if (r["board"], r["match"], r["per_worker"], r.get("first", 0)) not in fresh]
        saved["strength"] = kept + [{**r, "per_worker": args.per_worker, "speedup": speedup} for r in rows]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
