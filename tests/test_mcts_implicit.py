"""The `implicit` setting (implicit minimax backups, Omega with three or four players): each new
child is valued by every seat's share of the scores after its stone, those values are backed up
the tree by max^n, and selection blends them in. Checked against the rules' own scores, the
max^n invariant over whole trees, and left off everywhere else."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ogames
from ogames.kernels.omega import scores_reference
from ogames.players import player
from ogames.players.mcts import kernel as K


def _position(players: int, size: int, plies: int, seed: int):
    game = ogames.load("omega", players=players, size=size)
    state = game.new_state()
    rng = random.Random(seed)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
    return state


def _searched(state, implicit: float, iterations: int = 400, **more):
    bot = player("mcts", iterations=iterations, seed=5, implicit=implicit, **more)
    bot.choose(state)
    return bot, bot._trees[0]


def _shares(stones, neighbours, owner, seats: int, power: float = 1.0) -> list[float]:
    """Every seat's share of the scores, score^power over the sum, from the rules' exact scores."""
    scores = scores_reference(stones, neighbours, seats)
    top = max(scores)
    weights = [(score / top) ** power for score in scores]
    shares = [0.0] * seats
    for colour, weight in enumerate(weights):
        shares[owner[colour]] = weight / sum(weights)
    return shares


@pytest.mark.parametrize("players,size,plies,power", [(3, 4, 7, 1.0), (3, 5, 20, 1.0), (4, 5, 9, 0.5)])
def test_children_are_valued_by_the_score_shares_after_their_stone(players, size, plies, power):
    state = _position(players, size, plies, seed=players + plies)
    _, tree = _searched(state, 0.3, iterations=200, share_power=power)
    ints, floats = tree.ints, tree.floats
    seats = players
    assert floats.shape[1] == K.F_W + 2 * seats
    board = state.board
    owner = [state.owner[colour] for colour in state.game.colours]
    colour = state.stone_index
    first, count = ints[0, K.I_FIRST], ints[0, K.I_NCHILD]
    assert count == state.empty_count
    leaves = [child for child in range(first, first + count) if ints[child, K.I_FIRST] < 0]
    assert len(leaves) >= 10  # (an expanded child holds its best child's value instead)
    for child in leaves:
        stones = [int(v) for v in state.stones]
        stones[ints[child, K.I_MOVE]] = colour + 1
        expected = _shares(stones, board.neighbours, owner, seats, power)
        assert list(floats[child, K.F_W + seats: K.F_W + 2 * seats]) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("players,seed", [(3, 1), (3, 2), (4, 3)])
def test_every_expanded_node_holds_its_best_childs_value(players, seed):
    """max^n: a node's implicit value is that of its child best for the seat deciding there."""
    state = _position(players, 5, 6, seed)
    _, tree = _searched(state, 0.5, iterations=3000)
    ints, floats = tree.ints, tree.floats
    seats = players
    checked = 0
    for node in range(int(tree.meta[K.M_COUNT])):
        first = ints[node, K.I_FIRST]
        if first < 0:
            continue
        kids = range(first, first + ints[node, K.I_NCHILD])
        column = K.F_W + seats + ints[node, K.I_SEAT]
        best = max(floats[child, column] for child in kids)
        assert floats[node, column] == best
        assert sum(floats[node, K.F_W + seats: K.F_W + 2 * seats]) == pytest.approx(1.0)
        checked += 1
    assert checked > 20  # the tree went deeper than the root


def test_it_steers_the_search() -> None:
    """With all the weight on it, the most visited move is the stone best for the mover by the
    shares: here the largest own gain."""
    state = _position(3, 4, 9, seed=11)  # White to place its own (white) stone
    assert state.stone_index == 0 and state.mover == state.owner["white"]
    bot, tree = _searched(state, 1.0, iterations=2000)
    ints, floats = tree.ints, tree.floats
    seat = state.mover
    first, count = ints[0, K.I_FIRST], ints[0, K.I_NCHILD]
    values = {int(ints[c, K.I_MOVE]): floats[c, K.F_W + 3 + seat] for c in range(first, first + count)}
    best = max(values.values())
    chosen = state.board.index(bot.last.move)
    assert values[chosen] == pytest.approx(best)


@pytest.mark.parametrize("name,options", [("omega", {"players": 2, "size": 4}), ("omny", {"variant": "y", "size": 4})])
def test_off_outside_multi_player_omega(name, options) -> None:
    state = ogames.load(name, **options).new_state()
    on, tree_on = _searched(state, 0.5, iterations=300)
    off, tree_off = _searched(state, 0.0, iterations=300)
    assert tree_on.floats.shape[1] == tree_off.floats.shape[1] == K.F_W + 2
    assert on.last.move == off.last.move  # the same search, seed for seed


def test_off_by_default_changes_nothing() -> None:
    state = _position(3, 5, 4, seed=2)
    plain, tree = _searched(state, 0.0, iterations=500)
    assert tree.floats.shape[1] == K.F_W + 3
    again, _ = _searched(state, 0.0, iterations=500)
    assert plain.last.move == again.last.move
    with pytest.raises(Exception, match="implicit"):
        player("mcts:implicit=2")


def test_the_shares_reference_sums_to_one() -> None:
    state = _position(3, 4, 5, seed=4)
    owner = [state.owner[c] for c in state.game.colours]
    shares = _shares([int(v) for v in state.stones], state.board.neighbours, owner, 3)
    assert sum(shares) == pytest.approx(1.0) and np.all(np.array(shares) > 0)
