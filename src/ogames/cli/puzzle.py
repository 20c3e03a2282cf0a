"""`ogames puzzle [ID] [--game G] [--theme T] [--seed N] [--file PATH]`: solve a proven puzzle in the
terminal, as on the site's puzzle page: play the winning move, the defence answers from the stored
line, until the line is played out (`ogames.teach.puzzles.judge` judges every move).

Without an ID a puzzle is drawn from the shipped set (or `--file`'s), among those of the game and
theme asked for. At the prompt: a move, `solution` (shows the line and ends), `help`, `quit`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from ogames.cli.describe import board_name
from ogames.cli.failing import fail
from ogames.cli.prompt import ask
from ogames.cli.render import render_state
from ogames.errors import IllegalMove, UnknownLabel
from ogames.errors import shown as shorten
from ogames.teach.puzzles import SHIPPED, Puzzle, PuzzleSet, position_of, read
from ogames.teach.puzzles.judge import ALSO, RIGHT, SOLVED, WRONG, judge, replayed, side_colour, solution_state

MAX_FILE_BYTES = 100_000_000  # a puzzle file read whole (the shipped set is under 1 MB)

HELP = """  a move        your move: a cell as the board names it (c3)
  solution      show the puzzle's line and end
  help          this text
  quit          leave the puzzle"""


def chosen(puzzles: PuzzleSet, ident: str | None, game: str | None, theme: str | None, rng: random.Random) -> Puzzle:
    """The puzzle asked for: the one with `ident`, else one drawn among those of `game` with `theme`;
    ValueError naming what matched nothing."""
    if ident is not None:
        found = puzzles.get(ident)
        if found is None:
            raise ValueError(f"no puzzle {shorten(ident)} in the set")
        return found
    games = puzzles.games()
    if game is not None and game not in games:
        raise ValueError(f"no puzzles of {shorten(game)}: the set has {', '.join(games) or 'none'}")
    themes = puzzles.themes(game)
    if theme is not None and theme not in themes:
        raise ValueError(f"no puzzles with the theme {shorten(theme)}: there are {', '.join(themes) or 'none'}")
    candidates = puzzles.chosen(game, theme)
    if not candidates:
        raise ValueError("the set holds no puzzles")
    return rng.choice(candidates)


class Solving:
    """One puzzle at the prompt: the line played so far and the wrong tries."""

    def __init__(self, puzzle: Puzzle, console: Console):
        self.puzzle = puzzle
        self.console = console
        self.line: list[str] = []
        self.wrong = 0

    def show(self) -> None:
        self.console.print()
        self.console.print(render_state(replayed(self.puzzle, self.line)))

    def run(self) -> bool:
        """Until the puzzle is solved (True), or the person asks for the solution or leaves (False)."""
        puzzle = self.puzzle
        start = position_of(puzzle)
        title = board_name(start.game)
        about = f"themes {', '.join(puzzle.themes)} · " if puzzle.themes else ""
        self.console.print(f"[bold]puzzle {escape(puzzle.id)}[/] · {escape(title)} · {escape(about)}"
                           f"difficulty {puzzle.difficulty} of 5")
        self.show()
        self.console.print(f"[bold]{escape(side_colour(start) or '')}[/] to play and win. [dim](help: the commands)[/]")
        while True:
            answer = ask(self.console, "[bold]your move>[/] ")
            if answer is None or answer.strip().lower() in ("quit", "q", "exit"):
                self.console.print("left unsolved")
                return False
            move = answer.strip()
            if not move:
                continue
            if move.lower() in ("help", "h", "?"):
                self.console.print(HELP, markup=False)
            elif move.lower() in ("solution", "s"):
                self.console.print(f"the solution: {escape(' '.join(puzzle.solution))}")
                self.console.print(render_state(solution_state(puzzle)))
                return False
            elif self.judged(move):
                return True

    def judged(self, move: str) -> bool:
        """Judge one move and say what it did; whether the puzzle is solved."""
        try:
            judged = judge(self.puzzle, self.line, move)
        except (IllegalMove, UnknownLabel) as exc:
            self.console.print(f"[bold red]cannot play it:[/] {escape(str(exc))}")
            return False
        if judged.result == SOLVED:
            self.console.print()
            self.console.print(render_state(judged.state))
            first = "at the first try" if not self.wrong else f"after {self.wrong} wrong {'try' if self.wrong == 1 else 'tries'}"
            self.console.print(f"[bold green]solved[/] {first}")
            return True
        if judged.result == RIGHT:
            replies = judged.line[len(self.line) + 1 :]  # none when the same side places another stone (Omega)
            self.line = judged.line
            said = f": the defence answers {escape(' '.join(replies))}" if replies else "; now your next stone"
            self.console.print(f"[green]right[/]{said}")
            self.show()
        elif judged.result == ALSO:
            self.console.print("that wins too, but the puzzle follows another line: find its move")
        elif judged.result == WRONG:
            self.wrong += 1
            answer = f": the defence answers {escape(judged.refutation)} and wins" if judged.refutation else ""
            self.console.print(f"[bold red]wrong[/]{answer}. Try again from the same position.")
        return False


def puzzle_command(
    ident: Annotated[str | None, typer.Argument(metavar="ID", help="the puzzle's id (default: one drawn at random)")] = None,
    game: Annotated[str | None, typer.Option(help="draw among this game's puzzles (omny, oddy, omega, onyx)")] = None,
    theme: Annotated[str | None, typer.Option(help="draw among the puzzles with this theme, e.g. bridge")] = None,
    seed: Annotated[int | None, typer.Option(help="the draw's seed (the same seed, the same puzzle)")] = None,
    file: Annotated[Path | None, typer.Option(help="a puzzle set of your own (JSON lines, as tools/make_puzzles.py writes)")]
    = None,
) -> None:
    """Solve a proven puzzle: play the one winning move and the line after it against the stored defence."""
    source = file or SHIPPED
    try:
        if not source.is_file() or source.stat().st_size > MAX_FILE_BYTES:  # (not /dev/zero, a folder or a pipe)
            raise ValueError(f"not a puzzle file: it must be a file of at most {MAX_FILE_BYTES // 1_000_000} MB")
        puzzles = PuzzleSet.of(read(source))
    except (ValueError, OSError) as exc:  # BadPuzzle names the line; a file that is no text is a ValueError too
        raise fail(f"{source}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        puzzle = chosen(puzzles, ident, game, theme, random.Random(seed))
    except ValueError as exc:
        raise fail(str(exc)) from None
    Solving(puzzle, Console(highlight=False)).run()


def register(app: typer.Typer) -> None:
    """Add `puzzle` to the `ogames` command."""
    app.command("puzzle")(puzzle_command)
