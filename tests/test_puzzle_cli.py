"""`ogames puzzle`: a shipped puzzle solved at the prompt (every game), wrong, illegal and unknown
moves answered without ending it, the solution shown on request, the draw by game, theme and
seed, and a clear refusal (exit 2, one line) of a bad id, filter or file. Also the library's
judge (`ogames.teach.puzzles.judge`) refusing a line off the puzzle."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ogames.cli.app import app
from ogames.errors import IllegalMove
from ogames.teach.puzzles import Puzzle, position_of, read
from ogames.teach.puzzles.judge import OffTheLine, judge, solver_side

runner = CliRunner()
PUZZLES = list(read())


def run(args: list[str], typed: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, ["puzzle", *args], input="".join(line + "\n" for line in typed))
    return result.exit_code, result.stdout, result.stderr


def first_of(game: str) -> Puzzle:
    return next(puzzle for puzzle in PUZZLES if puzzle.game == game)


def own_moves(puzzle: Puzzle) -> list[str]:
    """The solution's moves of the side that plays to win (the defence's are the program's)."""
    state, side, moves = position_of(puzzle), solver_side(puzzle), []
    for move in puzzle.solution:
        if state.mover == side:
            moves.append(move)
        state.play(move, t=0.0)
    return moves


def a_losing_first_move(puzzle: Puzzle) -> str:
    """Any other first move: the puzzle's first move is proven the only win."""
    return next(move for move in position_of(puzzle).legal_moves() if move != puzzle.move)


@pytest.mark.parametrize("game", ["omny", "oddy", "omega", "onyx"])
def test_playing_the_line_solves_it_at_the_first_try(game: str) -> None:
    puzzle = first_of(game)
    code, out, err = run([puzzle.id], own_moves(puzzle))
    assert code == 0, err
    assert f"puzzle {puzzle.id}" in out and "to play and win" in out
    assert "solved at the first try" in out and "wrong" not in out


def test_a_wrong_move_is_answered_and_the_puzzle_goes_on_from_the_same_position() -> None:
    puzzle = first_of("oddy")
    code, out, _ = run([puzzle.id], [a_losing_first_move(puzzle), *own_moves(puzzle)])
    assert code == 0
    assert out.count("Try again from the same position") == 1
    assert "solved after 1 wrong try" in out


def test_illegal_and_unknown_moves_are_refused_and_change_nothing() -> None:
    puzzle = first_of("omny")
    taken = puzzle.moves[0]  # (a cell: these puzzles have no pie)
    code, out, _ = run([puzzle.id], [taken, "zz99", "", *own_moves(puzzle)])
    assert code == 0
    assert f"cannot play it: illegal move '{taken}'" in out and "'zz99' is not a cell" in out
    assert "solved at the first try" in out  # neither counted as a wrong try


def test_the_solution_on_request_and_leaving_end_it_unsolved() -> None:
    puzzle = first_of("onyx")
    code, out, _ = run([puzzle.id], ["help", "solution", puzzle.move])
    assert code == 0 and "show the puzzle's line" in out
    assert f"the solution: {' '.join(puzzle.solution)}" in out and "solved" not in out
    for typed in (["quit"], []):  # `quit`, or the end of the input
        code, out, _ = run([puzzle.id], typed)
        assert code == 0 and "left unsolved" in out


def test_the_draw_follows_the_game_the_theme_and_the_seed() -> None:
    drawn = set()
    for seed in range(6):
        code, out, _ = run(["--game", "oddy", "--theme", "bridge", "--seed", str(seed)], ["quit"])
        assert code == 0
        ident = out.split("puzzle ", 1)[1].split()[0]
        puzzle = next(p for p in PUZZLES if p.id == ident)
        assert puzzle.game == "oddy" and "bridge" in puzzle.themes
        assert run(["--game", "oddy", "--theme", "bridge", "--seed", str(seed)], ["quit"])[1] == out  # the same seed
        drawn.add(ident)
    assert len(drawn) > 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["no-such-puzzle"], "no puzzle 'no-such-puzzle' in the set"),
        (["--game", "chess"], "no puzzles of 'chess': the set has"),
        (["--game", "onyx", "--theme", "ladder"], "no puzzles with the theme 'ladder': there are"),
        (["--file", "/no/such/file.jsonl"], "not a puzzle file"),
        (["--file", "/dev/zero"], "not a puzzle file"),  # endless, with no line break: not read at all
    ],
)
def test_bad_choices_are_refused_in_one_line(args: list[str], said: str) -> None:
    code, out, err = run(args, [])
    assert code == 2 and out == ""
    assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_bad_puzzle_file_is_refused_naming_the_line(tmp_path: Path) -> None:
    good = PUZZLES[0].to_line()
    broken = tmp_path / "mine.jsonl"
    broken.write_text(good + "\n" + '{"id": "x"}\n', encoding="utf-8")
    code, _, err = run(["--file", str(broken)], [])
    assert code == 2 and "line 2" in err and "Traceback" not in err
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\xff\xfe\x00\x81" * 100)
    code, _, err = run(["--file", str(garbage)], [])
    assert code == 2 and "Traceback" not in err
    own = tmp_path / "own.jsonl"
    own.write_text(good + "\n", encoding="utf-8")  # a set of one's own is read like the shipped one
    code, out, _ = run(["--file", str(own)], own_moves(PUZZLES[0]))
    assert code == 0 and f"puzzle {PUZZLES[0].id}" in out and "solved at the first try" in out


def test_the_library_judge_refuses_a_line_off_the_puzzle_and_an_illegal_move() -> None:
    puzzle = first_of("oddy")
    with pytest.raises(OffTheLine, match="do not follow the puzzle"):
        judge(puzzle, [a_losing_first_move(puzzle)], puzzle.move)
    with pytest.raises(OffTheLine, match="the defence's turn"):
        judge(puzzle, [puzzle.move], puzzle.solution[1])
    with pytest.raises(IllegalMove):
        judge(puzzle, [], puzzle.moves[0])
