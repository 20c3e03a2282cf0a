"""`ogames bench playouts|mcts`: JSON figures present and positive, a table by default, and bad
games, options, players and times refused in one line (no traceback)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ogames.cli.app import app

runner = CliRunner()
TINY = ["--seconds", "0.05"]


def bench(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["bench", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("game", "options"),
    [("oddy", ["--size", "5", "--no-pie"]), ("omny", ["--variant", "sunder", "--size", "3"]), ("onyx", [])],
)
def test_playouts_json_has_a_positive_rate(game, options):
    code, out, _ = bench("playouts", game, *options, *TINY, "--json")
    assert code == 0
    facts = json.loads(out)
    assert facts["game"] == game
    assert facts["games"] > 0 and facts["seconds"] > 0 and facts["games_per_second"] > 0
    assert facts["warm_up_seconds"] >= 0


def test_playouts_options_are_read_as_play_reads_them():
    code, out, _ = bench("playouts", "oddy", "--size=6", "--no-pie", *TINY, "--json")
    assert code == 0
    assert json.loads(out)["options"] == {"sides": 3, "size": 6, "board": "triangle", "pie": False}


def test_mcts_json_has_a_positive_rate():
    code, out, _ = bench("mcts", "oddy", "--size", "5", *TINY, "--json")
    assert code == 0
    facts = json.loads(out)
    assert facts["player"] == "mcts"
    assert facts["iterations"] > 0 and facts["seconds"] > 0 and facts["iterations_per_second"] > 0


def test_mcts_takes_a_player_spec_whose_own_budget_wins():
    code, out, _ = bench("mcts", "omega", "--player", "mcts:iterations=40,seed=3", "--json")
    assert code == 0
    assert json.loads(out)["iterations"] == 40


def test_tables_by_default_with_the_warm_up_said():
    code, out, _ = bench("playouts", "oddy", "--size", "4", *TINY)
    assert code == 0
    assert "games/s" in out and "warm-up" in out and "size=4" in out
    code, out, _ = bench("mcts", "oddy", "--size", "4", *TINY)
    assert code == 0
    assert "iterations/s" in out and "warm-up" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["playouts", "nogame"], "unknown game 'nogame'"),
        (["playouts", "oddy", "--size", "99"], "size=99"),
        (["playouts", "oddy", "--colour", "3"], "no option --colour"),
        (["playouts", "oddy", "--size"], "--size needs a value"),
        (["playouts", "oddy", "stray"], "unexpected argument 'stray'"),
        (["playouts", "oddy", "--seconds", "0"], "--seconds 0.0"),
        (["playouts", "oddy", "--seconds", "-2"], "--seconds -2.0"),
        (["mcts", "oddy", "--seconds", "nan"], "--seconds nan"),
        (["mcts", "oddy", "--seconds", "1e9"], "at most 3600"),
        (["mcts", "oddy", "--player", "wizard"], "unknown player kind 'wizard'"),
        (["mcts", "oddy", "--player", "random"], "takes no search budget"),
        (["mcts", "oddy", "--player", "mcts:depth=3"], "no setting 'depth'"),
        (["mcts", "oddy", "--player", "mcts:think=-1"], "think='-1' is not valid: it must be more than 0"),
        (["mcts", "omiga"], "real-time"),
        (["mcts", "omiga", "--variant", "toddler", "--seed", "9"], "nothing to choose there"),  # one legal move
    ],
)
def test_bad_input_is_refused_in_one_line(args, message):
    code, out, err = bench(*args, *([] if "--seconds" in args else TINY))
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err
    assert out == ""


def test_a_number_that_is_not_one_is_refused_by_the_command_line():
    code, _, err = bench("playouts", "oddy", "--seconds", "abc")
    assert code == 2 and "Traceback" not in err
