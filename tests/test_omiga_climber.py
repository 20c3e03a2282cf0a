"""The climber, Omiga's simple turn-based bot: always a legal move, the placement nearest the far
edge when it can place, and a whole toddler game played to its end by climbers."""

from __future__ import annotations

import random

from ogames.players.omiga.climber import climber_move
from ogames.rules import load


def distance_to_far_row(state, move: str) -> float:
    table = state.table
    return abs(table.far_row(state.to_move) - table.position(table.cell(move.split()[1]))[1])


def test_climbers_play_legal_moves_that_climb_furthest_to_the_end() -> None:
    for seed in range(3):
        state = load("omiga", variant="toddler", seed=seed, players=3).new_state()
        rng = random.Random(seed)
        plies = 0
        while not state.is_over and plies < 2000:
            legal = state.legal_moves()
            move = climber_move(state, rng)
            assert move in legal
            places = [m for m in legal if m.startswith("place")]
            if places:
                assert distance_to_far_row(state, move) == min(distance_to_far_row(state, m) for m in places)
            state.play(move)
            plies += 1
        assert state.is_over, "climbers finish a toddler game"
