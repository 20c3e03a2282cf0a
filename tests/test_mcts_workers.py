"""Root-parallel `mcts` (`workers=N`): N trees searched at once in threads, their root statistics
merged. Legal moves on every board game, the iteration budget as a total, the same moves for a
seed, each worker's tree kept between moves, proofs merged, and bad settings refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ogames
from conformance.cases import CASES
from ogames.errors import BadOption
from ogames.players import player
from ogames.players.mcts import CompiledMcts
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import adapter_for
from ogames.players.mcts.parallel import merged_root
from ogames.players.mcts.report import best_child

BOARD_CASES = [case for case in CASES if case[1] != "omiga" and not case[2].get("match")]


def play_all(state, moves: str):
    for move in moves.split():
        state.play(move, t=0.0)
    return state


def test_the_kernel_runs_without_the_gil() -> None:
    """Threads search at the same time only because `run` releases the GIL."""
    assert K.run.targetoptions.get("nogil") is True


@pytest.mark.parametrize("case", BOARD_CASES, ids=[case[0] for case in BOARD_CASES])
def test_two_workers_play_legal_moves_within_the_total(case) -> None:
    _, name, options = case
    game = ogames.load(name, **options)
    rng = random.Random(5)
    bot = CompiledMcts(iterations=301, seed=2, workers=2)
    state = game.new_state()
    while not state.is_over:
        before = state.record()
        move = bot.choose(state)
        assert state.record() == before
        assert move in state.legal_moves()
        info = bot.info()
        assert info["move"] == move and info["pv"][0] == move
        if info["iterations"]:  # 0: one legal move, nothing searched
            assert info["workers"] == 2 and info["worker_iterations"] == (151, 150)
            assert info["iterations"] == sum(info["worker_iterations"]) <= 301
        state.play(move if rng.random() < 0.5 else rng.choice(state.legal_moves()), t=0.0)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("oddy", {"sides": 3, "size": 6}),
        ("omny", {"variant": "sunder", "size": 3}),
        ("omega", {"players": 3, "size": 4}),
        ("onyx", {}),
    ],
)
def test_the_same_seed_gives_the_same_search(name: str, options: dict) -> None:
    """With an iteration budget each worker's tree depends on its seed only (numba's generator
    is per thread, seeded in the worker's thread), however the threads are scheduled."""
    state = ogames.load(name, **options).new_state()
    state.play(state.legal_moves()[2], t=0.0)
    runs = []
    for _ in range(3):
        bot = CompiledMcts(iterations=2000, seed=7, workers=2)
        move = bot.choose(state)
        info = bot.info()
        runs.append((move, info["visits"], info["value"], info["pv"], info["nodes"]))
    assert runs[0] == runs[1] == runs[2]


def test_the_merged_root_counts_every_iteration_and_the_move_is_its_most_visited() -> None:
    state = ogames.load("oddy", sides=3, size=7, pie=False).new_state()
    bot = CompiledMcts(iterations=4001, seed=1, workers=2)
    move = bot.choose(state)
    assert bot._root is not None
    ints, floats = bot._root
    first, count = int(ints[0, K.I_FIRST]), int(ints[0, K.I_NCHILD])
    assert floats[0, K.F_N] == 4001 == floats[first : first + count, K.F_N].sum()
    assert count == len(state.legal_moves())
    most = max(range(first, first + count), key=lambda c: floats[c, K.F_N])
    assert bot.info()["visits"] == floats[most, K.F_N]
    assert move == adapter_for(state).move_text(int(ints[most, K.I_MOVE]))


