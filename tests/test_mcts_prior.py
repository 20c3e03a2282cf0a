"""The search's prior (`mcts:prior=M`, with RAVE): each new child of an Omega node starts with M
virtual AMAF visits, valued by the rank of what its stone adds at once to the score of the seat
placing it (`kernels/omega.stone_gains`, through `kernels/step.prior_gains`). Judged by the
plain reference's group sizes, and the plumbing by seeded searches."""

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
from ogames.kernels.omega import group_sizes_reference
from ogames.players import player
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import adapter_for


def _position(players: int, plies: int, seed: int):
    rng = random.Random(seed)
    state = ogames.load("omega", players=players, size=4).new_state()
    for _ in range(plies):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), plies=st.integers(0, 30), seed=st.integers(0, 10**6))
def test_each_moves_gain_is_the_references(players: int, plies: int, seed: int) -> None:
    """A stone's gain is the change of its colour's sum of log group sizes, for the placer's own
    colour, and its negative for another seat's colour."""
    state = _position(players, plies, seed)
    if state.is_over:
        return
    adapter = adapter_for(state)
    stones, var, owner = adapter.encode(state)
    n = adapter.n
    moves = np.array([c for c in range(n) if stones[c] == 0], dtype=np.int32)
    out = np.zeros(len(moves))
    logs = np.log(np.maximum(np.arange(n + 2), 1))
    work = np.empty((6, n + 8), dtype=np.int32)
    assert step.prior_gains(stones, var, owner, adapter.params, adapter.rule_arrays(), logs, work, moves,
                            len(moves), np.zeros(4), out)
    board = [int(v) for v in stones]
    colour = int(var[P.V_TURN])
    mine = state.owner[state.game.colours[colour]] == state.mover
    neighbours = state.game.board.neighbours
    colours = len(state.game.colours)

    def log_score(cells: list[int]) -> float:
        return sum(math.log(s) for s in group_sizes_reference(cells, neighbours, colours)[colour])

    for cell, got in zip(moves, out, strict=True):
        trial = board.copy()
        trial[cell] = colour + 1
        gain = log_score(trial) - log_score(board)
        assert got == pytest.approx(gain if mine else -gain, abs=1e-9)


def test_other_games_offer_no_prior() -> None:
    state = ogames.load("omny", variant="y", size=5).new_state()
    adapter = adapter_for(state)
    stones, var, owner = adapter.encode(state)
    moves = np.arange(adapter.n, dtype=np.int32)
    out = np.full(adapter.n, 7.0)
    assert not step.prior_gains(stones, var, owner, adapter.params, adapter.rule_arrays(),
                                np.zeros(adapter.n + 2), np.empty((6, adapter.n + 8), dtype=np.int32), moves,
                                adapter.n, np.zeros(4), out)
    assert (out == 7.0).all()


def test_the_prior_ranks_children_around_the_parents_mean() -> None:
    ints = np.zeros((5, K.NI), dtype=np.int64)
    floats = np.zeros((5, K.F_W + 3))
    ints[0, K.I_FIRST], ints[0, K.I_NCHILD], ints[0, K.I_SEAT] = 1, 4, 2
    floats[0, K.F_N], floats[0, K.F_W + 2] = 8.0, 4.0  # the side to move has won half
    gains = np.array([0.0, 1.0, 0.5, -1.0])
    K._give_prior(ints, floats, 0, gains, 4, 10.0)
    values = floats[1:5, K.F_RW] / floats[1:5, K.F_RN]
    assert floats[1:5, K.F_RN].tolist() == [10.0] * 4
    assert values == pytest.approx([0.5 + 0.2 * (0.5 - 0.5), 0.6, 0.5 + 0.2 * (0.75 - 0.5), 0.4])
    same = np.zeros((5, K.F_W + 3))
    same[0] = floats[0]
    K._give_prior(ints, same, 0, np.zeros(4), 4, 10.0)  # nothing to tell the moves apart: no prior
    assert (same[1:5] == 0).all()


def _search(game: str, spec: str, **options) -> tuple[str, object]:
    state = ogames.load(game, **options).new_state()
    for move in state.legal_moves()[:6:2] if game == "omega" else ():
        state.play(move, t=0.0)
    bot = player(f"mcts:{spec}", iterations=400, seed=3, reuse=False, nodes=20_000)
    move = bot.choose(state)
    info = bot.info()
    return move, (info.visits, info.value)


def test_omega_searches_with_the_prior() -> None:
    plain, seeded = _search("omega", "prior=0", players=3, size=4), _search("omega", "prior=30", players=3, size=4)
    assert plain[1] != seeded[1]
    assert _search("omega", "prior=30", players=3, size=4) == seeded


def test_the_prior_needs_rave_and_omega() -> None:
    assert _search("omega", "rave=off,prior=0", players=3, size=4) == _search("omega", "rave=off,prior=30", players=3, size=4)
    assert _search("omny", "prior=0", variant="y", size=5) == _search("omny", "prior=30", variant="y", size=5)


@pytest.mark.parametrize("value", ["-1", "20000", "x", "nan"])
def test_a_bad_prior_is_refused(value: str) -> None:
    with pytest.raises(BadOption, match="prior"):
        player(f"mcts:prior={value}")
