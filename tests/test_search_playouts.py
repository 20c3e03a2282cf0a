"""The compiled search's playouts (`kernels/step.py` → `step_playout` of each game) judged by the
plain references of the games' kernels: from random positions reached by the rules, a playout
only adds stones on empty cells (Onyx's captures aside), and the seat it names as the winner holds
the one colour that the plain-Python reference finds winning on the final board."""

from __future__ import annotations

import random

import numpy as np
import pytest

from conformance.cases import BOARD_CASES
from ogames.kernels import layout as P
from ogames.kernels import step
from ogames.kernels.oddy import winning_group_counts_reference
from ogames.kernels.omega import scores_reference
from ogames.kernels.omny import satisfied_colours_reference
from ogames.kernels.onyx import connects_reference
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.kernel import seed_rng

CASES = [case for case in BOARD_CASES if not case.options.get("match")]


def _winning_colours(game, stones: list[int], var) -> set[int]:
    """The colours (indices) that the plain reference finds winning on a finished playout's board."""
    neighbours = game.board.neighbours
    if game.name == "oddy":
        counts = winning_group_counts_reference(stones, neighbours, list(game.cell_sides), game.options["sides"])
        return {value - 1 for value in (1, 2) if counts[value]}
    if game.name == "omny":
        total = game.total_stars
        twice = int(var[P.V_KOMI])
        return satisfied_colours_reference(stones, neighbours, list(game.star_mask), total - twice, total + twice)
    scores = scores_reference(stones, neighbours, len(game.colours))
    best = max(range(len(scores)), key=lambda k: (scores[k], k))  # a tie goes to the later colour
    return {best}


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_playout_ends_where_the_references_say(case) -> None:
    game = case.load()
    judged = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state()
        for _ in range(rng.randrange(len(game.board) // 2)):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()), t=0.0)
        if state.is_over:
            continue
        adapter = adapter_for(state)
        stones, var, owner = adapter.encode(state)
        before = stones.copy()
        params = adapter.params.copy()
        params[P.P_FILL] = int(adapter.fill_playouts(state))
        params[P.P_BRIDGE] = seed % 2
        adapter.use_bridges()
        n = adapter.n
        logs = np.log(np.maximum(np.arange(n + 2), 1))
        work = np.empty((6, max(n + int(params[P.P_TOTAL]) + 8, 8)), dtype=np.int32)
        moves_out = np.empty(8 * n + 64, dtype=np.int32)
        seed_rng(seed)
        winner, _, recorded = step.playout(
            stones, var, owner, params, adapter.rule_arrays(), adapter.midpoint_corners, logs, work,
            np.zeros(n, dtype=np.int64), 1, moves_out, adapter.bridges, np.zeros(4),
        )
        final = [int(v) for v in stones]
        judged += 1
        if game.name != "onyx":
            assert all(final[c] == before[c] for c in range(n) if before[c]), "a stone moved"
            colours = _winning_colours(game, final, var)
            assert len(colours) == 1, (case.id, seed, colours)
            assert winner == owner[colours.pop()]
            if game.name == "omega":
                assert final.count(0) == game.end_empty
            continue
        assert winner >= 0 and 0 < recorded < moves_out.shape[0]
        cell, colour = divmod(int(moves_out[recorded - 1]), 4)
        first, second = (set(game.board.cells(s)) for s in (("west", "east") if colour == 0 else ("south", "north")))
        assert final[cell] == colour + 1
        assert connects_reference(final, game.board.neighbours, (first, second), cell)
        assert winner == owner[colour]
    assert judged >= 3  # most random openings leave the game going
