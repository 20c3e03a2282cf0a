"""Fit the learned move policy of three-player Omega (`ogames.kernels.omega_policy`) to long searches:
play GAMES games of `mcts:level=LEVEL` self-play, at SAMPLE positions of each (spread across the
game) run a search of TEACHER iterations and keep its root's visits of every move, fit a softmax
over the moves' features to those visits (cross-entropy) on three games in four, report its
log-loss on the rest beside uniform chances and beside the immediate gain alone, and write the
weights.

    nice -n 10 .venv/bin/python tools/fit_omega_policy.py --games 400 --teacher 30000 \\
        --positions /tmp/policy.npz --out src/ogames/players/mcts/omega_policy_3.json

Positions already searched can be kept (`--positions FILE.npz`, written as the run goes, read
back), so that a refit does not search them again.

`--agreement GAMES` asks instead whether the prior brings a short search closer to the long one:
at four positions of each of GAMES new self-play games (seeds the fit did not use), how often a
search of SHORT iterations plays the teacher's most visited move, with `policy` 0, 30 and 300,
beside a second teacher of another seed (how often two long searches agree at all).
"""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from tool_cli import Parser, refused, whole

import ogames
from ogames.errors import OgamesError
from ogames.kernels.omega_policy import NB, NF, feature_names, move_features
from ogames.players import player
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.search import CompiledMcts

KEYS = ("features", "visits", "position", "game")


