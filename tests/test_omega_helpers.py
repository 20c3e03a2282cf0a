"""Shared helpers for the Omega tests (no tests here): hand-built positions and snapshots."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np

import ogames
from ogames.rules.omega import OmegaState

# The seed's 4-player endgame on side 5 (12 stones each, 13 cells empty), groups built to the
# seed's shapes: White 1·2·2·4·3 = 48, Black 1·4·7 = 28, Red 1·5·2·4 = 40, Blue 6·2·3·1 = 36.
SEED_ENDGAME: dict[str, list[list[str]]] = {
    "white": [["a9"], ["e9", "e8"], ["a7", "a6"], ["e1", "d2", "d3", "c3"], ["h6", "h5", "g5"]],
    "black": [["b9"], ["c5", "b5", "c4", "d4"], ["g2", "f3", "h1", "f2", "h2", "h3", "g3"]],
    "red": [["a5"], ["f1", "g1", "e2", "e3", "e4"], ["d7", "c8"], ["i2", "i1", "i3", "h4"]],
    "blue": [["c6", "c7", "b7", "d6", "d5", "e5"], ["i5", "i4"], ["g6", "f7", "e7"], ["g4"]],
}
SEED_SCORES = {"white": 48, "black": 28, "red": 40, "blue": 36}


def cells_of(groups: dict[str, list[list[str]]]) -> dict[str, list[str]]:
    """Every colour's labels, flattened."""
    return {colour: [label for group in gs for label in group] for colour, gs in groups.items()}


def set_stones(state: OmegaState, groups: dict[str, list[list[str]]]) -> None:
    """Put stones straight on the board (for scoring tests that need no turn order)."""
    for colour, labels in cells_of(groups).items():
        value = state.game.colours.index(colour) + 1
        for label in labels:
            state.stones[state.board.index(label)] = value


def play_position(state: OmegaState, groups: dict[str, list[list[str]]]) -> OmegaState:
    """Reach a position through the API: turn i places every colour's i-th stone (counts must be equal)."""
    per_colour = cells_of(groups)
    order = [per_colour[c] for c in state.game.colours]
    for turn in zip(*order, strict=True):
        for label in turn:
            state.play(label, t=0)
    return state


def snapshot(state: OmegaState) -> tuple[Any, ...]:
    """Everything a failed move must leave unchanged."""
    return (
        state.stones.tobytes(),
        copy.deepcopy(state.history),
        dict(state.owner),
        state.stone_index,
        state.turn_colour,
        state.pie_seat,
        state.played,
        state.game_number,
        state.result,
        len(state.finished),
    )


def random_game(seed: int, *, stop: int | None = None, **options: Any) -> OmegaState:
    """A game of uniformly random legal moves (swaps included), to the end or `stop` placements."""
    rng = random.Random(seed)
    state = ogames.load("omega", **options).new_state()
    moves = 0
    while not state.is_over and (stop is None or moves < stop):
        state.play(rng.choice(state.legal_moves()), t=float(moves))
        moves += 1
    return state


def first_empty_game(**options: Any) -> OmegaState:
    """A game filled in cell order (deterministic, fast)."""
    state = ogames.load("omega", **options).new_state()
    while not state.is_over:
        cell = int(np.flatnonzero(state.stones == 0)[0])
        state.play(state.board.labels[cell], t=0)
    return state


def last_turn(seed: int) -> OmegaState:
    """A three-player game on hexagon 4 played at random up to the last turn (4 empty cells, the
    third seat to place its three stones and end the game)."""
    state = ogames.load("omega", players=3, size=4).new_state()
    rng = random.Random(seed)
    while len(state.legal_moves()) > 4:
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state
