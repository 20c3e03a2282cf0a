"""Seeded searches and playouts pinned move for move.

The compiled kernels share helpers (the board-array tuple of `kernels/step.py`, the shuffled fill of
`kernels/oddy.py`, the empty-cell bag of `kernels/onyx.py`); folding code into them must not
change a single random draw. These values were recorded before such a refactor and held after
it. A deliberate change to the search or a playout's distribution will move them: re-pin them then,
saying why in the commit.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import ogames
from ogames.players import player

# (game, options, random plies before the search, position seed (the search's seed is its hundreds),
# iterations, search settings) -> (move, its visits, nodes). Recorded before the search became the
# `players/mcts/` package; the positions of the pins that used settings retired then (decisive,
# swap=move, reward, captures) are pinned at the defaults, recorded with the code before the move.
SEARCHES = [
    ("omny", {"variant": "y", "size": 5}, 4, 104, 1200, {}, ("c2", 660, 476)),
    ("omny", {"variant": "sunder", "size": 3}, 1, 201, 3000, {}, ("c3", 1406, 1818)),
    ("oddy", {"sides": 3, "size": 5}, 4, 104, 1200, {"rave": False, "bridges": False}, ("c2", 195, 644)),
    # The swap open at the root, judged by colour.
    ("oddy", {"sides": 3, "size": 4, "board": "polar"}, 1, 101, 1200, {}, ("swap", 295, 661)),
    ("omega", {"players": 3, "size": 4, "pie": True}, 1, 101, 1200, {}, ("d7", 83, 1297)),
    ("omega", {"players": 4, "size": 4}, 4, 104, 1200, {}, ("b3", 101, 1090)),
    ("omega", {"players": 2, "size": 4}, 3, 303, 3000, {}, ("a4", 269, 2405)),
    ("onyx", {}, 4, 104, 1200, {}, ("g10*", 11, 3044)),
    # Root parallelism, and the opponent modelled weak with the move drawn by temperature.
    ("omny", {"variant": "sunder", "size": 3, "pie": True}, 0, 402, 1200, {"workers": 2}, ("b2", 105, 721)),
    ("oddy", {"sides": 3, "size": 5}, 2, 505, 1200, {"opponent": "weak", "temperature": 0.5}, ("b3", 558, 567)),
]


def _position(name: str, options: dict, plies: int, seed: int):
    state = ogames.load(name, **options).new_state()
    rng = random.Random(seed)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state


@pytest.mark.parametrize(("name", "options", "plies", "seed", "iterations", "settings", "expected"), SEARCHES)
def test_a_seeded_search_chooses_as_pinned(name, options, plies, seed, iterations, settings, expected) -> None:
    state = _position(name, options, plies, seed)
    bot = player("mcts", iterations=iterations, seed=seed // 100, **settings)
    move = bot.choose(state.clone())
    info = bot.info()
    assert (move, info["visits"], info["nodes"]) == expected


@pytest.mark.parametrize(
    ("seed", "winner", "length", "digest"),
    [(1, "white", 158, "3fef4f9e450c3636"), (2, "white", 146, "22533761187fc373"), (3, "black", 109, "d48a7ac6635c3e42")],
)
def test_an_onyx_playout_plays_as_pinned(seed: int, winner: str, length: int, digest: str) -> None:
    state = ogames.load("onyx").new_state()
    got, moves = state.kernel_playout(seed)
    assert (got, len(moves), hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16]) == (winner, length, digest)
