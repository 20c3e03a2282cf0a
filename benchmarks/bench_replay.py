"""Replay speed: records of 500 to 20,000 moves, replayed by `ogames.replay`, shown by
`ogames replay FILE --at N` (load, check, draw the last position) and stepped through by the
replay viewer: every move forward (linear in the moves), and single steps back (each replays at
most 1/16 of the record from the nearest kept copy).

Long records are real-time Omiga games (both players discard often, as bots waiting for a fit
card do); `--before` adds the old viewer, which copied the state at every move (quadratic: 96 s
and 2.8 GB at 5,000 moves), for the records of up to 2,000 moves.

Run: .venv/bin/python benchmarks/bench_replay.py [--before]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable
from typer.testing import CliRunner

import ogames
from ogames.cli.app import Positions, app
from ogames.records import save

SIZES = (500, 1000, 2000, 5000, 10000, 20000)


def long_game(moves: int, seed: int = 1) -> ogames.State:
    """A real-time Omiga game of exactly `moves` actions: a few placements, then discards."""
    rng = random.Random(seed)
    state = ogames.load("omiga", seed=seed).new_state(["ann", "bob"])
    t = 0.0
    while state.ply < moves and not state.is_over:
        t += 0.5
        actor = rng.choice(state.actors)
        places = [m for m in state.legal_moves() if m.startswith(actor) and " place " in m]
        if places and state.ply < 300 and rng.random() < 0.05:
            state.play(rng.choice(places), t=t)
        elif state.hands[actor]:
            state.play(f"{actor}: discard", t=t)
    return state


def seconds(call: Any) -> float:
    """Wall time of one call."""
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def old_positions(record: dict[str, Any]) -> list[ogames.State]:
    """The viewer before: a copy of the state after every move (each copy holds the history so far)."""
    first = ogames.replay(record, upto=0)
    positions = [first.clone()]
    for entry in record["moves"]:
        first.replay_entry(entry)
        positions.append(first.clone())
    return positions


def step_forward(record: dict[str, Any]) -> Positions:
    """What a person does in the viewer: every position from the first to the last."""
    positions = Positions(record, ogames.replay(record))
    for index in range(positions.total + 1):
        positions.at(index)
    return positions


def step_back(positions: Positions, samples: int = 50) -> float:
    """Mean seconds of one step back (`p`) from positions spread over the record."""
    rng = random.Random(2)
    spent = 0.0
    for _ in range(samples):
        index = rng.randrange(1, positions.total + 1)
        positions.at(index)
        spent += seconds(lambda index=index: positions.at(index - 1))
    return spent / samples


def main() -> None:
    """Measure and print the table."""
    before = "--before" in sys.argv
    runner = CliRunner()
    out = RichTable(title="Replaying long records (real-time Omiga, 15 × 10 table)")
    columns = (
        "moves",
        "ogames.replay s",
        "µs per move",
        "ogames replay --at N s",
        "viewer: every move forward s",
        "viewer: one step back ms",
    )
    for column in columns:
        out.add_column(column, justify="right")
    if before:
        out.add_column("old viewer (copy per move) s", justify="right")
    with tempfile.TemporaryDirectory() as folder:
        for moves in SIZES:
            state = long_game(moves)
            record = state.record()
            path = save(state, Path(folder) / f"r{moves}.json")
            replay_s = seconds(lambda record=record: ogames.replay(record))
            result = None

            def cli(path: Path = path, moves: int = moves) -> None:
                nonlocal result
                result = runner.invoke(app, ["replay", str(path), "--at", str(moves)])

            cli_s = seconds(cli)
            assert result is not None and result.exit_code == 0, result.output if result else None
            start = time.perf_counter()
            walked = step_forward(record)
            step_s = time.perf_counter() - start
            back_ms = 1000 * step_back(walked)
            row = [f"{moves:,}", f"{replay_s:.2f}", f"{1e6 * replay_s / moves:.0f}", f"{cli_s:.2f}", f"{step_s:.2f}"]
            row.append(f"{back_ms:.0f}")
            if before:
                row.append(f"{seconds(lambda record=record: old_positions(record)):.2f}" if moves <= 2000 else "—")
            out.add_row(*row)
    Console(width=150).print(out)


if __name__ == "__main__":
    main()
