"""Environment steps per second through each research adapter, beside the rules engine itself.

    .venv/bin/pip install -e ".[rl,openspiel]"      # the adapters' optional extras
    .venv/bin/python benchmarks/bench_envs.py [--seconds 1] [--rounds 3] [--json]

For each game, uniformly random legal moves from the start, games restarted when they end, on one
core for `--seconds` each:
- engine: `state.legal_moves()`, `rng.choice`, `state.play(move)` — the rules alone;
- AEC: PettingZoo's `env.last()` (observation planes and action mask), a random legal action from
  the mask, `env.step(action)` through PettingZoo's standard wrappers (`ogames.envs.env`);
- Gymnasium: `env.step(action)` of `ogames.envs.single_agent_env` against the random player: one
  step also plays the opponent's reply (so it is about two plies), and returns the observation;
- OpenSpiel: `state.legal_actions()` and `state.apply_action(action)` of the registered Python game
  (`ogames.envs.openspiel`), no observation (what MCTS and tree search do).
The adapters are measured in turn, round after round, and the median of the rounds is shown (the
machine may be shared: single figures are noisy).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

import ogames
from ogames.envs import env, single_agent_env

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("oddy", {"size": 7}),
    ("omny", {"variant": "sunder", "size": 5}),
    ("omega", {"players": 2, "size": 5}),
    ("omega", {"players": 3, "size": 5}),
    ("onyx", {}),
]


def timed(step: Callable[[], int], seconds: float) -> float:
    """Steps per second: `step()` runs one unit of work and says how many steps it made."""
    step()  # warm-up (first calls compile or fill caches)
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        count += step()
    return count / elapsed


def engine(name: str, options: dict[str, Any], rng: random.Random) -> Callable[[], int]:
    game = ogames.load(name, **options)
    holder = [game.new_state()]

    def step() -> int:
        state = holder[0]
        if state.is_over:
            state = holder[0] = game.new_state()
        state.play(rng.choice(state.legal_moves()), t=0.0)
        return 1

    return step


def aec(name: str, options: dict[str, Any], rng: random.Random) -> Callable[[], int]:
    environment = env(name, **options)
    environment.reset(seed=0)

    def step() -> int:
        if not environment.agents:
            environment.reset()
        obs, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            return 0
        environment.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return 1

    return step


def gym(name: str, options: dict[str, Any], rng: random.Random) -> Callable[[], int]:
    environment = single_agent_env(name, opponent="random", **options)
    holder = [environment.reset(seed=0)[0], False]

    def step() -> int:
        if holder[1]:
            holder[0], holder[1] = environment.reset()[0], False
        obs, _, done, _, _ = environment.step(int(rng.choice(np.flatnonzero(holder[0]["action_mask"]))))
        holder[0], holder[1] = obs, done
        return 1

    return step


def openspiel(name: str, options: dict[str, Any], rng: random.Random) -> Callable[[], int] | None:
    try:
        import pyspiel

        import ogames.envs.openspiel  # noqa: F401  (registers the games)
    except ImportError:
        return None
    game = pyspiel.load_game(f"ogames_{name}", options)
    holder = [game.new_initial_state()]

    def step() -> int:
        state = holder[0]
        if state.is_terminal():
            state = holder[0] = game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return step


ADAPTERS: dict[str, Callable[..., Callable[[], int] | None]] = {
    "engine play()": engine,
    "PettingZoo AEC": aec,
    "Gymnasium (vs random)": gym,
    "OpenSpiel": openspiel,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per game and adapter (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is shown (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    args = parser.parse_args()
    rows = []
    for name, options in GAMES:
        shown = sorted(options.items(), key=lambda kv: kv[0] not in ("variant", "size"))
        label = " ".join([name, *(str(v) if k in ("variant", "size") else f"{k}={v}" for k, v in shown)])
        steps = {adapter: make(name, options, random.Random(1)) for adapter, make in ADAPTERS.items()}
        seen: dict[str, list[float]] = {adapter: [] for adapter, step in steps.items() if step is not None}
        for _ in range(max(args.rounds, 1)):
            for adapter in seen:
                step = steps[adapter]
                assert step is not None
                seen[adapter].append(timed(step, args.seconds))
        rows.append({"game": label, **{a: statistics.median(seen[a]) if a in seen else None for a in ADAPTERS}})
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    table = Table(title=f"steps per second, random legal moves (one core, median of {args.rounds})")
    table.add_column("game")
    for adapter in ADAPTERS:
        table.add_column(adapter, justify="right")
    for row in rows:
        table.add_row(row["game"], *("—" if row[a] is None else f"{row[a]:,.0f}" for a in ADAPTERS))
    Console().print(table)


if __name__ == "__main__":
    main()
