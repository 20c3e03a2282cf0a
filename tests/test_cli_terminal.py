"""The command at a real terminal: `python -m ogames` in a pseudo-terminal driven by pexpect, as a
person types. Line editing and history at the move prompt, moves typed ahead reaching the next
prompt, and the end-of-game question taking only what is typed after it appeared."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX", allow_module_level=True)

LEFT, UP, BACKSPACE = "\x1b[D", "\x1b[A", "\x7f"
BLACK, WHITE = r"black \(human 1\)> ", r"white \(human 2\)> "
# Four-cell-wide Odd-Y without the pie: two people, Black first.
TWO_PEOPLE = ["play", "oddy", "--size", "4", "--pie", "off", "--white", "human"]


def spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    """`python -m ogames ARGS` in a 40 × 120 pseudo-terminal, with readline's default key bindings."""
    env = {**os.environ, "TERM": "xterm", "INPUTRC": "/dev/null", "NO_COLOR": "1", "COLUMNS": "120"}
    child = pexpect.spawn(
        sys.executable, ["-m", "ogames", *args], cwd=str(cwd), env=env, encoding="utf-8", timeout=120, dimensions=(40, 120)
    )
    return child


def saved_moves(path: Path) -> list[str]:
    return [entry["move"] for entry in json.loads(path.read_text())["moves"]]


def finish(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


def test_arrow_keys_edit_the_line_and_up_recalls_the_last_one(tmp_path: Path) -> None:
    child = spawn(TWO_PEOPLE, tmp_path)
    child.expect(BLACK)
    child.send("a3" + LEFT + BACKSPACE + "b" + "\r")  # a3, back over the 3, rub out the a, type b: b3
    child.expect(WHITE)
    child.send(UP + BACKSPACE + "2\r")  # up brings back b3; its 3 becomes 2: b2
    child.expect(BLACK)
    child.send("save game.json\r")
    child.expect("saved to game.json")
    child.expect(BLACK)
    child.send("quit\r")
    finish(child)
    assert saved_moves(tmp_path / "game.json") == ["b3", "b2"]


def test_moves_typed_ahead_reach_the_next_prompts(tmp_path: Path) -> None:
    child = spawn(TWO_PEOPLE, tmp_path)
    child.expect(BLACK)
    child.send("a1\rb1\rsave game.json\rquit\r")  # all typed before the second prompt appeared
    child.expect("saved to game.json")
    finish(child)
    assert saved_moves(tmp_path / "game.json") == ["a1", "b1"]


def test_the_end_of_game_question_sets_aside_what_was_typed_before_it(tmp_path: Path) -> None:
    child = spawn(TWO_PEOPLE, tmp_path)
    child.expect(BLACK)
    child.send("resign\rc2\r")  # a move typed ahead: the game ends before any prompt reads it
    child.expect(r"save the game\? file name \(Enter or q to skip\)> ")
    assert "(what was typed before this question was set aside)" in child.before
    child.send("kept.json\r")
    child.expect("saved to kept.json")
    finish(child)
    assert not (tmp_path / "c2").exists()  # the move was not taken for a file name
    assert saved_moves(tmp_path / "kept.json") == ["resign"]


def test_a_question_answered_in_advance_through_a_pipe_still_reads_its_answer(tmp_path: Path) -> None:
    """Only a terminal's type-ahead is set aside: a script's piped answers are meant in advance."""
    done = subprocess.run(
        [sys.executable, "-m", "ogames", *TWO_PEOPLE],
        input="resign\npiped.json\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "set aside" not in done.stdout
    assert saved_moves(tmp_path / "piped.json") == ["resign"]


def test_python_dash_m_ogames_is_the_ogames_command(tmp_path: Path) -> None:
    by_module = subprocess.run([sys.executable, "-m", "ogames", "games"], capture_output=True, text=True, timeout=120)
    assert by_module.returncode == 0, by_module.stderr
    assert "omny" in by_module.stdout and "omiga" in by_module.stdout
    refused = subprocess.run([sys.executable, "-m", "ogames", "play", "chess"], capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "unknown game" in refused.stderr and "Traceback" not in refused.stderr
