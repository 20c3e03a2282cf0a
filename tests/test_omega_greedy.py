"""Omega's greedy playouts (`mcts:greedy=K`, `kernels/omega.greedy_playout`): each stone on the best
of K random empty cells for the seat placing it. Judged by the plain references: the board it
leaves is a legal end (stones kept, the colours in turn order, the end's empty cells), its sums of
log group sizes are the reference's scores, and its winner the reference's; with every cell a
candidate, the choice is the best one for the placer."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadOption
from ogames.kernels import layout as P
from ogames.kernels import step
from ogames.kernels.omega import greedy_playout, group_sizes_reference, scores_reference
from ogames.players import player
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.kernel import seed_rng


def _position(players: int, size: int, plies: int, seed: int):
    rng = random.Random(seed)
    state = ogames.load("omega", players=players, size=size).new_state()
    for _ in range(plies):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state


def _run(state, greedy: int, seed: int):
    adapter = adapter_for(state)
    stones, var, owner = adapter.encode(state)
    params = adapter.params.copy()
    params[P.P_GREEDY] = greedy
    n = adapter.n
    logs = np.log(np.maximum(np.arange(n + 2), 1))
    work = np.empty((6, max(n + 8, 8)), dtype=np.int32)
    sums = np.zeros(4)
    before = stones.copy()
    seed_rng(seed)
    winner, _, recorded = step.playout(
        stones, var, owner, params, adapter.rule_arrays(), adapter.midpoint_corners, logs, work,
        np.zeros(n, dtype=np.int64), 1, np.empty(8 * n + 64, dtype=np.int32), adapter.bridges, sums,
    )
    return before, stones, var, owner, sums, winner, recorded


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), plies=st.integers(0, 40), greedy=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_a_greedy_playout_ends_as_the_references_say(players: int, plies: int, greedy: int, seed: int) -> None:
    state = _position(players, 4 if players < 4 else 5, plies, seed)
    if state.is_over:
        return
    game = state.game
    before, stones, var, owner, sums, winner, recorded = _run(state, greedy, seed)
    final = [int(v) for v in stones]
    p = len(game.colours)
    assert recorded == -1  # AMAF reads the final board
    assert all(final[c] == before[c] for c in range(len(final)) if before[c]), "a stone moved"
    assert final.count(0) == game.end_empty
    # The colours follow the turn order from the colour to move: each colour placed as often as a
    # random fill would place it.
    placed = [final[c] for c in range(len(final)) if not before[c] and final[c]]
    start = int(var[P.V_TURN])
    assert placed and sorted(placed) == sorted((start + i) % p + 1 for i in range(len(placed)))
    neighbours = game.board.neighbours
    scores = scores_reference(final, neighbours, p)
    assert [round(math.exp(sums[k])) for k in range(p)] == scores
    best = max(range(p), key=lambda k: (scores[k], k))  # a tie goes to the later colour
    assert winner == owner[best]


@pytest.mark.parametrize("stone", [0, 1])
@pytest.mark.parametrize("seed", range(4))
def test_with_every_cell_a_candidate_the_stone_is_its_placers_best(stone: int, seed: int) -> None:
    """One stone left to place and K ≥ the empty cells: in White's turn of a two-player game a
    White stone (its own colour) goes where it adds most to White's score, a Black one (the
    opponent's) where it adds least, by the plain reference's group sizes."""
    state = _position(2, 4, 16, seed)  # eight turns: White to place next
    game = state.game
    adapter = adapter_for(state)
    stones, var, owner = adapter.encode(state)
    board = [int(v) for v in stones]
    empty = [c for c, v in enumerate(board) if v == 0]
    var[P.V_TURN] = stone
    params = adapter.params.copy()
    params[P.P_GREEDY] = len(empty)
    params[P.P_END_EMPTY] = len(empty) - 1  # exactly one stone
    n = adapter.n
    logs = np.log(np.maximum(np.arange(n + 2), 1))
    seed_rng(seed)
    greedy_playout(stones, var, owner, params, adapter.rule_arrays().table, logs,
                   np.empty((6, n + 8), dtype=np.int32), np.zeros(4))
    (cell,) = [c for c in empty if stones[c]]
    assert stones[cell] == stone + 1
    neighbours = game.board.neighbours

    def score(cells: list[int]) -> float:
        return sum(math.log(s) for s in group_sizes_reference(cells, neighbours, 2)[stone])

    def gain(at: int) -> float:
        trial = board.copy()
        trial[at] = stone + 1
        return score(trial) - score(board)

    gains = [gain(c) for c in empty]
    wanted = max(gains) if stone == 0 else min(gains)
    assert math.isclose(gain(cell), wanted, abs_tol=1e-9)
    assert len(set(round(g, 9) for g in gains)) > 1  # the choice mattered here


def _search(game: str, greedy: int, **options) -> tuple[str, object]:
    state = ogames.load(game, **options).new_state()
    bot = player("mcts", iterations=400, seed=3, greedy=greedy, reuse=False, nodes=20_000)
    move = bot.choose(state)
    info = bot.info()
    return move, (info.visits, info.value)


@pytest.mark.parametrize("players", [2, 3])
def test_omega_searches_with_greedy_playouts(players: int) -> None:
    plain, greedy = _search("omega", 0, players=players, size=4), _search("omega", 2, players=players, size=4)
    assert plain[1] != greedy[1]  # the same seed, other playouts: the root's statistics differ
    assert _search("omega", 2, players=players, size=4) == greedy  # and still deterministic for a seed


def test_other_games_ignore_the_setting() -> None:
    assert _search("omny", 0, variant="y", size=5) == _search("omny", 4, variant="y", size=5)


@pytest.mark.parametrize("value", ["-1", "65", "x", "1.5"])
def test_a_bad_greedy_is_refused(value: str) -> None:
    with pytest.raises(BadOption, match="greedy"):
        player(f"mcts:greedy={value}")
