"""What the command says about the games: `ogames games` and `ogames play GAME --help` list each
game's own options (ranges, defaults), its seat colours and its rules page, in 80 columns."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import ogames
from ogames.cli.app import app
from ogames.cli.describe import game_named, option_summary, value_form

runner = CliRunner()
GAMES = [g["name"] for g in ogames.games()]


def run(args: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    return result.exit_code, result.stdout


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def option_flags(name: str) -> list[str]:
    game = next(g for g in ogames.games() if g["name"] == name)
    return ["--" + o["name"].replace("_", "-") for o in game["options"]]


@pytest.mark.parametrize("name", GAMES)
def test_play_game_help_lists_its_options_seats_and_rules_page(name: str) -> None:
    code, out = run(["play", name, "--help"])
    assert code == 0, out
    game = next(g for g in ogames.games() if g["name"] == name)
    for option in game["options"]:
        assert option_summary(option) in out  # flag, values or range, and default
        assert option["help"].split()[0] in out
    assert f"docs/rules/{name}.md" in out
    assert "Seats" in out and ("SPEC is human or a bot" if name == "omiga" else "SPEC is human|random|mcts") in out
    assert widest(out) <= 80


def test_play_help_names_only_the_games_own_options() -> None:
    _, out = run(["play", "onyx", "--help"])
    assert "--pie on|off = off" in out
    assert "--komi" not in out and "--variant" not in out


@pytest.mark.parametrize(
    ("name", "colours"),
    [
        ("omny", ["black", "white"]),
        ("oddy", ["black", "white"]),
        ("onyx", ["black", "white"]),
        ("omega", ["white", "black", "red", "blue"]),
        ("omiga", ["white", "black", "red", "blue", "green", "yellow"]),
    ],
)
def test_play_help_lists_every_seat_colour_in_seat_order_with_its_default(name: str, colours: list[str]) -> None:
    _, out = run(["play", name, "--help"])
    seats = [line.split()[0] for line in out.splitlines() if " SPEC " in line and line.startswith("  --")]
    assert seats == [f"--{c}" for c in colours]
    first = next(line for line in out.splitlines() if line.startswith(f"  --{colours[0]} "))
    assert "default human" in first


def test_play_help_shows_ranges_and_defaults() -> None:
    _, out = run(["play", "omega", "--help"])
    assert "--players 2–4 = 2" in out and "--size 4–12 = 5" in out and "--match on|off = off" in out
    assert "played with --players 3 or 4" in out
    _, out = run(["play", "oddy", "--help"])
    assert "--sides 3–25 = 3" in out and "--pie on|off = on" in out


def test_play_help_works_with_other_arguments_around_the_game() -> None:
    code, out = run(["play", "--think", "2", "omny", "--size", "5", "--help"])
    assert code == 0 and "Options of omny" in out


def test_play_help_without_a_game_lists_the_games_and_the_rules_index() -> None:
    code, out = run(["play", "--help"])
    assert code == 0
    assert all(name in out for name in GAMES) and "docs/rules/README.md" in out
    assert widest(out) <= 80


def test_play_help_for_an_unknown_game_says_so() -> None:
    code, out = run(["play", "chess", "--help"])
    assert code == 0 and "unknown game 'chess'" in out and "Traceback" not in out


def test_games_fits_80_columns_and_cuts_nothing_off() -> None:
    code, out = run(["games"])
    assert code == 0
    assert widest(out) <= 80 and "…" not in out
    for name in GAMES:
        assert f"docs/rules/{name}.md" in out
        for flag in option_flags(name):
            assert flag in out
    assert "--white --black --red --blue" in out
    assert "sunder|y|gyre|free-y|custom" in out  # the choices whole, not truncated


def test_value_forms() -> None:
    assert value_form({"kind": "int", "minimum": 2, "maximum": 30}) == "2–30"
    assert value_form({"kind": "int", "minimum": 0}) == "N ≥ 0"
    assert value_form({"kind": "bool"}) == "on|off"
    assert value_form({"kind": "half", "minimum": 0}) == "K (whole or half ≥ 0)"
    assert value_form({"kind": "choice", "choices": ["a", "b"]}) == "a|b"
    assert option_summary({"name": "komi_choice", "kind": "bool", "default": False}) == "--komi-choice on|off = off"


@pytest.mark.parametrize(
    ("args", "game"),
    [
        (["omny", "--help"], "omny"),
        (["--think", "2", "oddy"], "oddy"),
        (["--seed", "3", "--iterations", "9", "onyx", "--pie", "on"], "onyx"),
        (["--help"], None),
    ],
)
def test_game_named(args: list[str], game: str | None) -> None:
    assert game_named(args) == game


def test_play_help_warns_where_a_game_option_is_shadowed_by_the_play_commands_own() -> None:
    _, out = run(["play", "omiga", "--help"])
    assert "(on `ogames play`, --seed is read as the computer players' option above)" in " ".join(out.split())
    _, out = run(["play", "omny", "--help"])
    assert "is read as the computer players' option" not in out
