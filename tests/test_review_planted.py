"""The planted-blunder measure in small: strong games of Y 5 and Odd-Y with one move replaced by a
move the solver proves lost, from a position it proves won; the review must mark that move as the
one that lost (benchmarks/bench_review_planted.py measures the share over many games)."""

from __future__ import annotations

from typing import Any

import pytest

import ogames
from ogames.players.solvers.connection import solve
from ogames.teach.planted import finds_plant, planted_game
from ogames.teach.review import review

STRONG = "mcts:iterations=400,prove=5000"
GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("omny", {"variant": "y", "size": 5, "pie": False}, 1),
    ("omny", {"variant": "y", "size": 5, "pie": False}, 3),
    ("oddy", {"sides": 3, "size": 5, "pie": False}, 2),
]


@pytest.mark.parametrize(("game", "options", "seed"), GAMES)
def test_the_review_finds_the_planted_losing_move(game: str, options: dict[str, Any], seed: int) -> None:
    planted = None
    while planted is None:  # the first seed from `seed` on that gives a clean plant
        planted = planted_game(game, options, seed, STRONG)
        seed += 100
    # The plant is what the measure says it is: the position before it won, after it lost.
    before = ogames.replay(planted.record, upto=planted.ply - 1)
    after = ogames.replay(planted.record, upto=planted.ply)
    assert before.mover == planted.loser and solve(before).value == "win"
    assert after.mover != planted.loser and solve(after).value == "win"
    final = ogames.replay(planted.record)
    assert final.owner[final.winner] != planted.loser
    result = review(planted.record, budget=400, prove=5000, seed=seed)
    assert finds_plant(result, planted), [(m.ply, m.move, m.mark, m.loss) for m in result.moves]
    assert result.moves[planted.ply - 1].mark in ("mistake", "blunder")
