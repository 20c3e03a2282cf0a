"""Games with a planted blunder: the measure of whether a review finds the move that lost.

A strong game of Omny or Odd-Y (two players, the connection solver's games) is played to a position
that the solver proves won for the side to move; there one move is replaced by a move the solver
proves lost (after it the opponent has a proven win), and the game is finished by strong play, so
the planted move is known to be the one that turned the game. `planted_game` makes such a game,
`finds_plant` says whether a review marked it as the move that lost: a mistake or a blunder, and
no smaller a loss than any other move of the side that lost.

`benchmarks/bench_review_planted.py` measures the share found over many games;
`tests/test_review_planted.py` checks a few.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ogames.players import player as make_player
from ogames.players.solvers.connection import ConnectionSolver, solve
from ogames.rules import load
from ogames.rules.protocol import State
from ogames.teach.review import Review

PROOF_BUDGET = 100_000  # solver positions to prove the position and the planted move (not the review's)
CANDIDATES = 6  # moves tried as the plant, at most, in random order


@dataclass(frozen=True)
class Planted:
    """A finished game (`record`) whose move number `ply` (from 1) was replaced by `move`, proven to
    lose from a position proven won; `loser` is the seat that played it and lost."""

    record: dict[str, Any]
    ply: int
    move: str
    loser: int


def _play(state: State, players: list[Any]) -> None:
    while not state.is_over:
        mover = state.mover
        assert mover is not None
        state.play(players[mover].choose(state))


def planted_game(game: str, options: dict[str, Any], seed: int, spec: str, *, earliest: int = 2,
                 latest: float = 0.5) -> Planted | None:
    """A strong game of `spec` against itself with one planted losing move, or None when this seed
    gives no position to plant in (none proven won with a move proven lost, or the finish did not
    punish it). The plant comes at the first position from a random ply (`earliest` to `latest` of
    the board's cells) on that the solver proves won for the side to move with a move it proves lost."""
    rng = random.Random(seed)
    state = load(game, **options).new_state()
    assert len(state.players) == 2, "a planted game is a two-player connection game"
    players = [make_player(spec, seed=seed * 2 + i) for i in range(2)]
    cells = len(state.legal_moves())
    target = rng.randint(earliest, max(earliest, int(cells * latest)))
    solver = ConnectionSolver(state.game)
    while not state.is_over and state.ply < target:
        state.play(players[state.mover or 0].choose(state))
    while not state.is_over:  # on to a position proven won for the side to move, with a move proven lost
        mover = state.mover
        assert mover is not None
        plant = _losing_move(state, solver, rng)
        if plant is not None:
            ply = state.ply + 1
            state.play(plant)
            for p in players:
                p.reset()
            _play(state, players)
            if state.winner is None or state.owner[state.winner] == mover:
                return None  # the finish did not punish the plant: not a clean measure
            return Planted(state.record(), ply, plant, mover)
        state.play(players[mover].choose(state))
    return None


def _losing_move(state: State, solver: ConnectionSolver, rng: random.Random) -> str | None:
    """A move proven to lose from a position proven won for the side to move, or None (the position
    not proven won, or none of CANDIDATES random moves proven lost, within PROOF_BUDGET each)."""
    proof = solve(state, PROOF_BUDGET, solver=solver)
    if proof.value != "win":
        return None
    moves = [m for m in state.legal_moves() if m != proof.move]
    rng.shuffle(moves)
    for move in moves[:CANDIDATES]:
        child = state.clone()
        child.play(move)
        if child.is_over:
            continue
        answer = solve(child, PROOF_BUDGET, solver=solver)
        if answer.value == "win" and child.mover != state.mover:
            return move
    return None


def finds_plant(result: Review, planted: Planted) -> bool:
    """Whether the review marks the planted move as the one that lost: a mistake or a blunder, with
    a loss at least as large as that of every other move of the losing side."""
    move = result.moves[planted.ply - 1]
    assert move.move == planted.move
    if move.mark not in ("mistake", "blunder") or move.loss is None:
        return False
    others = [m.loss or 0.0 for m in result.moves if m.seat == planted.loser and m.ply != planted.ply]
    return all(move.loss >= loss for loss in others)