def root_visits(state: Any, teacher: int, seed: int, policy: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A fresh search of `teacher` iterations (today's level 10 otherwise): its root's move codes
    and their visits."""
    searcher = CompiledMcts(iterations=teacher, reuse=False, seed=seed, policy=policy)
    searcher.choose(state)
    ints, floats = searcher._root  # the root the search chose from
    first, count = int(ints[0, K.I_FIRST]), int(ints[0, K.I_NCHILD])
    codes = ints[first : first + count, K.I_MOVE].astype(np.int32)
    return codes, floats[first : first + count, K.F_N].copy()


def generate(game: Any, games: int, level: int, sample: int, teacher: int, seed: int, path: Path | None) -> dict[str, np.ndarray]:
    """Self-play games; at `sample` random plies of each, the teacher's root visits and the moves' features."""
    feats: list[np.ndarray] = []
    visits: list[np.ndarray] = []
    position: list[np.ndarray] = []
    game_of: list[int] = []
    rng = np.random.default_rng(seed)
    started = time.time()
    found = 0
    for g in range(games):
        bots = [player(f"mcts:level={level}", seed=(seed + g) * 10 + s) for s in range(len(game.colours))]
        state = game.new_state()
        plies = int(len(game.board) - game.end_empty)  # about the game's stones
        chosen = set(rng.choice(plies, size=min(sample, plies), replace=False).tolist())
        ply = 0
        while not state.is_over:
            if ply in chosen:
                codes, seen = root_visits(state, teacher, (seed + g) * 100 + ply)
                adapter = adapter_for(state)
                stones, var, owner = adapter.encode(state)
                feats.append(move_features(stones, var, owner, adapter.params, adapter.table, codes))
                visits.append(seen)
                position.append(np.full(len(codes), found))
                game_of.append(g)
                found += 1
            state.play(bots[state.mover].choose(state), t=0.0)
            ply += 1
        if (g + 1) % 10 == 0:
            print(f"{g + 1} games, {found} positions, {time.time() - started:.0f} s", flush=True)
            if path:
                np.savez(path, **pack(feats, visits, position, game_of))
    data = pack(feats, visits, position, game_of)
    if path:
        np.savez(path, **data)
    return data


def pack(
    feats: list[np.ndarray], visits: list[np.ndarray], position: list[np.ndarray], game_of: list[int]
) -> dict[str, np.ndarray]:
    return {"features": np.concatenate(feats), "visits": np.concatenate(visits), "position": np.concatenate(position),
            "game": np.array(game_of)}


def read_positions(path: Path, parser: Parser) -> dict[str, np.ndarray]:
    try:
        with np.load(path) as stored:
            data = {key: stored[key] for key in KEYS}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        parser.error(f"--positions {path}: not positions this tool wrote ({exc})")
    if data["features"].ndim != 2 or data["features"].shape[1] != NF:
        parser.error(f"--positions {path}: features of another policy")
    return data


def softmax(z: np.ndarray, position: np.ndarray, positions: int) -> np.ndarray:
    top = np.full(positions, -np.inf)
    np.maximum.at(top, position, z)
    e = np.exp(z - top[position])
    return e / np.bincount(position, weights=e, minlength=positions)[position]


def fit(x: np.ndarray, target: np.ndarray, position: np.ndarray, positions: int, l2: float = 1e-3,
        steps: int = 60) -> np.ndarray:
    """Weights minimising the mean cross-entropy to `target` (each position's visit shares), by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = softmax(x @ w, position, positions)
        mean = np.zeros((positions, x.shape[1]))
        np.add.at(mean, position, p[:, None] * x)
        grad = ((target - p)[:, None] * x).sum(0) - l2 * positions * w
        diff = x - mean[position]
        hessian = -np.einsum("m,md,me->de", p, diff, diff) - l2 * positions * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def cross_entropy(p: np.ndarray, target: np.ndarray, position: np.ndarray, positions: int) -> float:
    """Mean over positions of −Σ target · log p."""
    return float(-(target * np.log(np.clip(p, 1e-12, 1.0))).sum() / positions)


def top_agreement(p: np.ndarray, target: np.ndarray, position: np.ndarray, positions: int) -> float:
    """Share of positions where the most likely move is the teacher's most visited."""
    hits = 0
    for k in range(positions):
        rows = np.flatnonzero(position == k)
        hits += int(target[rows].argmax() == p[rows].argmax())
    return hits / positions


def evaluate(x: np.ndarray, target: np.ndarray, position: np.ndarray, w: np.ndarray) -> dict[str, float]:
    positions = int(position.max()) + 1
    p = softmax(x @ w, position, positions)
    return {"log-loss": round(cross_entropy(p, target, position, positions), 4),
            "top-1": round(top_agreement(p, target, position, positions), 4)}


def agreement(game: Any, games: int, level: int, short: int, teacher: int) -> None:
    """Print how often short searches (and a second teacher) play the teacher's most visited move."""
    searches = {"level 10": (short, 0.0), "policy=30": (short, 30.0), "policy=300": (short, 300.0),
                "teacher, another seed": (teacher, 0.0)}
    hits = dict.fromkeys(searches, 0)
    rng = np.random.default_rng(12345)
    started, positions = time.time(), 0
    for g in range(games):
        bots = [player(f"mcts:level={level}", seed=(100_000 + g) * 10 + s) for s in range(len(game.colours))]
        state = game.new_state()
        chosen = set(rng.choice(int(len(game.board) - game.end_empty), size=4, replace=False).tolist())
        ply = 0
        while not state.is_over:
            if ply in chosen:
                codes, seen = root_visits(state, teacher, g * 100 + ply)
                best = codes[seen.argmax()]
                for name, (iterations, policy) in searches.items():
                    moves, visits = root_visits(state, iterations, g * 100 + ply + 7, policy)
                    hits[name] += int(moves[visits.argmax()] == best)
                positions += 1
            state.play(bots[state.mover].choose(state), t=0.0)
            ply += 1
    print(f"{positions} positions, {time.time() - started:.0f} s; short searches {short} iterations, teacher {teacher}")
    for name, hit in hits.items():
        print(f"  {name}: plays the teacher's most visited move in {hit}/{positions} = {hit / positions:.1%}")


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(1), default=400, help="self-play games to play (unless --positions exists)")
    parser.add_argument("--level", type=whole(1, 10), default=7)
    parser.add_argument("--sample", type=whole(1), default=4, help="positions searched per game")
    parser.add_argument("--teacher", type=whole(100), default=30_000, help="iterations of each teaching search")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=Path, help="an .npz of searched positions: read if it exists, else written")
    parser.add_argument("--out", type=Path, help="the weights' JSON file (needed unless --agreement)")
    parser.add_argument("--agreement", type=whole(1), help="only measure the prior's agreement on this many games")
    parser.add_argument("--short", type=whole(100), default=6_500, help="with --agreement: the short searches' iterations")
    args = parser.parse_args()
    if args.agreement:
        with refused(OgamesError):
            game = ogames.load("omega", players=3, size=5)
        agreement(game, args.agreement, args.level, args.short, args.teacher)
        return
    if args.out is None:
        parser.error("--out is needed")
    if not args.out.parent.is_dir():
        parser.error(f"--out: no folder {args.out.parent}")
    with refused(OgamesError):
        game = ogames.load("omega", players=3, size=5)
    if args.positions and args.positions.exists():
        data = read_positions(args.positions, parser)
    else:
        data = generate(game, args.games, args.level, args.sample, args.teacher, args.seed, args.positions)
    x, position, game_of = data["features"], data["position"], data["game"]
    positions = len(game_of)
    totals = np.bincount(position, weights=data["visits"], minlength=positions)
    target = data["visits"] / totals[position]
    rng = np.random.default_rng(args.seed)
    games = np.unique(game_of)
    held_games = rng.choice(games, size=len(games) // 4, replace=False)
    held_positions = np.isin(game_of, held_games)
    held = held_positions[position]

    def part(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        kept = np.flatnonzero(mask)
        renumber = np.cumsum(np.bincount(position[kept], minlength=positions) > 0) - 1
        return x[kept], target[kept], renumber[position[kept]]

    x_train, t_train, p_train = part(~held)
    x_test, t_test, p_test = part(held)
    weights = fit(x_train, t_train, p_train, int(p_train.max()) + 1)
    gain_only = np.zeros(NF)  # the immediate gain alone: the gain features (own, other; × phase), fitted
    gain_columns = [0, NB, 2 * NB, 3 * NB, NF - 1]
    gain_only[gain_columns] = fit(x_train[:, gain_columns], t_train, p_train, int(p_train.max()) + 1)
    tests = int(p_test.max()) + 1
    entropy = float(-(t_test * np.log(np.clip(t_test, 1e-12, 1.0))).sum() / tests)
    report = {
        "positions": {"train": int(p_train.max()) + 1, "test": tests},
        "teacher iterations": args.teacher,
        "held-out": {
            "uniform": evaluate(x_test, t_test, p_test, np.zeros(NF)),
            "immediate gain": evaluate(x_test, t_test, p_test, gain_only),
            "policy": evaluate(x_test, t_test, p_test, weights),
            "teacher's own entropy": round(entropy, 4),
        },
        "train policy": evaluate(x_train, t_train, p_train, weights),
        "features": feature_names(),
        "weights": [round(float(v), 5) for v in weights],
    }
    print(json.dumps(report["held-out"], indent=1))
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
