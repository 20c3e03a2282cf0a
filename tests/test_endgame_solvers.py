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


def test_onyx_win_in_one_and_the_only_block() -> None:
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


def _wins_in_two_by_the_rules(state: OnyxState, move: str) -> bool:
    """Reference for `move_wins(…, 2)`: the move, then every reply the rules allow (not only those
    the solver deems able to spoil), each followed by a check for a connecting point."""
    mover = state.to_move
    after = state.clone()
    after.play(move, t=0.0)
    if after.is_over:
        return after.result is not None and after.result.winner == mover
    for reply in after.legal_moves():
        answered = after.clone()
        answered.play(reply, t=0.0)
        if answered.is_over or not onyx_tactics.Position.of(answered).threats(answered.turn + 1):
            return False
    return True


@pytest.mark.parametrize("seed", [3, 8])
def test_onyx_wins_in_two_agree_with_every_reply_played_by_the_rules(seed: int) -> None:
    two_gaps = _onyx_with([r for r in ROW if r not in ("e5", "h5")], [], "black")
    played = _onyx_position(seed, 150)
    for state in (two_gaps, played):
        position = onyx_tactics.Position.of(state)
        moves = sorted(position.open_points(), key=lambda c: -len(position.after(c)[0].threats(position.colour)))[:6]
        for cell in moves:
            label = state.board.labels[cell]
            assert onyx_tactics.move_wins(position, cell, 2) == _wins_in_two_by_the_rules(state, label), label
