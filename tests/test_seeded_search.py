"""Seeded searches and playouts pinned move for move.

The compiled kernels share helpers (the board-array tuple of `mcts_kernel`, the shuffled fill of
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
# search settings) -> (move, its visits, nodes)
SEARCHES = [
    ("omny", {"variant": "y", "size": 5}, 4, 104, {"decisive": True}, ("c2", 623, 485)),
    ("omny", {"variant": "sunder", "size": 3}, 1, 201, {}, ("c3", 1406, 1818)),
    ("oddy", {"sides": 3, "size": 5}, 4, 104, {"rave": False, "bridges": False}, ("c2", 195, 644)),
    # The swap open at the root: as a move of the tree (pinned before the shared pie), and shared.
    ("oddy", {"sides": 3, "size": 4, "board": "polar"}, 1, 101, {"decisive": True, "swap": "move"}, ("b3-0", 196, 694)),
    ("oddy", {"sides": 3, "size": 4, "board": "polar"}, 1, 101, {"decisive": True}, ("swap", 295, 661)),
    ("omega", {"players": 3, "size": 4, "pie": True}, 1, 101, {"reward": "rank"}, ("d4", 95, 1297)),
    ("omega", {"players": 4, "size": 4}, 4, 104, {"reward": "paranoid"}, ("b3", 101, 1090)),
    ("onyx", {}, 4, 104, {"captures": True}, ("j1*", 16, 1792)),
]


def _position(name: str, options: dict, plies: int, seed: int):
    state = ogames.load(name, **options).new_state()
    rng = random.Random(seed)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state


@pytest.mark.parametrize(("name", "options", "plies", "seed", "settings", "expected"), SEARCHES)
def test_a_seeded_search_chooses_as_pinned(name, options, plies, seed, settings, expected) -> None:
    state = _position(name, options, plies, seed)
    bot = player("mcts", iterations=3000 if not settings else 1200, seed=seed // 100, **settings)
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
