"""The pie shared by colour in the compiled search (`players/mcts/kernel.py`, "The pie"): the
nodes' flags follow the rules, the opening is valued for the swap it will meet, the swap is judged
on the position's own subtree, proofs cross the pie point, and the tree is kept through a swap."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ogames
from ogames.errors import BadOption
from ogames.kernels import layout as P
from ogames.players import player
from ogames.players.mcts import CompiledMcts
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import Adapter, adapter_for
from ogames.players.mcts.tree import kept_or_new

# Every way a two-seat stone game opens the swap.
PIE_GAMES = [
    ("oddy", {"sides": 3, "size": 4}),
    ("oddy", {"sides": 5, "size": 3}),
    ("onyx", {"pie": True}),
    ("omny", {"variant": "sunder", "size": 3, "pie": True}),
    ("omny", {"variant": "y", "size": 4, "komi_choice": True}),
    ("omny", {"variant": "y", "size": 4, "komi_choice": True, "pie": True}),
]


def play_all(state, moves: str):
    for move in moves.split():
        state.play(move, t=0.0)
    return state


def _flags(state, adapter: Adapter, params: np.ndarray) -> int:
    ints = np.zeros((1, K.NI), dtype=np.int32)
    floats = np.zeros((1, K.F_W + 2))
    _, var, owner = adapter.encode(state)
    K.init_root(ints, floats, np.zeros(2, dtype=np.int64), var, owner, params)
    return int(ints[0, K.I_FLAGS])


@pytest.mark.parametrize(("name", "options"), PIE_GAMES, ids=lambda v: str(v))
def test_node_flags_follow_the_rules(name, options) -> None:
    """Along random games: a node is a colour node from the pie point on; the swap is open at it
    exactly when the rules allow `swap`; a seat node is marked when every move from it opens
    the swap."""
    game = ogames.load(name, **options)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state()
        adapter = adapter_for(state)
        params = adapter.params.copy()
        params[P.P_SHARED] = 1
        for _ in range(4):
            flags = _flags(state, adapter, params)
            legal = state.legal_moves()
            assert bool(flags & K.FL_PIE) == ("swap" in legal)
            after = []
            for move in legal:
                child = state.clone()
                child.play(move, t=0.0)
                after.append(child.is_over or "swap" in child.legal_moves())
            if flags & K.FL_COLOUR:
                assert not flags & K.FL_KIDS_PIE
            else:
                assert "swap" not in legal
                assert bool(flags & K.FL_KIDS_PIE) == all(after)
            state.play(rng.choice(legal), t=0.0)
            if state.is_over:
                break
        # Without the shared pie every node is a seat node with no flags.
        assert _flags(state if not state.is_over else game.new_state(), adapter, adapter.params) == 0


def test_the_opening_is_valued_for_the_swap_it_meets() -> None:
    """With the pie rule the first stone is worth at most a half to the first seat (the second
    takes whichever colour is better), so the search looks for a balanced opening; without the
    pie rule the Game of Y is a first-player win and the search sees it."""
    pie = ogames.load("oddy", sides=3, size=5).new_state()
    bot = CompiledMcts(iterations=20_000, seed=2)
    bot.choose(pie)
    assert bot.info()["value"] <= 0.5
    no_pie = ogames.load("oddy", sides=3, size=5, pie=False).new_state()
    bot = CompiledMcts(iterations=20_000, seed=2)
    bot.choose(no_pie)
    assert bot.info()["value"] > 0.6


def test_the_swap_is_judged_on_the_position() -> None:
    """After a centre stone the second seat swaps, after a corner it plays on; the swap is no
    child of the shared tree."""
    centre = play_all(ogames.load("oddy", sides=3, size=5).new_state(), "c2")
    bot = CompiledMcts(iterations=20_000, seed=1)
    assert bot.choose(centre) == "swap"
    info = bot.info()
    assert info["pv"][0] == "swap" and len(info["pv"]) > 1 and info["value"] > 0.5
    ints = bot._trees[0].ints
    first, count = ints[0, K.I_FIRST], ints[0, K.I_NCHILD]
    n = len(centre.game.board)
    assert n not in ints[first : first + count, K.I_MOVE]
    two = CompiledMcts(iterations=20_000, seed=1, workers=2)  # the workers' merged root decides alike
    assert two.choose(centre) == "swap" and two.info()["pv"][0] == "swap"
    corner = play_all(ogames.load("oddy", sides=3, size=5).new_state(), "a1")
    bot = CompiledMcts(iterations=20_000, seed=1)
    assert bot.choose(corner) != "swap"
    assert bot.info()["value"] > 0.5


def test_proofs_cross_the_pie_point() -> None:
    """On Y 3 every first stone is decided, so with the pie rule the first seat has lost whatever
    it plays, and after a winning stone the second seat's swap is a proven win."""
    game = ogames.load("oddy", sides=3, size=3)
    bot = CompiledMcts(iterations=50_000, seed=1, solver=True)
    bot.choose(game.new_state())
    assert bot.info()["proven"] == "loss" and bot.info()["value"] == 0.0
    winning = play_all(game.new_state(), "b2")
    bot = CompiledMcts(iterations=50_000, seed=1, solver=True)
    assert bot.choose(winning) == "swap"
    assert bot.info()["proven"] == "win" and bot.info()["value"] == 1.0


def test_the_tree_is_kept_through_a_swap() -> None:
    """The position after `swap` is the position before it: the search continues in the same
    subtree, and the swap is no longer offered at its root."""
    state = play_all(ogames.load("oddy", sides=3, size=5).new_state(), "c2")
    bot = CompiledMcts(iterations=20_000, seed=1)
    assert bot.choose(state) == "swap"
    state.play("swap", t=0.0)
    reply = player("mcts", iterations=500, seed=5).choose(state)
    state.play(reply, t=0.0)
    move = bot.choose(state)
    assert move in state.legal_moves()
    assert bot.info()["reused"] > 0
    # Re-rooted at the swap itself (the opponent's turn after it), the root offers no swap.
    fresh = play_all(ogames.load("oddy", sides=3, size=5).new_state(), "c2")
    keeper = CompiledMcts(iterations=5_000, seed=1)
    keeper.choose(fresh)
    fresh.play("swap", t=0.0)
    adapter = adapter_for(fresh)
    params = keeper._search_params(fresh, adapter)[0]
    tree = kept_or_new(fresh, adapter, keeper._trees[0], params, keeper.settings["nodes"], reuse=True)
    assert tree.reused > 0 and not tree.ints[0, K.I_FLAGS] & K.FL_PIE


def test_the_komi_choice_is_valued_for_the_sides_it_offers() -> None:
    """Omny's komi choice without pie: the second seat then picks its colour, so the komi is worth
    at most a half to the first seat; with the swap answered, the game goes on."""
    state = ogames.load("omny", variant="y", size=4, komi_choice=True).new_state()
    bot = CompiledMcts(iterations=5_000, seed=1)
    move = bot.choose(state)
    assert move.startswith("komi=") and bot.info()["value"] <= 0.5
    state.play(move, t=0.0)
    answer = CompiledMcts(iterations=5_000, seed=1).choose(state)
    assert answer in state.legal_moves()


def test_the_retired_swap_setting_is_refused_with_its_reason() -> None:
    for make in (lambda: CompiledMcts(swap="move"), lambda: player("mcts:swap=move")):
        with pytest.raises(BadOption, match="setting swap was retired: the pie is always judged by colour"):
            make()
