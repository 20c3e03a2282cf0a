"""`ogames review RECORD [--budget N] [--prove N] [--seed N] [--json]`: the computer's review of a
finished game (`ogames.teach.review`) — every move with its mark, the mover's win chance after it,
the better move and its line, and a graph of the win chance as a text sparkline.

The record is a JSON record (`ogames play`'s `save`, the web site's download) or an SGF file of a
hex-board game (read as `ogames sgf import` reads it). `--json` prints the review as JSON instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ogames import sgf
from ogames.cli.failing import fail
from ogames.errors import BadOption, BadRecord, CannotPlay
from ogames.records import MAX_RECORD_BYTES, load_file
from ogames.rules import load
from ogames.teach.review import DEFAULT_BUDGET, DEFAULT_PROVE, MAX_BUDGET, MAX_PROVE, MoveReview, Review, review

SPARKS = "▁▂▃▄▅▆▇█"
SIGNS = {"good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
STYLES = {"good": "", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
GRAPH_WIDTH = 72  # characters of the sparkline at most (longer games are sampled)



def read_record(path: Path) -> dict[str, Any]:
    """A record from a JSON file, or from an SGF file (its text starts with "("); BadRecord naming
    the fault otherwise."""
    try:
        with path.open("rb") as handle:
            head = handle.read(64)
    except (OSError, ValueError) as exc:
        raise BadRecord(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"("):
        try:
            data = path.read_bytes()[: min(sgf.MAX_TEXT, MAX_RECORD_BYTES) + 1]
        except OSError as exc:
            raise BadRecord(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            return sgf.from_sgf(data)
        except BadRecord as exc:
            raise BadRecord(f"{path}: {exc}") from None
    return load_file(path)


def sparkline(points: list[float], width: int = GRAPH_WIDTH) -> str:
    """Chances from 0 to 1 as block characters, at most `width` of them (sampled evenly)."""
    if len(points) > width:
        points = [points[round(i * (len(points) - 1) / (width - 1))] for i in range(width)]
    return "".join(SPARKS[min(len(SPARKS) - 1, max(0, int(p * len(SPARKS))))] for p in points)


def _percent(chance: float | None) -> str:
    return "  –" if chance is None else f"{round(100 * chance):3d}%"


def move_line(move: MoveReview) -> str:
    """One move as the table shows it (rich markup)."""
    sign = SIGNS.get(move.mark or "", "")
    style = STYLES.get(move.mark or "", "")
    played = escape(f"{move.move}{sign}")
    if style:
        played = f"[{style}]{played}[/]"
    pad = " " * max(1, 11 - len(move.move + sign))
    text = f"{move.ply:4d}. {escape(move.colour):<7} {played}{pad}{_percent(move.after)}"
    if move.mark not in (None, "good"):
        loss = "" if move.loss is None else f" −{round(100 * move.loss)}%"
        text += f"  [{style}]{move.mark}{loss}[/]"
        if move.best is not None:
            text += f"  better {escape(move.best)}"
            rest = move.line[1:6]
            if rest:
                text += f" [dim]({escape(' '.join(rest))})[/]"
    if move.proven is not None:
        text += f"  [dim]proven {move.proven} before[/]"
    return text


def review_lines(result: Review, title: str) -> list[str]:
    """The review as the terminal prints it: a head, a line a move, the graph, each player's tally."""
    names = ", ".join(f"{colour}: {name}" for colour, name in result.seats.items())
    outcome = "unfinished" if result.winner is None else ("a draw" if result.winner == "draw" else f"{result.winner} won")
    lines = [f"[bold]{escape(title)}[/] · {len(result.moves)} moves · {escape(names)} · {escape(outcome)}",
             f"[dim]{result.budget} search iterations a position"
             + (f", proofs up to {result.prove} solver positions" if result.prove else "")
             + "; win chance of the player who moved, after the move[/]", ""]
    lines += [move_line(move) for move in result.moves]
    lines.append("")
    seats = len(result.players)
    shown = range(1) if seats == 2 else range(seats)
    for seat in shown:
        who = _seat_name(result, seat)
        lines.append(f"win chance of {escape(who)}: {sparkline(list(result.chances_of(seat)))}")
    lines.append("")
    for seat, player in enumerate(result.players):
        own = [move for move in result.moves if move.seat == seat]
        counts = {mark: sum(move.mark == mark for move in own) for mark in ("inaccuracy", "mistake", "blunder")}
        losses = [move.loss for move in own if move.loss is not None]
        mean = sum(losses) / len(losses) if losses else 0.0
        tally = ", ".join(f"{n} {PLURALS[mark] if n != 1 else mark}" for mark, n in counts.items())
        who = player if result.players.count(player) == 1 else _seat_name(result, seat)
        lines.append(f"{escape(who)}: {tally}; mean loss {100 * mean:.1f}%")
    return lines


def _seat_name(result: Review, seat: int) -> str:
    """The seat's player with its colour, which tells apart two seats of one name (two computers of
    a level): the colour its name holds, else the colour of the seat's last move."""
    player = result.players[seat]
    colours = [colour for colour, name in result.seats.items() if name == player]
    if len(colours) == 1:
        return f"{player} ({colours[0]})"
    played = [move.colour for move in result.moves if move.seat == seat]
    return f"{player} ({played[-1]})" if played else f"{player} (seat {seat + 1})"


def review_command(
    record: Annotated[Path, typer.Argument(help="a finished game's record: JSON, or SGF of a hex-board game")],
    budget: Annotated[int, typer.Option(help=f"search iterations a position (1 to {MAX_BUDGET:,})")] = DEFAULT_BUDGET,
    prove: Annotated[int, typer.Option(help=f"solver positions a position in Omny and Odd-Y (0: none, at most {MAX_PROVE:,})")]
    = DEFAULT_PROVE,
    seed: Annotated[int, typer.Option(help="the search's seed (the same seed, the same review)")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the review as JSON")] = False,
) -> None:
    """Review a game: each move marked good, inaccuracy, mistake or blunder, the better move, the win chance."""
    try:
        data = read_record(record)
    except BadRecord as exc:
        raise fail(str(exc) if str(record) in str(exc) else f"{record}: {exc}") from None
    err = Console(stderr=True, highlight=False)

    def progress(done: int, count: int) -> None:
        if err.is_terminal:
            err.print(f"reviewing… position {done} of {count}", end="\r")

    try:
        result = review(data, budget=budget, prove=prove, seed=seed, progress=progress)
    except BadRecord as exc:
        raise fail(f"{record}: {exc}") from None
    except (BadOption, CannotPlay) as exc:
        raise fail(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
        return
    console = Console(highlight=False)
    for line in review_lines(result, load(result.game, **result.options).title):
        console.print(line)


def register(app: typer.Typer) -> None:
    """Add `review` to the `ogames` command."""
    app.command("review")(review_command)
