"""`ogames explore GAME [--option value …] [--line "c3 b2"] [--records DIR]`: the opening explorer
(`ogames.teach.explorer`) at the terminal, as the site's `/explore` page shows it: from a position,
the moves played next in the shipped self-play book (and in the records of `--records`), how often,
how the mover scored with each, and the solver's proven verdicts where the book holds them.

At the prompt a move steps into the position after it (any legal move, played or not), `back`
steps out, `quit` (or the end of the input) ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

import ogames
from ogames.cli.args import parse_play_args
from ogames.cli.describe import board_name
from ogames.cli.failing import fail
from ogames.cli.prompt import ask
from ogames.cli.render import render_state
from ogames.errors import BadOption, BadRecord, OgamesError
from ogames.errors import shown as shorten
from ogames.records import load_file
from ogames.rules.protocol import Game
from ogames.teach.explorer import MAX_PATH, Row, Tree, board_key, next_moves, position, shipped_book

MAX_ROWS = 15  # moves listed a position (the most played first)
MAX_RECORDS = 100_000  # files read from --records


def records_tree(game: Game, folder: Path) -> tuple[Tree, int]:
    """A tree of the finished games of this board among the JSON records in `folder` (not below it),
    and how many files were not such a record; BadOption if the folder cannot be read."""
    if not folder.is_dir():
        raise BadOption(f"--records {shorten(str(folder))}: not a folder")
    tree, skipped = Tree(game), 0
    for path in sorted(folder.glob("*.json"))[:MAX_RECORDS]:
        try:
            added = path.is_file() and tree.add_record(load_file(path))  # (not a folder or a pipe so named)
        except BadRecord:
            added = False
        skipped += not added
    return tree, skipped


def rows_lines(rows: list[Row], colour: str | None) -> list[str]:
    """The table of next moves (rich markup), or a line saying there are none."""
    if not rows:
        return ["[dim]no games went on from here, and no move is proven[/]"]
    lines = [f"[bold]{'move':<8}{'games':>7}{escape(f'{colour} scores'):>16}  proven[/]"]
    for row in rows[:MAX_ROWS]:
        score = f"{row.score:.0%}" if row.games else "–"
        verdict = {"win": "[green]win[/]", "loss": "[red]loss[/]"}.get(row.verdict or "", "")
        lines.append(f"{escape(row.move):<8}{row.games:>7}{score:>16}  {verdict}")
    if len(rows) > MAX_ROWS:
        lines.append(f"[dim]… {len(rows) - MAX_ROWS} more[/]")
    return lines


def explore_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game name (see `ogames games`); its options as --name value")],
    line: Annotated[str, typer.Option(help="the moves to the position to start from, e.g. \"c3 b2\"")] = "",
    records: Annotated[Path | None, typer.Option(help="also the finished games saved in this folder (*.json)")] = None,
) -> None:
    """Explore openings: the moves played from a position, how often, the scores, the proven verdicts."""
    try:
        options, seats = parse_play_args(game, ctx.args)
        if seats:
            raise BadOption(f"--{sorted(seats)[0][:40]} is not an option of {game}")
        loaded = ogames.load(game, **options)
        book = shipped_book()
        trees = [book.tree(loaded)]
        skipped = 0
        if records is not None:
            own, skipped = records_tree(loaded, records)
            trees.append(own)
        path = line.split()
        if len(path) > MAX_PATH:
            raise BadOption(f"--line: at most {MAX_PATH} moves")
        try:
            position(loaded, path)
        except OgamesError as exc:
            raise BadOption(f"--line: {exc}") from None
    except (OgamesError, ValueError) as exc:
        raise fail(str(exc)) from None
    if not any(tree.lines for tree in trees) and not book.verdicts.table.get(board_key(loaded)):
        boards = "; ".join(board_name(tree.game) for tree in book.trees.values())
        raise fail(f"the book holds no games of this board (it has {boards}); add your own with --records")
    console = Console(highlight=False)
    games = " + ".join(f"{tree.lines:,}" for tree in trees)
    console.print(f"[bold]{escape(board_name(loaded))}[/] · games: {games} (the book"
                  + (f", your records; {skipped} other files skipped)" if records is not None else ")"), soft_wrap=True)
    Exploring(loaded, trees, path, console).run()


class Exploring:
    """Stepping through positions at the prompt."""

    def __init__(self, game: Game, trees: list[Tree], path: list[str], console: Console):
        self.game, self.trees, self.path, self.console = game, trees, path, console

    def show(self) -> None:
        state = position(self.game, self.path)
        self.console.print()
        self.console.print(render_state(state))
        where = f"after {' '.join(self.path)}" if self.path else "the start"
        self.console.print(f"{escape(where)} · [bold]{escape(state.to_move or '')}[/] to move")
        for text in rows_lines(next_moves(state, self.path, self.trees, shipped_book().verdicts), state.to_move):
            self.console.print(text)

    def run(self) -> None:
        self.show()
        self.console.print("[dim]a move steps in, back steps out, quit ends[/]")
        while True:
            answer = ask(self.console, "[bold]explore>[/] ")
            if answer is None or answer.strip().lower() in ("quit", "q", "exit"):
                return
            move = answer.strip()
            if not move:
                continue
            if move.lower() in ("back", "b"):
                if not self.path:
                    self.console.print("[red]✗ this is the start: there is no move to step back over[/]")
                    continue
                self.path.pop()
            else:
                try:
                    position(self.game, [*self.path, move])
                except OgamesError as exc:
                    self.console.print(f"[red]✗ {escape(str(exc))}[/]")
                    continue
                self.path.append(move)
            self.show()


def register(app: typer.Typer) -> None:
    """Add `explore` to the `ogames` command."""
    app.command("explore", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(explore_command)
