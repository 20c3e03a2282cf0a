"""Decisive moves in the compiled tree (`decisive=on`): the kernel's filter keeps exactly a move
that wins at once, else the block of the opponent's win in one, as the rules decide them."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ogames
from ogames.players import mcts_kernel as K
from ogames.players.compiled_mcts import Adapter, CompiledMcts

BOARDS = [
    ("oddy", {"sides": 3, "size": 4, "pie": False}),
    ("oddy", {"sides": 5, "size": 3, "pie": False}),
    ("omny", {"variant": "y", "size": 4}),
    ("omny", {"variant": "sunder", "size": 3, "komi": 0.5}),
    ("omny", {"variant": "gyre", "size": 3}),
    ("onyx", {}),
]


def wins_by_rules(state, cell: str, colour: int) -> bool:
    """Whether a stone of colour index `colour` on `cell` wins, by the rules (the turn is set to
    that colour on a copy, as if the other side had passed)."""
    trial = state.clone()
    trial.turn = colour
    trial.play(cell, t=0.0)
    return trial.winner == state.game.colours[colour]


def kernel_filter(state) -> list[str]:
    adapter = Adapter(state)
    stones, var, owner = adapter.encode(state)
    n = adapter.n
    moves = np.empty(n + 8, dtype=np.int32)
    count = K.gen_moves(stones, var, owner, adapter.params, adapter.midpoint_corners, moves)
    logs = np.log(np.maximum(np.arange(n + 2), 1))
    work = np.empty((6, n + 8), dtype=np.int32)
    mark = np.zeros(n, dtype=np.int64)
    scratch = np.empty((1, n), dtype=np.int8)
    kept, _ = K.decisive_moves(
        stones, var, owner, adapter.params, moves, count, scratch, adapter.rule_arrays(), logs, work, mark, 1
    )
    assert (stones == state.stones).all(), "the position is not changed"
    return [adapter.move_text(int(c)) for c in moves[:kept]]


@pytest.mark.parametrize(("name", "options"), BOARDS, ids=[f"{n}-{o}" for n, o in BOARDS])
def test_filter_matches_the_rules(name: str, options: dict) -> None:
    game = ogames.load(name, **options)
    seen_win = seen_block = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_over:
            legal = state.legal_moves()
            kept = kernel_filter(state)
            turn = state.turn
            wins = [m for m in legal if wins_by_rules(state, m, turn)]
            threats = [] if name == "onyx" else [m for m in legal if wins_by_rules(state, m, 1 - turn)]
            if wins:
                assert len(kept) == 1 and kept[0] in wins
                seen_win += 1
            elif threats:
                assert len(kept) == 1 and kept[0] in threats
                seen_block += 1
            else:
                assert sorted(kept) == sorted(legal)
            state.play(rng.choice(legal), t=0.0)
    assert seen_win and (seen_block or name == "onyx")


def test_search_with_decisive_moves_wins_and_blocks() -> None:
    game = ogames.load("oddy", sides=3, size=4, pie=False)
    win = game.new_state()
    for move in "a2 b3 b2 d1 b1 a4".split():
        win.play(move, t=0.0)
    block = game.new_state()
    for move in "a2 b3 b2 d1 b1".split():
        block.play(move, t=0.0)
    for seed in range(3):
        assert CompiledMcts(iterations=50, seed=seed, decisive=True).choose(win) == "c2"
        assert CompiledMcts(iterations=50, seed=seed, decisive=True).choose(block) == "c2"


def capture_points_reference(stones, corner_of, last: int, value: int) -> set[int]:
    """Empty points where the stone just placed on `last` (the other colour) would capture stones
    of `value` by a second stone (a square with `last` opposite that point), by the rules' plain
    capture reference."""
    from ogames.kernels.onyx import find_captures_reference

    found = set()
    for square in corner_of[last]:
        point = square.opposite
        if stones[point] != 0:
            continue
        trial = list(stones)
        trial[point] = 3 - value
        for other in corner_of[point]:
            if other.opposite == last and set(find_captures_reference(trial, corner_of, point)) & set(other.others):
                found.add(point)
    return found


def test_onyx_capture_answer_matches_the_rules() -> None:
    game = ogames.load("onyx")
    lattice = game.lattice
    answered = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            state.play(move, t=0.0)
            if state.is_over:
                break
            last = game.board.labels.index(move)
            stones = np.ascontiguousarray(state.stones, dtype=np.int8)
            value = state.turn + 1  # the colour now threatened
            answer = K.capture_answer(stones, lattice.square_table, last, value)
            expected = capture_points_reference(list(state.stones), lattice.corner_of, last, value)
            if expected:
                assert answer in expected
                answered += 1
            else:
                assert answer == -1
    assert answered > 10
