"""The exact last two turns of three- and four-player Omega (`players/solvers/omega_last_turns.py`):
the compiled kernels against plain brute force over every placement and every reply, and the
search's `endgame` setting that plays them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadOption
from ogames.players import player
from ogames.players.solvers import omega_last_turns as L

TOLERANCE = 1e-6
BOARD = ogames.load("omega", players=3, size=4).board  # 37 cells: brute force stays small
LOGS = np.log(np.maximum(np.arange(len(BOARD) + 2, dtype=np.float64), 1.0))


def _position(seed: int, p: int, empty: int) -> list[int]:
    """A board with `empty` empty cells, the rest random stones of p colours (often in groups)."""
    rng = random.Random(seed)
    stones = [0] * len(BOARD)
    cells = list(range(len(BOARD)))
    rng.shuffle(cells)
    for cell in cells[empty:]:
        near = [stones[o] for o in BOARD.neighbours[cell] if stones[o]]
        stones[cell] = rng.choice(near) if near and rng.random() < 0.5 else rng.randint(1, p)
    return stones


def _gains(stones: list[int], p: int) -> tuple[np.ndarray, np.ndarray]:
    n = len(stones)
    base, gains = np.empty(p), np.zeros((p, n))
    L.colour_gains(np.array(stones, np.int64), BOARD.neighbour_table, p, LOGS, base, gains,
                   np.empty(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.empty(n, np.int64))  # fmt: skip
    return base, gains


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), p=st.sampled_from([3, 4]), first=st.integers(0, 3), extra=st.integers(0, 4))
def test_colour_gains_are_the_score_changes(seed: int, p: int, first: int, extra: int) -> None:
    """A gain is exactly what one stone of a colour on that cell does to the colour's log score."""
    stones = _position(seed, p, 3 + extra)
    base, gains = _gains(stones, p)
    neighbours = BOARD.neighbours
    scores = L.scores_reference(stones, neighbours, p)
    assert base == pytest.approx([np.log(s) for s in scores], abs=1e-9)
    for cell in (c for c, v in enumerate(stones) if v == 0):
        for k in range(p):
            after = list(stones)
            after[cell] = k + 1
            assert base[k] + gains[k, cell] == pytest.approx(np.log(L.scores_reference(after, neighbours, p)[k]), abs=1e-9)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), p=st.sampled_from([3, 4]), first=st.integers(0, 3), extra=st.integers(0, 3))
@example(seed=0, p=3, first=0, extra=0)
def test_last_turn_is_the_best_of_every_placement(seed: int, p: int, first: int, extra: int) -> None:
    """The last seat's stones, chosen among each colour's few best cells, reach the best key that
    trying every placement finds (a win whenever one exists)."""
    first = min(first, p - 1)
    stones = _position(seed, p, p - first + extra)
    base, gains = _gains(stones, p)
    cells = np.full(L.MOST_COLOURS, -1, np.int64)
    final = np.empty(p)
    empties = np.flatnonzero(np.array(stones) == 0).astype(np.int64)
    key = L.best_turn(base, gains, empties, p, first, p - 1, 1, cells, final)
    assert key == pytest.approx(L.last_turn_reference(stones, BOARD.neighbours, p, first), abs=TOLERANCE)
    chosen = list(stones)
    for colour in range(first, p):
        assert chosen[cells[colour]] == 0  # distinct empty cells
        chosen[cells[colour]] = colour + 1
    assert L.key_reference(chosen, BOARD.neighbours, p, p - 1) == pytest.approx(key, abs=TOLERANCE)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), p=st.sampled_from([3, 4]), first=st.integers(0, 3), extra=st.integers(0, 1))
