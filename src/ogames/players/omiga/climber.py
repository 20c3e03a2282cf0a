"""The climber: Omiga's simple turn-based bot (toddler, kids played in turns), shared by the
terminal and the web so that both faces seat the same opponent."""

from __future__ import annotations

import random

from ogames.rules.omiga.turn_based import TurnCardState
from ogames.rules.protocol import State


def climber_move(state: State, rng: random.Random) -> str:
    """The placement that climbs furthest towards the far edge (ties broken at random), else any
    legal move; in zen, any legal move."""
    moves = state.legal_moves()
    places = [m for m in moves if m.startswith("place")]
    if not places or state.game.options["variant"] == "zen":
        return rng.choice(moves)
    if not isinstance(state, TurnCardState) or state.to_move is None:
        raise TypeError(f"the climber climbs in a turn-based Omiga game under way, not in {type(state).__name__}")
    table, colour = state.table, state.to_move
    far = table.far_row(colour)
    return min(places, key=lambda m: (abs(far - table.position(table.cell(m.split()[1]))[1]), rng.random()))


__all__ = ["climber_move"]
