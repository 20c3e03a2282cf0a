"""Our Game of Y (`oddy`, 3 sides, triangle, no pie) is OpenSpiel's game `y`, move for move, through
the label/action mapping that benchmarks/bench_openspiel.py uses: the same legal moves at every ply,
the same player to move, the same end and the same winner. Skipped when OpenSpiel is not installed
(it is the optional extra `openspiel`)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

_SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_openspiel.py"
_spec = importlib.util.spec_from_file_location("bench_openspiel", _SCRIPT)
bench = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench  # its dataclasses look their module up there
_spec.loader.exec_module(bench)

SIZES = (2, 3, 4, 5, 9, 13, 19)


@pytest.mark.parametrize("size", SIZES)
def test_every_cell_has_the_action_openspiel_names_by_our_label(size):
    state = bench.our_game(size).new_state()
    theirs = bench.their_game(size).new_initial_state()
    labels = state.legal_moves()
    assert len(labels) == size * (size + 1) // 2
    actions = [bench.action_of(label, size) for label in labels]
    assert sorted(actions) == sorted(theirs.legal_actions())
    for label, action in zip(labels, actions, strict=True):
        assert theirs.action_to_string(action) == label
        assert bench.label_of(action, size) == label


def test_cells_off_the_board_are_refused_both_ways():
    with pytest.raises(ValueError):
        bench.action_of("e1", 4)  # x = 4 on a side of 4
    with pytest.raises(ValueError):
        bench.action_of("b4", 4)  # x + y = 4
    with pytest.raises(ValueError):
        bench.label_of(7, 4)  # (3, 1): x + y = 4
    with pytest.raises(ValueError):
        bench.label_of(16, 4)


def play_random_game(size: int, seed: int) -> tuple[str, int]:
    """A random game in both engines at once, compared at every ply; (winner, plies)."""
    rng = random.Random(seed)
    state = bench.our_game(size).new_state()
    theirs = bench.their_game(size).new_initial_state()
    while not state.is_over:
        assert not theirs.is_terminal()
        assert theirs.current_player() == (0 if state.to_move == "black" else 1)
        ours = {bench.action_of(label, size): label for label in state.legal_moves()}
        assert sorted(ours) == sorted(theirs.legal_actions())
        action = rng.choice(sorted(ours))
        state.play(ours[action], t=0.0)
        theirs.apply_action(action)
    assert theirs.is_terminal()
    returns = theirs.returns()
    assert returns == ([1.0, -1.0] if state.winner == "black" else [-1.0, 1.0])
    return state.winner, state.ply


@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_move_by_move_and_on_the_winner(size):
    winners = {play_random_game(size, seed)[0] for seed in range(25 if size < 13 else 6)}
    if size >= 3:
        assert winners == {"black", "white"}  # both outcomes were compared


def test_a_match_game_is_played_through_both_engines():
    result = bench.play_game(bench.Setup(size=5, seconds=0.003), ours_first=False, seed=1)
    assert result["ours"] == "white" and result["winner"] in ("black", "white")
    assert result["ours_won"] == (result["winner"] == "white")
    assert len(result["moves"]) == result["plies"] > 0
    fixed = bench.play_game(bench.Setup(size=4, iterations=30), ours_first=True, seed=2)
    assert fixed["budget"] == "30 it" and fixed["our_iterations_per_move"] <= 30
    assert bench.wilson(8, 10)[0] < 0.8 < bench.wilson(8, 10)[1]


def test_fixed_budget_match_gives_each_side_its_budget_and_seat(tmp_path):
    """`--iterations A --their-simulations B --seats second`: ours always moves second, with A
    iterations a move (B for theirs), and the record says so; bad combinations are refused."""
    out = tmp_path / "games.jsonl"
    budget = ["--iterations", "40", "--their-simulations", "30", "--seats", "second"]
    code = bench.main(["match", "--games", "2", "--size", "4", *budget, "--out", str(out)])
    assert code == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["ours"] for g in games] == ["white", "white"]
    assert all(g["budget"] == "40/30 it" and g["our_iterations_per_move"] <= 40 for g in games)
    assert bench.Setup(seats="first").ours_first(1) and not bench.Setup(seats="both").ours_first(1)
    with pytest.raises(SystemExit):
        bench.main(["match", "--their-simulations", "30"])  # only with --iterations
