"""Hostile input to the `ogames` command: bad files, bad options, bad answers at the prompts.
Every one gets a one-line message and an exit code, never a traceback, and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from hostile_helpers import played
from typer.testing import CliRunner

import ogames
from ogames.cli import app as app_module
from ogames.cli.app import Positions, app
from ogames.records import save

runner = CliRunner()


def run(args: list[str], lines: list[str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=None if lines is None else "\n".join(lines) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    out, err = result.stdout, result.stderr
    assert "Traceback" not in out + err
    return result.exit_code, out, err


def one_line_error(err: str, fragment: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and fragment in lines[0], err
    assert len(lines[0]) < 700


# ----- replay: files that are no record ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not UTF-8"),
        (b"[" * 100_000, "nested too deeply"),
        (b"{" * 50_000, "not valid JSON"),
        (b'{"format": ' + b"7" * 6000 + b"}", "6000 digits"),
        (b'{"format": "ogames-record", "version": 1e999}', "too large a number"),
        (b"", "not valid JSON"),
        (b"[1]", "a record is a JSON object"),
    ],
    ids=["png", "brackets", "braces", "digits", "1e999", "empty", "array"],
)
def test_replay_of_a_file_that_is_no_record(tmp_path: Path, content: bytes, fragment: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    code, out, err = run(["replay", str(path)])
    assert code == 1 and out == ""
    one_line_error(err, fragment)
    assert path.read_bytes() == content


def test_replay_of_a_folder_a_missing_file_or_a_huge_one(tmp_path: Path) -> None:
    code, _, err = run(["replay", str(tmp_path)])
    assert code == 1
    one_line_error(err, "cannot read")
    code, _, err = run(["replay", str(tmp_path / "missing.json")])
    assert code == 1
    one_line_error(err, "No such file")
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(21_000_000)
    code, _, err = run(["replay", str(big)])
    assert code == 1
    one_line_error(err, "too large for a record")


def test_replay_of_a_record_with_markup_in_its_names(tmp_path: Path) -> None:
    """Player names come from the file: rich markup in them is shown, not interpreted."""
    for name, options in [("omega", {"size": 4}), ("omny", {"variant": "y", "size": 4})]:
        state = ogames.load(name, **options).new_state(["[/]", "[bold red]x[/"])
        state.play(state.legal_moves()[0], t=1.0)
        path = save(state, tmp_path / f"{name}.json")
        code, out, _ = run(["replay", str(path), "--at", "1"])
        assert code == 0 and "[/]" in out and "[bold red]x[/" in out


def test_replay_prompt_shows_its_keys_and_refuses_junk(tmp_path: Path) -> None:
    path = save(played("omny", {"variant": "y", "size": 5}, moves=6), tmp_path / "game.json")
    code, out, _ = run(["replay", str(path)], ["", "9" * 5000, "[bold]x", "-1", "p", "q"])
    assert code == 0
    assert "[n]ext, [p]revious, number, [q]uit>" in out and "ext, revious" not in out.replace("[n]ext, [p]revious", "")
    assert "'[bold]x': type n, p, q or a move number from 0 to 6" in out
    assert "(5000 characters): type n, p, q" in out


@pytest.mark.parametrize("at", ["-1", "7", "99999999999999999999999"])
def test_replay_at_a_move_the_record_does_not_have(tmp_path: Path, at: str) -> None:
    path = save(played("omny", {"variant": "y", "size": 5}, moves=6), tmp_path / "game.json")
    code, _, err = run(["replay", str(path), "--at", at])
    assert code == 2
    one_line_error(err, "the record has moves 0 to 6")


def test_the_viewer_steps_anywhere_without_copying_each_move() -> None:
    state = played("omiga", {"seed": 5, "width": 7, "height": 5}, moves=40)
    record = state.record()
    positions = Positions(record, ogames.replay(record))
    positions.spacing = 7  # keep copies often, to cross them both ways
    last = positions.total
    assert last >= 20
    for index in [0, last, 3, 17, 16, 2, last - 1, last, 0, 19, 18, 8, 9, 10]:
        assert positions.at(index).record()["moves"] == record["moves"][:index]
    assert len(positions.saved) <= 2 + last // 7
    with pytest.raises(IndexError):
        positions.at(last + 1)


# ----- play: bad options, bad answers ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "chess"], "unknown game"),
        (["play", "omny", "--size", "[/]"], "option size='[/]' is not valid"),
        (["play", "omny", "--size", "9" * 5000], "(5000 characters)"),
        (["play", "omny", "--variant", "custom", "--cells", "a1 " * 10_000], "at most 24000 characters"),
        (["play", "omny", "--komi", "1e999999999"], "written like 3 or 3.5"),
        (["play", "omny", "--think", "nan"], "--think nan"),
        (["play", "omny", "--think", "inf"], "--think inf"),
        (["play", "omny", "--think", "-1"], "--think -1.0"),
        (["play", "omny", "--black", "[red]mcts[/]"], "a seat is human|random|mcts|uct|solver"),
        (["play", "omny", "--" + "x" * 5000, "1"], "(5000 characters) (colours: black, white"),
        (["play", "omny", "--size"], "--size needs a value"),
        (["play", "omny", "stray"], "unexpected argument"),
        (["play", "omega", "--size", "13"], "at most 12"),
        (["play", "omiga", "--width", "53"], "at most 52"),
        (["play", "omiga", "--variant", "zen", "--form", "x" * 50], "at most 40 characters"),
    ],
    ids=["game", "markup", "digits", "cells", "komi", "nan", "inf", "negative", "seat", "long-flag", "no-value", "stray",
         "omega-size", "omiga-width", "zen-form"],
)
def test_play_with_bad_options_exits_2_with_one_line(args: list[str], fragment: str) -> None:
    code, out, err = run(args)
    assert code == 2 and out == ""
    one_line_error(err, fragment)


def test_end_of_game_save_prompt_takes_quit_as_no(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    winning = ["a1", "a2", "b1", "b2", "c1"]
    for answer in ["quit", "q", "Q", "no", "n", "", "  "]:
        code, out, _ = run(["play", "omny", "--size", "3", "--white", "human"], [*winning, answer])
        assert code == 0 and "game over: black won" in out and "saved to" not in out
    assert list(tmp_path.iterdir()) == []


def test_save_to_a_bad_place_says_so_and_asks_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    winning = ["a1", "a2", "b1", "b2", "c1"]
    answers = ["missing/folder/game.json", str(tmp_path), "bad\x00name.json", "good.json"]
    code, out, _ = run(["play", "omny", "--size", "3", "--white", "human"], [*winning, *answers])
    assert code == 0
    assert out.count("✗ cannot save to") == 3 and "No such file or directory" in out and "saved to good.json" in out
    assert json.loads((tmp_path / "good.json").read_text())["result"]["winner"] == "black"
    code, out, _ = run(["play", "omny", "--size", "3", "--white", "human"], ["save missing/x.json", "save [/]/x", "quit"])
    assert code == 0 and out.count("✗ cannot save to") == 2 and "'[/]/x'" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.json"]


def test_junk_at_the_move_prompt_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    lines = ["a1", "[/]", "x" * 100_000, "\x00", "komi=1e99999999", "a1", f"save {record}", "quit"]
    code, out, _ = run(["play", "omny", "--size", "3", "--white", "human"], lines)
    assert code == 0 and out.count("✗ illegal move") == 5 and len(out) < 20_000
    assert [m["move"] for m in json.loads(record.read_text())["moves"]] == ["a1"]


# ----- the last resort ---------------------------------------------------------------------------------


def test_main_turns_an_unexpected_error_into_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    broken = typer.Typer()

    @broken.command()
    def boom() -> None:
        raise RuntimeError("a bug [/] somewhere")

    monkeypatch.setattr(app_module, "app", broken)
    monkeypatch.setattr(sys, "argv", ["ogames"])
    with pytest.raises(SystemExit) as exited:
        app_module.main()
    assert exited.value.code == 1
    err = capsys.readouterr().err
    one_line_error(err, "unexpected RuntimeError: a bug [/] somewhere (please report it)")


def test_the_installed_command_never_shows_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    script = "import sys; from ogames.cli.app import main; sys.argv = ['ogames'] + sys.argv[1:]; main()"
    for args in (["replay", str(tmp_path / "bin.json")], ["play", "omny", "--size", "x"], ["replay", str(tmp_path)]):
        done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr + done.stdout
        one_line_error(done.stderr, "error")