def test_second_to_last_turn_matches_brute_force(seed: int, p: int, first: int, extra: int) -> None:
    """The second-to-last seat's choice is worth what trying every placement and every reply
    finds (within the last seat's equally good replies), and it is a legal placement."""
    first = max(min(first, p - 1), 1 if p == 4 else 0)  # (four colours from stone 0: too many for brute force)
    stones = _position(seed, p, (p - first) + p + extra)
    cells = np.full(L.MOST_COLOURS, -1, np.int64)
    board = np.array(stones, np.int64)
    value = L.second_to_last(board, BOARD.neighbour_table, p, first, LOGS, 10**6, cells)
    assert list(board) == stones  # the board is given back as it was
    low, high = L.second_to_last_reference(stones, BOARD.neighbours, p, first)
    assert low - TOLERANCE <= value <= high + TOLERANCE
    placed = [int(c) for c in cells[first:p]]
    assert len(set(placed)) == p - first and all(stones[c] == 0 for c in placed)


def test_second_to_last_gives_up_above_its_limit() -> None:
    stones = np.array(_position(1, 3, 9), np.int64)
    cells = np.full(L.MOST_COLOURS, -1, np.int64)
    assert L.second_to_last(stones, BOARD.neighbour_table, 3, 0, LOGS, 9 * 8 * 7 - 1, cells) == -np.inf
    assert L.second_to_last(stones, BOARD.neighbour_table, 3, 0, LOGS, 9 * 8 * 7, cells) > -np.inf


def _play_until(game, turns_left: int, stone: int, seed: int = 3):
    rng = random.Random(seed)
    state = game.new_state()
    while not (L.turns_left(state) == turns_left and state.stone_index == stone):
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("players,size", [(3, 4), (3, 5), (4, 4)])
def test_turns_left_counts_the_last_round(players: int, size: int) -> None:
    game = ogames.load("omega", players=players, size=size)
    state = game.new_state()
    seen = []
    while not state.is_over:
        seen.append(L.turns_left(state))
        state.play(state.legal_moves()[0])
    p2 = players * players
    assert seen[-p2:] == [t for t in range(players, 0, -1) for _ in range(players)]  # the last round only
    assert set(seen[:-p2]) == {0}


def test_exact_move_only_in_the_last_two_turns() -> None:
    game = ogames.load("omega", players=3, size=4)
    assert L.exact_move(game.new_state(), 10**6) is None
    assert L.exact_move(_play_until(game, 3, 2), 10**6) is None  # the last round's first turn: searched
    for left, stone in ((2, 0), (2, 2), (1, 0), (1, 1)):
        state = _play_until(game, left, stone)
        assert L.exact_move(state, 10**6) in state.legal_moves()
    assert L.exact_move(_play_until(game, 2, 0), 5) is None  # more choices than the limit
    two = ogames.load("omega", players=2, size=4)
    state = two.new_state()
    while state.empty_count > 4:
        state.play(state.legal_moves()[0])
    assert L.exact_move(state, 10**6) is None  # two players: not this solver's


def test_last_seat_takes_a_win_the_search_would_need_luck_for() -> None:
    """Played out from many random last turns, the exact last seat wins every table that any
    placement could win."""
    game = ogames.load("omega", players=3, size=4)
    for seed in range(12):
        state = _play_until(game, 1, 0, seed)
        stones = [int(v) for v in state.stones]
        can_win = L.last_turn_reference(stones, BOARD.neighbours, 3, 0) >= L.WIN / 2
        while not state.is_over:
            state.play(L.exact_move(state, 10**6))
        assert (state.result.winner == "red") == can_win


def test_search_plays_the_exact_endgame_when_asked() -> None:
    game = ogames.load("omega", players=3, size=4)
    state = _play_until(game, 2, 1)
    bot = player("mcts:endgame=100000,iterations=50", seed=1)
    move = bot.choose(state)
    assert bot.last.by == "endgame" and move == L.exact_move(state, 100_000)
    plain = player("mcts:iterations=50", seed=1)
    plain.choose(state)
    assert plain.last.by is None
    early = player("mcts:endgame=100000,iterations=50", seed=1)
    early.choose(game.new_state())
    assert early.last.by is None  # far from the end: searched
    with pytest.raises(BadOption):
        player("mcts:endgame=-1")
