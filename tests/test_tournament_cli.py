"""`ogames tournament`: a whole run, resuming, the default folder, and clear errors (never a traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ogames.cli import tournament as cli
from ogames.cli.app import app

runner = CliRunner()
Y4 = ["omny", "--variant", "y", "--size", "4"]


def run(args: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, ["tournament", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_tournament_prints_the_table_and_saves_everything(tmp_path):
    out = tmp_path / "t"
    players = ["--players", "random", "mcts:iterations=10", "--games-per-pair", "2"]
    code, stdout, stderr = run([*Y4, *players, "--workers", "1", "--out", str(out)])
    assert code == 0, stderr
    assert "omny variant=y, size=4" in stdout and "2 players, 2 games (2 per pair)" in stdout
    assert "Elo" in stdout and "95% CI" in stdout and "random" in stdout and "mcts:iterations=10" in stdout
    assert "points of the row against the column" in stdout
    assert sorted(p.name for p in out.iterdir()) == ["elo.csv", "elo.json", "elo.png", "games", "tournament.json"]
    assert len(list((out / "games").glob("game-*.json"))) == 2
    assert json.loads((out / "tournament.json").read_text())["entrants"] == ["random", "mcts:iterations=10"]

    code, _, stderr = run([*Y4, *players, "--out", str(out)])
    assert code == 1 and "add --resume" in stderr and "Traceback" not in stderr
    code, stdout, stderr = run([*Y4, *players, "--out", str(out), "--resume"])
    assert code == 0, stderr
    assert "2/2" in stdout and "Elo" in stdout
    other = ["--players", "random", "mcts:iterations=11", "--games-per-pair", "2"]
    code, _, stderr = run([*Y4, *other, "--out", str(out), "--resume"])
    assert code == 1 and "different tournament" in stderr and "entrants" in stderr


def test_the_default_folder_is_named_by_the_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = [*Y4, "--players=random", "--players", "random:seed=4", "--games-per-pair", "1", "--workers", "1", "--ci", "fisher"]
    code, stdout, stderr = run(args)
    assert code == 0, stderr
    folders = list((tmp_path / "tournaments").iterdir())
    assert len(folders) == 1 and folders[0].name.startswith("omny-")
    assert "Fisher" in stdout
    assert "seats are even only when games per pair is a multiple of 2" in stdout
    code, _, _ = run([*args, "--resume"])
    assert code == 0 and len(list((tmp_path / "tournaments").iterdir())) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*Y4], "name the players after --players"),
        ([*Y4, "--players", "random"], "2 to 64 players"),
        ([*Y4, "--bogus", "3", "--players", "random", "mcts"], "unknown option --bogus"),
        ([*Y4, "--players", "random", "alphazero"], "unknown player kind 'alphazero'"),
        ([*Y4, "--players", "random", "mcts:think=fast"], "is not valid: a number is needed"),
        ([*Y4, "--players", "random", "mcts", "--workers", "0"], "--workers must be at least 1"),
        ([*Y4, "--players", "random", "mcts", "--ci", "guess"], "--ci 'guess'"),
        ([*Y4, "--players", "random", "mcts", "--games-per-pair", "0"], "at least 1"),
        (["omny", "--size", "99", "--players", "random", "mcts"], "size=99"),
        (["chess", "--players", "random", "mcts"], "unknown game 'chess'"),
        (["omiga", "--players", "mcts", "racer"], "real-time Omiga bot is one of"),
        (["omega", "--players", "random", "mcts", "--players", "3"], "at least 3 players"),
        (["omny", "--players", "3", "--players", "random", "mcts"], "omny has no player count to set"),
        ([*Y4, "--players", "random", "mcts", "--games-per-pair", "3", "--openings", "1"], "a multiple of 2"),
        ([*Y4, "--players", "random", "mcts", "--openings", "-2"], "0 or more"),
        ([*Y4, "--players", "random", "mcts", "--book", "no-such-book.txt"], "cannot read the book"),
    ],
)
def test_mistakes_get_one_clear_line(args, message, tmp_path):
    code, stdout, stderr = run([*args, "--out", str(tmp_path / "never")])
    assert code == 2
    assert message in stderr and "Traceback" not in stderr + stdout
    assert not (tmp_path / "never").exists()


def test_an_interrupted_tournament_says_how_to_go_on(tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.arena, "run", interrupted)
    code, stdout, _ = run([*Y4, "--players", "random", "mcts", "--out", str(tmp_path / "t")])
    assert code == 130 and "--resume" in stdout


def test_players_are_read_after_every_players_flag():
    assert cli.split_players(["--size", "5", "--players", "a", "b:x=1", "--pie", "--players=c", "--player", "d"]) == (
        ["a", "b:x=1", "c", "d"],
        ["--size", "5", "--pie"],
    )
    assert cli.split_players(["--players", "3", "--players", "a", "b"]) == (["a", "b"], ["--players", "3"])


def test_omega_takes_its_player_count_beside_the_players(tmp_path):
    args = ["omega", "--players", "3", "--size", "4", "--players", "random", "random:seed=1", "random:seed=2"]
    code, stdout, stderr = run([*args, "--games-per-pair", "6", "--workers", "1", "--out", str(tmp_path / "o")])
    assert code == 0, stderr
    assert "players=3" in stdout and "3 players, 6 games (6 per group)" in stdout


def test_the_help_explains_players_and_resume():
    code, stdout, _ = run(["--help"])
    assert code == 0 and "--players" in stdout and "--resume" in stdout and "--games-per-pair" in stdout


def test_the_command_is_listed():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "tournament" in result.stdout


def test_no_folder_is_made_for_nothing(tmp_path: Path):
    code, _, _ = run(["omny", "--players", "random", "--out", str(tmp_path / "x")])
    assert code == 2 and not (tmp_path / "x").exists()
