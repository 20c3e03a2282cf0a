"""The Onyx terminal drawing: lattice, diagonals by row parity, midpoints, labels, highlights."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

import ogames
from ogames.cli.render import render_state
from ogames.cli.render.hexgrid import STONE_STYLES
from ogames.cli.render.onyx import render

BLACK, WHITE = STONE_STYLES["black"][0], STONE_STYLES["white"][0]


def plain(renderable) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_board_layout() -> None:
    state = ogames.load("onyx").new_state()
    text = plain(render(state))
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijkl") and lines[24].split() == list("abcdefghijkl")
    assert lines[1].startswith("12 ") and lines[1].rstrip().endswith("12")
    assert lines[23].startswith(" 1 ")
    # 61 triangle cells: 36 on even rows ('/'), 25 on odd rows ('\'); 60 midpoints.
    board = "\n".join(lines[1:24])
    assert board.count("/") == 36 and board.count("\\") == 25
    assert board.count("◦") + board.count("·") == 60 and board.count("·") == 4  # 4 squares hold a set-up stone
    assert sum(board.count(glyph) for glyph in {BLACK, WHITE}) == 8
    # Row 2 (between lines of rows 2 and 1): diagonal of a1–b2 comes first, then square b1*.
    assert lines[22].split()[:4] == ["│", "/", "│", "◦"]
    assert lines[20].split()[:4] == ["│", "◦", "│", "\\"]  # row 2's cells: a2* square, then b2's '\' diagonal
    assert lines[25] == "stones captured so far: black 0, white 0"


def test_last_move_and_captures_are_highlighted() -> None:
    state = ogames.load("onyx").new_state()
    for move in ("b1", "c1", "d10", "b2", "c2"):
        state.play(move)
    drawing = render_state(state)
    assert isinstance(drawing, Text)
    text = plain(drawing)
    assert text.count("×") == 3 and "× just captured" in text  # two on the board, one in the key
    assert "last move captured c1 b2" in text and "white 2" in text
    reversed_spans = [drawing.plain[s.start : s.end] for s in drawing.spans if "reverse" in str(s.style)]
    assert reversed_spans == [BLACK]
    # The reversed stone sits on c2: row 2's line, third point.
    line = text.splitlines()[21]
    assert line[3 + 4 * 2] == BLACK and line[3 + 4 * 1] == "×"


def test_midpoint_stone_and_result() -> None:
    state = ogames.load("onyx").new_state()
    state.play("b1*")
    text = plain(render(state))
    assert text.splitlines()[22].split()[3] == BLACK
    state.resign()  # a finished game still draws (with nothing open)
    assert "◦" not in plain(render(state))


def test_play_loop_with_onyx() -> None:
    from typer.testing import CliRunner

    from ogames.cli.app import app

    result = CliRunner().invoke(app, ["play", "onyx", "--white", "human", "--pie", "on"], input="b1\nswap\nc1\nb1*\nquit\n")
    assert result.exit_code == 0, result.output
    assert "b1* is the midpoint of a square with a stone on a corner (b1, c1)" in " ".join(result.output.split())
    assert "stones captured so far: black 0, white 0" in result.output
