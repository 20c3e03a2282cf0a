"""The analysis gate's positions (web/boards/hints.py): a game's positions are every one it has been
through, worked out move by move as from scratch; a position is the same whatever order its
stones were laid in and on a custom board made like the game's, and not the same once a stone
differs."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from conformance.cases import CASES
from ogames.rules import BOARD
from ogames.web.boards.hints import Watched, is_hint, position_key, positions_of

# Every board game's conformance case (the cases follow the registry: a new variant has one), the
# games whose positions the analysis gate keeps.
BOARD_CASES = [case for case in CASES if case.load().played_on == BOARD]
GAMES = [(case.game, case.options) for case in BOARD_CASES]


class Live:
    """Stands for a live game (the gate keeps its positions per game, by identity)."""


def random_game(name: str, options: dict, seed: int, moves: int) -> list[ogames.State]:
    """The positions of a random game, in order."""
    rng = random.Random(seed)
    state = ogames.load(name, **options).new_state()
    states = [state.clone()]
    for _ in range(moves):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("game", GAMES, ids=[case.id for case in BOARD_CASES])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 24))
def test_positions_worked_out_move_by_move_are_those_from_scratch(game: tuple, seed: int, moves: int) -> None:
    states = random_game(*game, seed, moves)
    known = None
    for state in states:
        keys = positions_of(state, known)
        known = (state, keys)
    assert known is not None and known[1] == positions_of(states[-1])
    assert {position_key(state) for state in states} <= known[1]


def test_the_same_stones_in_another_order_or_on_a_copied_board_are_the_same_position_and_one_stone_more_is_not() -> None:
    game = ogames.load("omny", variant="y", size=5)
    one, other = game.new_state(), game.new_state()
    for move in ("c3", "a1", "b2", "e1"):
        one.play(move)
    for move in ("b2", "a1", "c3", "e1"):
        other.play(move)
    assert position_key(one) == position_key(other)
    live = Watched(Live(), one)
    assert is_hint(other, [live])
    later = other.clone()
    later.play("d1")
    assert not is_hint(later, [live])
    assert not is_hint(other, [Watched(Live(), ogames.load("omny", variant="y", size=6).new_state())])
    copied = ogames.load("omny", variant="custom", cells=" ".join(game.board.labels)).new_state()  # the same board
    for move in ("b2", "e1", "c3", "a1"):
        copied.play(move)
    assert is_hint(copied, [live])
