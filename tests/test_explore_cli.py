"""`ogames explore`: the opening explorer at the prompt — the book's moves and the solver's verdicts
as the library gives them, stepping in and out, a start from `--line`, games added from
`--records`, and a clear refusal (exit 2, one line) of bad options, lines, folders and boards."""

from __future__ import annotations

import os
from pathlib import Path

from typer.testing import CliRunner

import ogames
from ogames.cli.app import app
from ogames.records import dumps
from ogames.teach.explorer import next_moves, position, shipped_book

runner = CliRunner()
Y5 = ["omny", "--variant", "y", "--size", "5"]


def run(args: list[str], typed: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, ["explore", *args], input="".join(line + "\n" for line in typed))
    return result.exit_code, result.stdout, result.stderr


def table(out: str, heading: str) -> dict[str, list[str]]:
    """The rows of the table shown under `heading` (the position's line), by move."""
    block = out.split(heading, 1)[1].split("explore>", 1)[0].split("a move steps in", 1)[0].splitlines()[2:]
    return {cells[0]: cells[1:] for cells in (line.split() for line in block) if cells and cells[0] != "…"}


def test_the_start_shows_the_books_moves_and_verdicts_as_the_library_gives_them() -> None:
    game = ogames.load("omny", variant="y", size=5)
    expected = next_moves(game.new_state(), [], [shipped_book().tree(game)], shipped_book().verdicts)
    code, out, err = run(Y5, ["quit"])
    assert code == 0, err
    assert "games: 60 (the book)" in out
    rows = table(out, "the start · black to move")
    assert len(rows) == min(15, len(expected))
    for row in expected[:15]:
        shown = rows[row.move]
        assert shown[0] == str(row.games)
        assert (shown[1] == f"{row.score:.0%}") if row.games else shown[1] == "–"
        assert (shown[2:] == [row.verdict]) if row.verdict else shown[2:] == []


def test_stepping_in_and_out_and_refusals_at_the_prompt() -> None:
    code, out, _ = run(Y5, ["c3", "zz", "back", "back", "quit"])
    assert code == 0
    after = table(out, "after c3 · white to move")
    game = ogames.load("omny", variant="y", size=5)
    expected = next_moves(position(game, ["c3"]), ["c3"], [shipped_book().tree(game)], shipped_book().verdicts)
    assert set(after) == {row.move for row in expected[:15]}
    assert "'zz' is not a cell of this board" in out
    assert out.count("the start · black to move") == 2  # back at the start
    assert "this is the start: there is no move to step back over" in out


def test_a_line_starts_there_and_an_unplayed_move_still_steps_in() -> None:
    code, out, _ = run([*Y5, "--line", "c3 b2"], ["e1", "quit"])  # (e1: no book game went there)
    assert code == 0
    assert "after c3 b2 · black to move" in out and "after c3 b2 e1 · white to move" in out


def test_records_add_the_games_of_this_board_and_skip_the_rest(tmp_path: Path) -> None:
    state = ogames.load("omny", variant="y", size=5).new_state()
    bot = ogames.player("random", seed=4)
    state.play("e1")
    while not state.is_over:
        state.play(bot.choose(state))
    (tmp_path / "mine.json").write_text(dumps(state.record()))
    other = ogames.load("omny", variant="y", size=4).new_state()
    other.play("a1")
    (tmp_path / "other-board.json").write_text(dumps(other.record()))
    (tmp_path / "junk.json").write_text("{not json")
    (tmp_path / "folder.json").mkdir()
    os.mkfifo(tmp_path / "pipe.json")  # never opened: reading it would wait for a writer
    code, out, _ = run([*Y5, "--records", str(tmp_path)], ["quit"])
    assert code == 0
    assert "games: 60 + 1 (the book, your records; 4 other files skipped)" in out
    book = {row.move: row.games for row in next_moves(ogames.load("omny", variant="y", size=5).new_state(), [],
                                                       [shipped_book().tree(ogames.load("omny", variant="y", size=5))])}
    assert table(out, "the start · black to move")["e1"][0] == str(book.get("e1", 0) + 1)


def test_bad_options_lines_folders_and_boards_are_refused_in_one_line(tmp_path: Path) -> None:
    cases = [
        (["omny", "--size", "99"], "option size=99 is not valid"),
        (["omny", "--white", "human"], "--white is not an option of omny"),
        (["chess"], "chess"),
        ([*Y5, "--line", "c3 c3"], "--line: illegal move 'c3'"),
        ([*Y5, "--line", "zz"], "--line: illegal move 'zz'"),
        ([*Y5, "--records", str(tmp_path / "none")], "not a folder"),
        (["onyx"], "the book holds no games of this board"),
        (["omiga"], "is played in real time"),
    ]
    for args, said in cases:
        code, out, err = run(args, ["quit"])
        assert code == 2 and out == "", args
        assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, (args, err)
