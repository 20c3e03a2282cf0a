"""Fit the learned evaluation of Omega positions (`ogames.kernels.omega_eval`) to self-play games:
play GAMES games of `mcts:level=LEVEL` in every seat, keep every position with the game's winner,
fit a conditional logit per sixth of the game on three games in four, report its log-loss on the
rest beside the seats' shares alone and beside random playouts, and write the weights.

    .venv/bin/python tools/fit_omega_eval.py --players 3 --size 5 --games 3000 --level 7 \\
        --out src/ogames/players/mcts/omega_eval.json

Positions of games already played can be kept (`--positions FILE.npz`, written and read), so
that a refit does not replay them.
"""

from __future__ import annotations

import json
import math
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from tool_cli import Parser, refused, whole

import ogames
from ogames.errors import OgamesError
from ogames.kernels.omega import new_histogram, playout_histogram
from ogames.kernels.omega_eval import FEATURES, NF, PHASES, features, phase_of
from ogames.players import player
from ogames.players.mcts.adapter import adapter_for


def self_play(game: Any, games: int, level: int, seed: int) -> dict[str, np.ndarray]:
    """Every position of GAMES self-play games (stones, next colour, turn colour) and its game's winner."""
    stones, nexts, turns, ids, winners = [], [], [], [], []
    started = time.time()
    for g in range(games):
        bots = [player(f"mcts:level={level}", seed=(seed + g) * 10 + s) for s in range(len(game.colours))]
        state = game.new_state()
        while not state.is_over:
            stones.append(np.array(state.stones, dtype=np.int8))
            nexts.append(state.stone_index)
            turns.append(state.turn_colour)
            ids.append(g)
            state.play(bots[state.mover].choose(state), t=0.0)
        winners.append(list(game.colours).index(state.winner))
        if (g + 1) % 100 == 0:
            print(f"{g + 1} games, {time.time() - started:.0f} s", flush=True)
    return {"stones": np.array(stones), "next": np.array(nexts), "turn": np.array(turns), "game": np.array(ids),
            "winner": np.array(winners)[np.array(ids)]}


KEYS = ("stones", "next", "turn", "game", "winner")


def read_positions(path: Path, cells: int, parser: Parser) -> dict[str, np.ndarray]:
    """The positions kept by an earlier run, or a refusal naming what is wrong with the file."""
    try:
        with np.load(path) as stored:
            data = {key: stored[key] for key in KEYS}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        parser.error(f"--positions {path}: not positions this tool wrote ({exc})")
    if data["stones"].ndim != 2 or data["stones"].shape[1] != cells or len({len(v) for v in data.values()}) != 1:
        parser.error(f"--positions {path}: positions of another board or of uneven length")
    return data


def fit_logit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """A conditional logit by Newton's method: x (positions, colours, features), y the winning colour."""
    m, _, d = x.shape
    w = np.zeros(d)
    for _ in range(steps):
        p = chances(x, w)
        mean = np.einsum("mc,mcd->md", p, x)
        grad = (x[np.arange(m), y] - mean).sum(0) - l2 * m * w
        diff = x - mean[:, None, :]
        hessian = -np.einsum("mc,mcd,mce->de", p, diff, diff) - l2 * m * np.eye(d)
        step = np.linalg.solve(hessian, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def chances(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    z = x @ w
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-np.mean(np.log(np.clip(p[np.arange(len(y)), y], 1e-9, 1.0))))


def playout_shares(game: Any, table: np.ndarray, stones: np.ndarray, nexts: np.ndarray, count: int, seed: int) -> np.ndarray:
    """Each colour's share of `count` random playouts won from each position (+½ each, so none is 0)."""
    colours = len(game.colours)
    hist = new_histogram(colours, stones.shape[1])
    won = np.full((len(stones), colours), 0.5)
    for i, (row, nxt) in enumerate(zip(stones, nexts, strict=True)):
        for k in range(count):
            winner = playout_histogram(row, table, colours, int(nxt), game.end_empty, seed + i * count + k, hist)
            if winner >= 0:
                won[i, winner] += 1
    return won / won.sum(axis=1, keepdims=True)


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(3, 4), default=3)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--games", type=whole(1), default=3000, help="self-play games to play (unless --positions exists)")
    parser.add_argument("--level", type=whole(1, 10), default=7)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=Path, help="an .npz of positions: read if it exists, else written")
    parser.add_argument("--playouts", type=whole(1), default=64, help="random playouts a test position, for the comparison")
    parser.add_argument("--out", type=Path, required=True, help="the weights' JSON file")
    args = parser.parse_args()
    if not args.out.parent.is_dir():
        parser.error(f"--out: no folder {args.out.parent}")
    with refused(OgamesError):
        game = ogames.load("omega", players=args.players, size=args.size)
    if args.positions and args.positions.exists():
        data = read_positions(args.positions, len(game.board), parser)
    else:
        data = self_play(game, args.games, args.level, args.seed)
        if args.positions:
            np.savez(args.positions, **data)
    table = adapter_for(game.new_state()).table
    colours, cells = len(game.colours), len(game.board)
    x = np.array([features(s, table, colours, game.end_empty, int(n), int(t))
                  for s, n, t in zip(data["stones"], data["next"], data["turn"], strict=True)])
    y = data["winner"]
    phase = np.array([phase_of(int(np.count_nonzero(s)), cells, game.end_empty) for s in data["stones"]])
    rng = np.random.default_rng(args.seed)
    games = np.unique(data["game"])
    held = np.isin(data["game"], rng.choice(games, size=len(games) // 4, replace=False))
    weights = np.zeros((PHASES, NF))
    report = []
    for p in range(PHASES):
        train, test = (phase == p) & ~held, (phase == p) & held
        weights[p] = fit_logit(x[train], y[train])
        seats = np.bincount(y[train], minlength=colours) / train.sum()
        sample = np.flatnonzero(test)[:: max(1, test.sum() // 500)]
        shares = playout_shares(game, table, data["stones"][sample], data["next"][sample], args.playouts, args.seed)
        report.append({
            "phase": p, "train": int(train.sum()), "test": int(test.sum()),
            "evaluation": round(log_loss(chances(x[test], weights[p]), y[test]), 4),
            "seats only": round(log_loss(np.tile(seats, (int(test.sum()), 1)), y[test]), 4),
            "playouts": round(log_loss(shares, y[sample]), 4), "evaluation on their sample": round(
                log_loss(chances(x[sample], weights[p]), y[sample]), 4),
        })
        print(report[-1], flush=True)
    args.out.write_text(json.dumps({
        "game": f"omega players={args.players} size={args.size}", "self-play": f"mcts:level={args.level}",
        "games": len(games), "positions": len(y), "features": list(FEATURES), "weights": np.round(weights, 5).tolist(),
        f"log-loss (held-out games; uniform is ln {colours} = {math.log(colours):.4f})": report,
    }, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