def test_merging_sums_by_move_and_keeps_a_proof() -> None:
    """Two roots with their children in different orders: sums by move, a proven win found by one
    worker wins, a child known to one worker only is kept."""
    columns = K.F_W + 2

    def tree(children: list[tuple[int, float, float, int]]) -> tuple[np.ndarray, np.ndarray]:
        ints = np.full((1 + len(children), K.NI), -1, dtype=np.int32)
        ints[:, K.I_FLAGS] = 0  # seat nodes, no pie
        floats = np.zeros((1 + len(children), columns))
        ints[0, K.I_SEAT], ints[0, K.I_FIRST], ints[0, K.I_NCHILD] = 0, 1, len(children)
        for k, (move, visits, wins, proven) in enumerate(children, start=1):
            ints[k, K.I_MOVE], ints[k, K.I_SEAT], ints[k, K.I_PROVEN] = move, 1, proven
            floats[k, K.F_N], floats[k, K.F_W] = visits, wins
            floats[0, K.F_N] += visits
        return ints, floats

    first = tree([(5, 10.0, 6.0, -1), (2, 30.0, 12.0, -1)])
    second = tree([(2, 20.0, 9.0, -1), (5, 4.0, 4.0, 0), (7, 1.0, 0.0, -1)])
    ints, floats = merged_root([first, second])
    assert floats[0, K.F_N] == 65.0
    assert ints[0, K.I_NCHILD] == 3 and list(ints[1:, K.I_MOVE]) == [2, 5, 7]
    assert list(floats[1:, K.F_N]) == [50.0, 14.0, 1.0] and list(floats[1:, K.F_W]) == [21.0, 10.0, 0.0]
    assert list(ints[1:, K.I_PROVEN]) == [-1, 0, -1]
    assert best_child(ints, floats, 0) == 2  # the proven win, not the most visited


def test_two_workers_find_and_prove_a_win_in_one() -> None:
    # Black a2 b2 b1 touch the left and bottom sides: c2 reaches the right side.
    state = play_all(ogames.load("oddy", sides=3, size=4, pie=False).new_state(), "a2 b3 b2 d1 b1 a4")
    bot = CompiledMcts(iterations=100_000, seed=1, solver=True, workers=2)
    assert bot.choose(state) == "c2"
    info = bot.info()
    assert info["proven"] == "win" and info["value"] == 1.0 and info["iterations"] < 100_000
    block = play_all(ogames.load("oddy", sides=3, size=4, pie=False).new_state(), "a2 b3 b2 d1 b1")
    for seed in range(3):
        assert CompiledMcts(iterations=1500, seed=seed, workers=2).choose(block) == "c2"


def test_each_worker_keeps_its_subtree() -> None:
    game = ogames.load("oddy", sides=3, size=6, pie=False)
    state = game.new_state()
    bot = CompiledMcts(iterations=3000, seed=1, workers=2)
    state.play(bot.choose(state), t=0.0)
    state.play(bot.info()["pv"][1], t=0.0)
    assert all(tree is not None for tree in bot._trees)
    bot.choose(state)
    assert bot.info()["reused"] > 0
    state.undo()  # not a continuation: new trees
    bot.choose(state)
    assert bot.info()["reused"] == 0
    bot.reset()
    assert bot._trees == [None, None]


def test_a_time_budget_is_shared_by_the_workers() -> None:
    state = ogames.load("omny", variant="sunder", size=4).new_state()
    bot = CompiledMcts(think=0.2, seed=1, workers=2)
    move = bot.choose(state)
    info = bot.info()
    assert move in state.legal_moves() and 0.1 < info["seconds"] < 0.2 + 2.0
    assert all(done > 0 for done in info["worker_iterations"]) and info["iterations"] == sum(info["worker_iterations"])


def test_fewer_iterations_than_workers() -> None:
    state = ogames.load("oddy", sides=3, size=5).new_state()
    bot = CompiledMcts(iterations=1, seed=1, workers=3)
    assert bot.choose(state) in state.legal_moves()
    assert bot.info()["worker_iterations"] == (1, 0, 0)


def test_the_spec_takes_workers() -> None:
    bot = player("mcts:workers=2,iterations=500,seed=3")
    assert isinstance(bot, CompiledMcts) and bot.workers == 2
    assert player("mcts:level=5,workers=2").workers == 2
    assert player("mcts").workers == 1


@pytest.mark.parametrize("spec", ["mcts:workers=0", "mcts:workers=-2", "mcts:workers=1.5", "mcts:workers=two"])
def test_bad_worker_counts_are_refused(spec: str) -> None:
    with pytest.raises(BadOption, match="workers"):
        player(spec)


@pytest.mark.parametrize(
    ("workers", "why"), [(0, "at least 1"), (-1, "at least 1"), (2.5, "a whole number"), (True, "a whole number")]
)
def test_the_class_refuses_bad_worker_counts(workers, why: str) -> None:
    with pytest.raises(ValueError, match=f"workers={workers!r} is not valid: .*{why}"):
        CompiledMcts(workers=workers)
