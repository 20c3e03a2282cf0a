"""Load the rules' compiled kernels before the server takes its first move.

numba loads a kernel from its cache the first time it is called, which takes a second or more,
and the hub plays moves on the event loop: the first move after a start would stall every game on
the server while it loads (at 150 games, every first move waited several seconds). So the server
plays one short random game of each browser game and variant, in a thread, before it serves.
"""

from __future__ import annotations

import logging
import random

import ogames
from ogames.rules.protocol import State

log = logging.getLogger("ogames.web")

# One small configuration per distinct rule path: the kernels do not depend on the board's size.
CONFIGURATIONS: tuple[tuple[str, dict[str, object]], ...] = (
    ("omny", {"variant": "y", "size": 4}),
    ("omny", {"variant": "sunder", "size": 3}),
    ("omny", {"variant": "gyre", "size": 3}),
    ("oddy", {"size": 3}),
    ("omega", {"size": 4}),
    ("omega", {"size": 4, "players": 3}),
    ("onyx", {}),
)


def play_out(state: State, rng: random.Random) -> State:
    """Play random legal moves one by one (the server's own path: play, views, result) to the end."""
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        _ = state.scores, state.result
    return state


_warmed = False


def warm_rules() -> None:
    """Play each configuration once per process; a failure is logged, never fatal (the game
    reports it when it is played)."""
    global _warmed
    if _warmed:
        return
    _warmed = True
    rng = random.Random(0)
    for name, options in CONFIGURATIONS:
        try:
            state = play_out(ogames.load(name, **options).new_state(), rng)
            ogames.replay(state.record())
        except Exception as exc:
            log.warning("warming %s %s failed: %s", name, options, exc)


__all__ = ["CONFIGURATIONS", "play_out", "warm_rules"]
