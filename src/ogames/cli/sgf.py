"""`ogames sgf …`: write a JSON record as SGF (HexGui's Hex form) and read an SGF back as a record.

    ogames sgf export game.json -o game.sgf
    ogames sgf import game.sgf -o game.json
    ogames sgf import hex.sgf --game omny --option variant=custom --option shape=rhombus --option size=11
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from ogames import records, sgf
from ogames.cli.args import parse_play_args
from ogames.cli.failing import fail
from ogames.errors import BadOption, BadRecord
from ogames.records import load_file

app = typer.Typer(
    help="SGF for the hex-board games (Omny, Odd-Y on the triangle): export records, import SGF.",
    no_args_is_help=True,
)



def _write(text: str, out: Path | None) -> None:
    if out is None:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror or exc}", 1) from None
    Console(stderr=True, highlight=False).print(f"wrote {escape(str(out))}")


@app.command("export")
def export_command(
    record: Annotated[Path, typer.Argument(help="a game record (JSON) of Omny or Odd-Y on the triangle")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write the SGF here instead of printing it")] = None,
) -> None:
    """Write a record as SGF (FF[4] GM[11], moves ;B[c3];W[swap-sides]…)."""
    try:
        text = sgf.to_sgf(load_file(record))
    except BadRecord as exc:
        message = str(exc) if str(record) in str(exc) else f"{record}: {exc}"
        raise fail(message, 1) from None
    _write(text, out)


@app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(help="an SGF file of a hex-board game")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write the record (JSON) here instead of printing it")] = None,
    game: Annotated[str | None, typer.Option(help="the ogames game, when the SGF does not name it (no OG property)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="a game option NAME=VALUE (repeat); with --game")] = None,
) -> None:
    """Read an SGF game as an ogames record (every move checked by the rules)."""
    options = None
    if option:
        if game is None:
            raise fail("--option needs --game (the options of which game?)", 1)
        try:
            parsed, unknown = parse_play_args(game, [f"--{word}" for word in option])
        except BadOption as exc:
            raise fail(str(exc), 1) from None
        if unknown:
            raise fail(f"--option {next(iter(unknown))}: {game} has no such option", 1)
        options = dict(parsed)
    elif game is not None:
        options = {}
    try:
        data = file.read_bytes()[: sgf.MAX_TEXT + 1]
    except OSError as exc:
        raise fail(f"cannot read {file}: {exc.strerror or exc}", 1) from None
    try:
        record = sgf.from_sgf(data, game=game, options=options)
    except (BadRecord, BadOption) as exc:
        raise fail(f"{file}: {exc}", 1) from None
    _write(records.dumps(record), out)
