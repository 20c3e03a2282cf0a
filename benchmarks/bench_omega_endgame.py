"""Does level 10 lose three-player Omega in its last two turns? Exact play against the search there.

    nice -n 5 .venv/bin/python benchmarks/bench_omega_endgame.py --games 150

Level-10 self-play (0.02 s a move, hexagon 5) to the start of Black's turn in the last round (the
second-to-last turn). Noted there: whether Black could win against every reply, or against the
reply max^n expects (`omega_last_turns.second_to_last`), and at the start of Red's last turn whether
Red could win at all; and whether they then did, playing as level 10. Then, from the same
position, paired: Black plays its turn exactly, or as level 10 (another seed), Red level 10 in
both with the same seed; Black's wins of each are counted.
"""

from __future__ import annotations

import argparse
import copy

import numpy as np

import ogames
from ogames.players import player
from ogames.players.solvers import omega_last_turns as L

SPEC = "mcts:level=10,nodes=100000"


def _last_turn_key(state: object, logs: np.ndarray) -> float:
    stones = state.stones.astype(np.int64)  # type: ignore[attr-defined]
    table = state.board.neighbour_table  # type: ignore[attr-defined]
    n = len(stones)
    base, gains = np.empty(3), np.zeros((3, n))
    L.colour_gains(stones, table, 3, logs, base, gains, np.empty(n, np.int64), np.zeros(n, np.int64),
                   np.zeros(n, np.int64), np.empty(n, np.int64))  # fmt: skip
    empties = np.flatnonzero(stones == 0).astype(np.int64)
    return float(L.best_turn(base, gains, empties, 3, 0, 2, 1, np.full(4, -1, np.int64), np.empty(3)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--think", type=float, default=0.02)
    args = parser.parse_args()
    if args.games < 1 or args.think <= 0:
        parser.error("--games ≥ 1 and --think > 0")
    game = ogames.load("omega", players=3, size=5)
    logs = np.log(np.maximum(np.arange(len(game.board) + 2, dtype=np.float64), 1.0))
    seen = dict.fromkeys(("robust", "robust won", "maxn", "maxn won", "last can", "last won"), 0)
    paired = {"exact": 0, "search": 0, "both": 0}
    for g in range(args.games):
        bots = [player(SPEC, think=args.think, seed=1000 + g * 10 + s) for s in range(3)]
        state = game.new_state()
        while not (L.turns_left(state) == 2 and state.stone_index == 0):
            state.play(bots[state.mover].choose(state))
        start = copy.deepcopy(state)
        second = L.second_to_last(state.stones.astype(np.int64), game.board.neighbour_table, 3, 0, logs, 10**6,
                                  np.full(4, -1, np.int64))  # fmt: skip
        last = None
        while not state.is_over:  # the game as level 10 plays it
            if last is None and L.turns_left(state) == 1:
                last = _last_turn_key(state, logs)
            state.play(bots[state.mover].choose(state))
        winner = state.result.winner
        kind = "robust" if second >= 2 * L.WIN else "maxn" if second >= L.WIN / 2 else None
        if kind:
            seen[kind] += 1
            seen[f"{kind} won"] += winner == "black"
        if last is not None and last >= L.WIN / 2:
            seen["last can"] += 1
            seen["last won"] += winner == "red"
        won = {}
        for mode in ("exact", "search"):
            s = copy.deepcopy(start)
            black, red = player(SPEC, think=args.think, seed=7 + g), player(SPEC, think=args.think, seed=9 + g)
            while not s.is_over:
                if L.turns_left(s) == 2:
                    s.play(L.exact_move(s, 10**6) if mode == "exact" else black.choose(s))
                else:
                    s.play(red.choose(s))
            won[mode] = s.result.winner == "black"
        paired["exact"] += won["exact"]
        paired["search"] += won["search"]
        paired["both"] += won["exact"] and won["search"]
        if (g + 1) % 10 == 0 or g + 1 == args.games:
            print(f"after {g + 1} games: level 10's own play {seen}; Black's wins from the same positions {paired}",
                  flush=True)


if __name__ == "__main__":
    main()
