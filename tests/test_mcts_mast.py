"""Omega's MAST playouts (`mcts:mast=T`, `kernels/omega.step_playout_mast`): each stone drawn with
chances ∝ exp(Q / T), Q its placer's mean reward after placing that colour on that cell earlier
in the search. Judged by the plain references: the board it leaves is a legal end with the
reference's scores and winner; each stone's key names its placer, colour and cell; a cell its
placer has always won with is taken at a low temperature; and a search fills its statistics
with one visit per playout stone."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.kernels.omega import scores_reference, step_mover, step_playout_mast
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.kernel import seed_rng
from ogames.players.mcts.search import CompiledMcts


def _position(players: int, size: int, plies: int, seed: int):
    rng = random.Random(seed)
    state = ogames.load("omega", players=players, size=size).new_state()
    for _ in range(plies):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state


def _run(state, stats: np.ndarray, tau: float, seed: int, tournament: int = 0):
    adapter = adapter_for(state)
    stones, var, owner = adapter.encode(state)
    n = adapter.n
    logs = np.log(np.maximum(np.arange(n + 2), 1))
    work = np.empty((6, max(n + 8, 8)), dtype=np.int32)
    sums = np.zeros(4)
    placed = np.empty(n + 8, dtype=np.int64)
    before = stones.copy()
    mover = step_mover(var, owner)
    seed_rng(seed)
    winner, _, count = step_playout_mast(
        stones, var, owner, adapter.params, adapter.rule_arrays().table, logs, work,
        np.zeros(n, dtype=np.int64), 1, sums, stats, 0, tau, np.empty(16 * n), placed, tournament,
    )
    return before, stones, owner, sums, winner, placed[:count], mover


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([3, 4]),
    plies=st.integers(0, 40),
    tau=st.sampled_from([0.03, 0.1, 1.0]),
    tournament=st.sampled_from([0, 2, 5]),
    seed=st.integers(0, 10**6),
)
def test_a_mast_playout_ends_as_the_references_say(players: int, plies: int, tau: float, tournament: int, seed: int) -> None:
    state = _position(players, 4 if players < 4 else 5, plies, seed)
    if state.is_over:
        return
    game = state.game
    n = len(game.board.labels)
    stats = np.random.default_rng(seed).random(32 * n) * 5  # any learned statistics
    before, stones, owner, sums, winner, keys, mover = _run(state, stats, tau, seed, tournament)
    final = [int(v) for v in stones]
    p = len(game.colours)
    assert all(final[c] == before[c] for c in range(n) if before[c]), "a stone moved"
    assert final.count(0) == game.end_empty
    # One key per stone placed, naming its cell and colour as the final board has them, and the
    # seats in turn: the mover for the rest of its turn, then the holders of the colours in order.
    assert sorted(int(k) % n for k in keys) == [c for c in range(n) if not before[c] and final[c]]
    assert all(final[int(k) % n] == int(k) // n % 4 + 1 for k in keys)
    placers = [int(k) // (4 * n) for k in keys]
    assert placers[0] == mover and set(placers) <= set(range(p))
    scores = scores_reference(final, game.board.neighbours, p)
    assert [round(math.exp(sums[k])) for k in range(p)] == scores
    assert winner == owner[max(range(p), key=lambda k: (scores[k], k))]


def test_a_cell_that_always_won_is_taken_at_a_low_temperature() -> None:
    state = _position(3, 4, 0, 0)
    n = len(state.game.board.labels)
    for cell in (0, 7, n - 1):
        stats = np.zeros(32 * n)
        key = (0 * 4 + 0) * n + cell  # the first seat placing the first colour there
        stats[2 * key], stats[2 * key + 1] = 50.0, 50.0
        _, stones, *_ = _run(state, stats, 0.01, seed=cell)
        assert stones[cell] == 1
    # A tournament of many cells takes it too, once it is among them (drawn with repeats).
    stats = np.zeros(32 * n)
    stats[2 * 7], stats[2 * 7 + 1] = 50.0, 50.0
    firsts = [int(_run(state, stats, 0.1, seed, tournament=64)[5][0]) for seed in range(20)]
    assert firsts.count(7) >= 10  # about 17 in 20 on these 37 cells; a uniform draw, 1 in 37
    # At a high temperature the draw is near uniform: the favoured cell is not always first.
    taken = 0
    for seed in range(40):
        stats = np.zeros(32 * n)
        stats[0], stats[1] = 50.0, 50.0
        *_, keys, _ = _run(state, stats, 100.0, seed)
        taken += int(keys[0]) == 0
    assert taken < 20


def test_a_search_counts_every_playout_stone_once() -> None:
    state = _position(3, 4, 6, 1)
    player = CompiledMcts(iterations=400, seed=3, mast=0.1, expand=1000, rave=False, reuse=False)
    adapter = adapter_for(state)
    searched = []
    own = player._search_params

    def kept(*args):
        params, fparams = own(*args)
        searched.append(fparams)
        return params, fparams

    player._search_params = kept  # type: ignore[method-assign]
    player.choose(state)
    (fparams,) = searched
    n = adapter.n
    assert fparams.shape[0] == K.NFPARAMS + 32 * n and fparams[K.FP_MAST] == 0.1
    # Only the root expands (expand=1000): each iteration plays one stone of the tree, then its
    # playout places the rest down to the end's empty cells, each stone counted once.
    stats = fparams[K.NFPARAMS :]
    empty = sum(1 for v in adapter.encode(state)[0] if v == 0)
    assert stats[1::2].sum() == 400 * (empty - 1 - state.game.end_empty)
    assert np.all(stats[0::2] <= stats[1::2] + 1e-9)
    # Two players: no MAST, no statistics.
    two = _position(2, 4, 0, 0)
    _, plain = own(two, adapter_for(two))
    assert plain.shape[0] == K.NFPARAMS and plain[K.FP_MAST] == 0.0
