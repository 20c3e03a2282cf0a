"""The exact solvers the puzzles stand on, each against a plain reference: Omega's endgame solver
against minimax over the rules' own `play`, Onyx's connecting points against the rules placing
every stone, and Onyx's short wins against the rules on positions built by hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import CannotPlay
from ogames.players.solvers import omega_endgame, onyx_tactics
from ogames.rules.omega import OmegaState
from ogames.rules.onyx import OnyxState


def _omega_position(seed: int, empty: int, size: int = 4) -> OmegaState:
    state = ogames.load("omega", size=size).new_state()
    rng = random.Random(seed)
    while state.empty_count > empty:
        state.play(rng.choice(state.legal_moves()), t=0.0)
    assert isinstance(state, OmegaState)
    return state


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), empty=st.integers(2, 8), extra=st.booleans())
def test_omega_move_values_agree_with_minimax_over_the_rules(seed: int, empty: int, extra: bool) -> None:
    state = _omega_position(seed, empty)
    if extra and not state.is_over:  # also positions between a turn's two stones
        state.play(state.legal_moves()[0], t=0.0)
    if state.is_over:
        return
    values = omega_endgame.move_values(state)
    decider = state.player_colour
    for move in state.legal_moves():
        child = state.clone()
        child.play(move, t=0.0)
        expected = "win" if omega_endgame.winner_reference(child) == decider else "loss"
        assert values[move] == expected, (seed, empty, move)
    verdict = omega_endgame.solve(state)
    assert verdict.value == ("win" if "win" in values.values() else "loss")
    assert verdict.move is None or values[verdict.move] == "win"


def test_omega_solver_refuses_what_it_does_not_play() -> None:
    with pytest.raises(CannotPlay, match="two-player"):
        omega_endgame.solve(ogames.load("omega", players=3, size=4).new_state())  # type: ignore[arg-type]
    with pytest.raises(CannotPlay, match="at most"):
        omega_endgame.solve(ogames.load("omega", size=4).new_state())  # type: ignore[arg-type]


def test_omega_budget_runs_out_to_unknown() -> None:
    state = _omega_position(5, 15, size=5)
    assert omega_endgame.solve(state, budget=10).value == "unknown"


def _onyx_position(seed: int, plies: int) -> OnyxState:
    state = ogames.load("onyx").new_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            state.undo()
            break
        state.play(rng.choice(state.legal_moves()), t=0.0)
    if state.is_over:
        state.undo()
    assert isinstance(state, OnyxState)
    return state


@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 260))
def test_onyx_threats_are_the_points_where_the_rules_say_a_stone_connects(seed: int, plies: int) -> None:
    state = _onyx_position(seed, plies)
    position = onyx_tactics.Position.of(state)
    labels = state.board.labels
    for value, colour in ((1, "black"), (2, "white")):
        assert sorted(labels[c] for c in position.threats(value)) == sorted(onyx_tactics.threats_reference(state, colour))


def _onyx_with(black: list[str], white: list[str], to_move: str) -> OnyxState:
    state = ogames.load("onyx").new_state()
    assert isinstance(state, OnyxState)
    state.stones[:] = 0
    for colour, cells in ((1, black), (2, white)):
        for label in cells:
            state.stones[state.board.index(label)] = colour
    state.turn = 0 if to_move == "black" else 1
    return state


ROW = [f"{c}5" for c in "abcdefghijkl"]


def test_onyx_win_in_one_and_a_block_that_wins_in_two() -> None:
    # Black's row 5 lacks only f5: a win in one for Black.
    state = _onyx_with([r for r in ROW if r != "f5"], [], "black")
    position = onyx_tactics.Position.of(state)
    assert [state.board.labels[c] for c in position.threats(1)] == ["f5"]
    assert onyx_tactics.move_wins(position, state.board.index("f5"), 1)
    # White to move must block f5 or lose at once; every other point loses within one Black stone.
    state.turn = 1
    position = onyx_tactics.Position.of(state)
    assert onyx_tactics.move_loses(position, state.board.index("a1"), 1)
    assert not onyx_tactics.move_loses(position, state.board.index("f5"), 1)


def test_onyx_double_threat_wins_in_two_and_single_threat_does_not() -> None:
    # Black holds row 5 but for e5 and h5: whatever White blocks, Black fills the other? No: both are needed.
    both = _onyx_with([r for r in ROW if r not in ("e5", "h5")], [], "black")
    position = onyx_tactics.Position.of(both)
    assert not onyx_tactics.wins_within(position, 1)
    # With e5 played Black threatens only h5 (and its detours), which White can answer.
    labels = both.board.labels
    wins = {labels[c] for c in onyx_tactics.winning_moves_within(position, 2)}
    for label in wins:
        after, _ = position.after(both.board.index(label))
        assert len(after.threats(1)) >= 1
    assert onyx_tactics.wins_within(position, 2) == bool(wins)
