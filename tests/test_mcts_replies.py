"""Last good reply with forgetting in the fill playouts of Odd-Y and Omny (`mcts:replies=on`):
the learning step against a plain reference, the order of answers in a fill (bridge first, then
the remembered reply, then the shuffled order), and a search that uses it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadOption
from ogames.players import mcts_kernel as K
from ogames.players import player
from ogames.players.compiled_mcts import bridge_table


def learn_reference(order: list[int], colours: list[int], replies: list[list[int]], winner: int) -> list[list[int]]:
    """The rule in plain Python: the winner's move after a move becomes its reply to that move;
    a loser's move that was its remembered reply to the move before is forgotten."""
    out = [row[:] for row in replies]
    for k in range(1, len(order)):
        colour, previous, cell = colours[k], order[k - 1], order[k]
        if colour == winner:
            out[colour][previous] = cell
        elif out[colour][previous] == cell:
            out[colour][previous] = -1
    return out


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(2, 30))
def test_learn_replies_follows_the_reference(data, n: int) -> None:
    order = data.draw(st.permutations(list(range(n))))
    first = data.draw(st.integers(0, 1))
    colours = [(first + k) % 2 for k in range(n)]
    cells = st.integers(-1, n - 1)
    replies = [data.draw(st.lists(cells, min_size=n, max_size=n)) for _ in range(2)]
    # A loser's remembered reply that is played again should be forgotten: plant some.
    for k in range(1, n):
        if data.draw(st.booleans()):
            replies[colours[k]][order[k - 1]] = order[k]
    winner = data.draw(st.integers(0, 1))
    stones = np.zeros(n, dtype=np.int8)
    for cell, colour in zip(order, colours, strict=True):
        stones[cell] = colour + 1
    table = np.array(replies, dtype=np.int32)
    K._learn_replies(stones, np.array(order, dtype=np.int32), n, table, winner)
    assert table.tolist() == learn_reference(order, colours, replies, winner)


def positions(order: np.ndarray, n: int) -> np.ndarray:
    where = np.zeros(n, dtype=np.int32)
    for k, c in enumerate(order):
        where[c] = k
    return where


def test_a_fill_answers_the_bridge_first_then_the_reply_then_the_order() -> None:
    board = ogames.load("oddy", sides=3, size=4).board
    at = board.index
    bridges = bridge_table(board)
    n = len(board)
    stones = np.zeros(n, dtype=np.int8)
    stones[[at("a1"), at("b2")]] = 1  # Black's bridge over b1 and a2
    stones[at("b1")] = 2  # White intrudes
    empty = [c for c in range(n) if stones[c] == 0]
    replies = np.full((2, n), -1, dtype=np.int32)
    replies[0, at("b1")] = at("d1")

    def first_stone(reply_on: bool, bridge_bits: int) -> int:
        """Black's stone after White's b1: the first of the fill (`bridge_bits`: the colours that
        save their bridges, bit 0 Black)."""
        order = np.array([c for c in empty if stones[c] == 0], dtype=np.int32)
        where = positions(order, n)
        after = stones.copy()
        cell = K._fill(after, order, where, 0, 1, at("b1"), 0, bridges, bridge_bits, replies, reply_on)
        assert sorted(order.tolist()) == sorted(c for c in empty if stones[c] == 0)
        assert all(where[c] == k for k, c in enumerate(order)) and order[0] == cell
        assert after[cell] == 1 and int(np.count_nonzero(after != stones)) == 1
        return int(cell)

    assert first_stone(True, 3) == at("a2")  # the bridge is saved before any reply
    assert first_stone(True, 1) == at("a2")  # Black's bit is what counts for Black's stone
    assert first_stone(True, 2) == at("d1")  # only White saves bridges: Black's remembered reply
    assert first_stone(True, 0) == at("d1")  # else Black's remembered reply to b1
    assert first_stone(False, 0) == empty[0]  # else the shuffled order
    assert first_stone(False, 2) == empty[0]
    stones[at("d1")] = 2  # a reply on a taken cell is passed over
    assert first_stone(True, 0) == next(c for c in empty if c != at("d1"))


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), size=st.integers(3, 7), density=st.floats(0.0, 0.8), bits=st.integers(1, 3))
def test_a_fill_saves_bridges_as_the_reference_answer_does(seed: int, size: int, density: float, bits: int) -> None:
    """A whole fill with bridges on for the colours in `bits` (both, or one: `opponent=weak`),
    stone by stone against `_bridge_answer` (the readable answer `pattern_points` uses): a stone
    of such a colour is the bridge answer to the one before when there is one, else (and every
    stone of the other colour) the next cell of the shuffled order as it stood."""
    board = ogames.load("oddy", sides=3, size=size).board
    n = len(board)
    rng = np.random.default_rng(seed)
    stones = np.where(rng.random(n) < density, rng.integers(1, 3, n), 0).astype(np.int8)
    empty = np.flatnonzero(stones == 0).astype(np.int32)
    rng.shuffle(empty)
    bridges = bridge_table(board)
    replies = np.full((2, n), -1, dtype=np.int32)
    order = empty.copy()
    filled = stones.copy()
    last = K._fill(filled, order, positions(order, n), 0, len(order), -1, 0, bridges, bits, replies, False)
    assert (filled != 0).all() and (last == order[-1] if len(order) else last == -1)
    # Replay: the reference answer decides each stone, else the earliest cell not yet played in
    # the original order with the answered cells moved up.
    board_now = stones.copy()
    pending = list(empty)
    previous = -1
    for k, cell in enumerate(order):
        turn = k % 2
        answers = previous >= 0 and (bits >> turn) & 1
        expected = K._bridge_answer(board_now, bridges, previous, turn + 1) if answers else -1
        if expected < 0:
            expected = pending[0]
        assert cell == expected
        # The fill swaps the answer with the cell due at this position.
        i = pending.index(cell)
        pending[i] = pending[0]
        pending.pop(0)
        board_now[cell] = turn + 1
        previous = cell


SMALL = [("oddy", {"sides": 3, "size": 6, "pie": False}), ("omny", {"variant": "sunder", "size": 4})]


@pytest.mark.parametrize(("name", "options"), SMALL)
def test_a_search_with_replies_learns_them_and_repeats_for_a_seed(name: str, options: dict) -> None:
    game = ogames.load(name, **options)
    state = game.new_state()
    moves = []
    for _ in range(2):
        bot = player("mcts:replies=on,iterations=3000,seed=5")
        moves.append(bot.choose(state))
        replies = bot._tree["replies"]
        learnt = replies[replies >= 0]
        assert learnt.size > 0 and learnt.max() < len(game.board)
    assert moves[0] == moves[1] and moves[0] in state.legal_moves()
    assert player("mcts").replies is False


def test_replies_is_a_flag() -> None:
    assert player("mcts:replies=on").replies is True
    with pytest.raises(BadOption):
        player("mcts:replies=maybe")
