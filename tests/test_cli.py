"""The `ogames` command: games, play (scripted input), replay, bad options and bad records; and
the board drawings the command uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

import ogames
from ogames.boards.hexes import hexagon, triangle
from ogames.boards.polar import polar
from ogames.cli import app as app_module
from ogames.cli.app import app
from ogames.cli.args import parse_play_args
from ogames.cli.render import last_move_labels, render_state
from ogames.cli.render.hexgrid import draw_hex_board, stone_glyph
from ogames.cli.render.polar import draw_polar_board
from ogames.errors import BadOption

runner = CliRunner()


def run(args: list[str], lines: list[str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=None if lines is None else "\n".join(lines) + "\n")
    return result.exit_code, result.stdout, result.stderr


def saved(path: Path) -> dict:
    return json.loads(path.read_text())


# ----- games ------------------------------------------------------------------------------------


def test_games_lists_every_available_game_with_its_options() -> None:
    code, out, _ = run(["games"])
    assert code == 0
    for game in ogames.games():
        assert game["name"] in out
    assert "--komi-choice" in out and "--sides" in out and "sunder" in out


# ----- play -------------------------------------------------------------------------------------


def test_play_human_against_human_to_a_win_and_save_at_the_end(tmp_path: Path) -> None:
    record = tmp_path / "won.json"
    code, out, _ = run(["play", "omny", "--size", "3", "--white", "human"], ["a1", "a2", "b1", "b2", "c1", str(record)])
    assert code == 0
    assert "game over: black won" in out and "winner: human 1 (black)" in out
    data = saved(record)
    assert [m["move"] for m in data["moves"]] == ["a1", "a2", "b1", "b2", "c1"]
    assert data["result"]["winner"] == "black"


def test_play_bad_entries_get_a_message_and_the_same_prompt_and_change_nothing(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    lines = ["a1", "zz9", "a1", "hello world", "", f"save {record}", "quit"]
    code, out, _ = run(["play", "omny", "--size", "4", "--white", "human"], lines)
    assert code == 0
    assert "'zz9' is not a cell" in out
    assert "a1 is occupied by black" in out
    assert "'hello world'" in out
    # Each refusal is followed by the same prompt for White, with no redraw in between.
    after = out.split("white (human 2)> ")
    assert len(after) == 7  # prompt shown once, then again after each of zz9, a1, hello world, the empty line, save
    assert out.count("move 2: white to play") == 1
    assert [m["move"] for m in saved(record)["moves"]] == ["a1"]
    assert "game abandoned" in out


def test_play_against_random_reaches_an_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    labels = list(ogames.load("omny", size=4).new_state().legal_moves())
    code, out, _ = run(["play", "omny", "--size", "4", "--white", "random", "--seed", "5"], [*labels, ""])
    assert code == 0
    assert "random (white) plays" in out and "game over:" in out


def test_play_undo_against_the_computer_goes_back_to_the_humans_turn(tmp_path: Path) -> None:
    record = tmp_path / "u.json"
    args = ["play", "omny", "--size", "5", "--white", "mcts", "--iterations", "50", "--seed", "2"]
    code, out, _ = run(args, ["c2", "undo", f"save {record}", "undo", "quit"])
    assert code == 0
    assert "mcts (white) plays" in out
    assert "took back to move 1" in out
    assert saved(record)["moves"] == []
    assert "there is no move to take back" in out


def test_play_undo_between_humans_takes_back_one_move(tmp_path: Path) -> None:
    record = tmp_path / "u.json"
    code, _, _ = run(["play", "omny", "--size", "4", "--white", "human"], ["a1", "b1", "undo", f"save {record}", "quit"])
    assert code == 0
    assert [m["move"] for m in saved(record)["moves"]] == ["a1"]


def hinted(out: str) -> list[str]:
    """The moves the hints named, in order."""
    return [line.split("hint: ", 1)[1].split()[0] for line in out.splitlines() if "hint: " in line]


def test_play_hints_name_the_computers_choice_a_few_times_a_game(tmp_path: Path) -> None:
    record = tmp_path / "h.json"
    args = ["play", "omny", "--variant", "y", "--size", "5", "--iterations", "200", "--seed", "3", "--hints", "2"]
    code, out, _ = run(args, ["hint", "c3", "hint", "hint", f"save {record}", "quit"])
    assert code == 0
    named = hinted(out)
    assert len(named) == 2 and "(1 hint left)" in out and "(0 hints left)" in out
    assert "you have used all the hints of this game (2)" in out
    moves = [m["move"] for m in saved(record)["moves"]]
    assert moves[0] == "c3" and len(moves) == 2  # a hint plays nothing, for either side
    state = ogames.load("omny", variant="y", size=5).new_state()
    for move in moves:
        state.play(move)
    assert named[1] in state.legal_moves()  # the second hint is for the position it was asked in


def test_play_gives_no_hints_between_people_or_when_none_are_asked_for() -> None:
    code, out, _ = run(["play", "omny", "--size", "4", "--white", "human"], ["hint", "quit"])
    assert code == 0 and "hints are given only in a game of one person against the computer" in out
    assert not hinted(out)
    code, out, _ = run(["play", "omny", "--size", "4", "--iterations", "50", "--hints", "0"], ["hint", "quit"])
    assert code == 0 and "this game was started with --hints 0" in out and not hinted(out)
    for bad in ("-1", "1001", "x"):
        code, out, err = run(["play", "omny", "--size", "4", "--hints", bad], ["quit"])
        assert code == 2 and "--hints" in err and "Traceback" not in err


def test_play_swap_with_the_pie_rule(tmp_path: Path) -> None:
    record = tmp_path / "s.json"
    lines = ["c2", "swap", f"save {record}", "quit"]
    code, out, _ = run(["play", "omny", "--size", "4", "--pie", "--white", "human"], lines)
    assert code == 0
    data = saved(record)
    assert [m["move"] for m in data["moves"]] == ["c2", "swap"]
    assert data["seats"] == {"black": "human 2", "white": "human 1"}
    assert "white (human 1)> " in out  # after the swap the first player answers for White


def test_play_refuses_swap_without_the_pie_rule(tmp_path: Path) -> None:
    code, out, _ = run(["play", "omny", "--size", "4", "--no-pie", "--white", "human"], ["c2", "swap", "quit"])
    assert code == 0 and "pie rule is off" in out


def test_play_resign_ends_the_game() -> None:
    code, out, _ = run(["play", "omny", "--size", "4", "--white", "human"], ["a1", "resign", ""])
    assert code == 0 and "white resigned" in out and "game over: black won" in out


def test_play_help_lists_commands_and_special_moves() -> None:
    code, out, _ = run(["play", "oddy", "--size", "4", "--white", "human"], ["b2", "help", "quit"])
    assert code == 0 and "save FILE" in out and "special moves now: swap" in out


def test_play_odd_y_polar_board_draws_labels_and_takes_them() -> None:
    code, out, _ = run(["play", "oddy", "--sides", "5", "--size", "3", "--white", "human"], ["c2-1", "quit"])
    assert code == 0
    assert "e2-1" in out and "o" in out
    assert "c2-1" not in out.split("black (human 1)> ")[-1].split("white")[0]  # the stone replaced its label


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "omny", "--bogus", "3"], "no option or colour --bogus"),
        (["play", "omny", "--size", "x"], "size='x' is not valid"),
        (["play", "omny", "--black", "robot"], "a seat is human|random|mcts|uct|solver"),
        (["play", "nogame"], "unknown game 'nogame'"),
        (["play", "omny", "stray"], "unexpected argument 'stray'"),
        (["play", "omny", "--size"], "--size needs a value"),
        (["play", "oddy", "--sides", "4"], "sides"),
        (["play", "omny", "--think", "0"], "thinking time"),
    ],
)
def test_play_bad_options_exit_2_with_a_clear_message(args: list[str], message: str) -> None:
    code, out, err = run(args, [])
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_parse_play_args_reads_every_option_style() -> None:
    options, seats = parse_play_args("omny", ["--pie", "--komi=1.5", "--komi-choice", "--variant", "gyre", "--white", "MCTS"])
    assert options == {"pie": True, "komi": "1.5", "komi_choice": True, "variant": "gyre"}
    assert seats == {"white": "mcts"}
    assert parse_play_args("omny", ["--no-pie"])[0] == {"pie": False}
    with pytest.raises(BadOption, match="takes no value"):
        parse_play_args("omny", ["--no-pie=1"])


def test_every_option_of_every_game_is_reachable_from_the_command_line() -> None:
    for game in ogames.games():
        for option in game["options"]:
            flag = "--" + option["name"].replace("_", "-")
            value = "on" if option["kind"] == "bool" else "7"
            options, seats = parse_play_args(game["name"], [flag, value])
            assert option["name"] in options and not seats


# ----- replay -----------------------------------------------------------------------------------


def test_save_then_replay_steps_through_the_record(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    run(["play", "omny", "--size", "3", "--white", "human"], ["a1", "a2", "b1", "b2", "c1", str(record)])
    code, out, _ = run(["replay", str(record)], ["", "n", "p", "5", "x", "q"])
    assert code == 0
    assert "start position" in out and "move 1/5: black a1" in out and "move 5/5: black c1" in out
    assert "result: black won" in out
    assert "type n, p, q or a move number from 0 to 5" in out
    code, out, _ = run(["replay", str(record), "--at", "2"])
    assert code == 0 and "move 2/5: white a2" in out


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["moves"].__setitem__(1, {**d["moves"][1], "move": "a1"}), "move 2"),
        (lambda d: d.__setitem__("format", "chess"), "not an ogames record"),
        (lambda d: d.__setitem__("result", {"winner": "white", "reason": "x"}), "result"),
    ],
)
def test_replay_of_a_corrupt_record_fails_naming_the_fault(tmp_path: Path, mutate, message: str) -> None:
    state = ogames.load("omny", size=3).new_state()
    for move in ["a1", "a2", "b1", "b2", "c1"]:
        state.play(move)
    data = state.record()
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, _, err = run(["replay", str(path)])
    assert code != 0 and message in err and "bad.json" in err


def test_replay_of_a_file_that_is_not_json_or_missing(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("{not json")
    code, _, err = run(["replay", str(path)])
    assert code == 1 and "not valid JSON" in err
    code, _, err = run(["replay", str(tmp_path / "none.json")])
    assert code == 1 and "cannot read" in err


# ----- drawings ---------------------------------------------------------------------------------


def plain(text: Text) -> list[str]:
    return text.plain.split("\n")


def test_hex_drawing_of_a_triangle_rows_shift_half_a_cell_and_labels_sit_at_the_edges() -> None:
    lines = plain(draw_hex_board(triangle(3), lambda c: Text("·")))
    # Row numbers at both ends; every column's letter below the bottom row, column a's also above
    # its top end (a3), half a cell to the right as the column slants.
    assert lines == ["         a", "    3  ·  3", "  2  ·   ·  2", "1  ·   ·   ·  1", " a   b   c"]


def test_hex_drawing_of_a_hexagon_puts_column_letters_on_both_edges() -> None:
    lines = plain(draw_hex_board(hexagon(2), lambda c: Text("·")))
    # Columns a and b reach the top row, b and c the bottom row: each letter stands at every end it has.
    assert lines[0].split() == ["a", "b"] and lines[-1].split() == ["b", "c"]
    assert [line.split()[0] for line in lines[1:-1]] == ["3", "2", "1"]
    assert [line.split()[-1] for line in lines[1:-1]] == ["3", "2", "1"]
    # The middle row sticks out by half a cell on each side, as a hexagon should.
    assert lines[2].index("·") < lines[1].index("·") and lines[2].rindex("·") > lines[1].rindex("·")


def test_hex_drawing_glyphs_up_to_three_characters_stay_in_their_slot() -> None:
    lines = plain(draw_hex_board(triangle(2), lambda c: Text("XYZ")))
    assert lines == ["       a", "  2 XYZ 2", "1 XYZ XYZ 1", " a   b"]


def test_hex_drawing_from_coords_has_no_edge_labels() -> None:
    lines = plain(draw_hex_board(triangle(2), lambda c: Text("o"), coords_from_labels=False))
    assert lines == ["  o", "o   o"]


def test_polar_drawing_shows_every_label_once() -> None:
    board = polar(5, 4)
    drawing = draw_polar_board(board, lambda c: Text(board.labels[c]), number_sides=False).plain
    words = drawing.split()
    assert sorted(words) == sorted(board.labels)
    numbered = draw_polar_board(board, lambda c: Text(board.labels[c])).plain.replace("side ", "side:").split()
    assert sorted(numbered) == sorted([*board.labels, *(f"side:{s}" for s in range(5))])


def test_render_state_highlights_the_last_move_and_falls_back_for_unknown_games() -> None:
    state = ogames.load("omny", size=4).new_state().play("b2")
    assert last_move_labels(state) == {"b2"}
    console = Console(record=True, width=80, color_system="truecolor")
    console.print(render_state(state))
    assert "●" in console.export_text()
    assert stone_glyph("black", last=True).style != stone_glyph("black").style or stone_glyph("black", last=True).spans

    class Odd:
        game = type("G", (), {"name": "no_such_game"})()
        history = ()

    assert "no drawing for no_such_game" in str(render_state(Odd(), highlight=()))  # type: ignore[arg-type]


def test_a_missing_or_broken_sub_app_is_skipped_and_a_present_one_is_mounted() -> None:
    before = len(app.registered_groups)

    def broken() -> None:
        raise ImportError("not written yet")

    app_module._mount("nothing", broken)
    assert len(app.registered_groups) == before
    sub = typer.Typer()

    @sub.command()
    def hello() -> None:
        print("hi")

    app_module._mount("extra", lambda: type("M", (), {"app": sub}))
    try:
        assert len(app.registered_groups) == before + 1
        code, out, _ = run(["extra", "hello"])
        assert code == 0 and "hi" in out
    finally:
        app.registered_groups.pop()


def test_cli_output_has_no_stray_markup() -> None:
    code, out, _ = run(["play", "omny", "--size", "3", "--white", "human"], ["quit"])
    assert code == 0 and not re.search(r"\[/?(bold|dim|red)\]", out)
