"""`ogames omiga …`: watch recorded real-time Omiga games and run bot-vs-bot matches in the terminal."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

import ogames
from ogames.arena.realtime_match import run_match
from ogames.cli import omiga_turns
from ogames.errors import OgamesError
from ogames.players.omiga.bots import Bot
from ogames.rules import REAL_TIME
from ogames.rules.omiga.realtime import RealtimeState

app = typer.Typer(
    help="Omiga (Flanx): watch recorded real-time games, run bot matches, play kids, toddler and zen.",
    no_args_is_help=True,
)
console = Console()

# The turn-based modes live in their own module; they belong to the same command group.
for _command in (omiga_turns.kids, omiga_turns.toddler, omiga_turns.zen, omiga_turns.forms):
    app.command()(_command)

_HUE_STYLE = {"A": "red", "B": "blue"}
_OWNER_STYLE = {"white": "black on grey93", "black": "white on grey23"}


def render_table(state: RealtimeState) -> Text:
    """The table as text: each card as `hue seams hue` glyphs (e.g. `◖/^◗`), rows top first."""
    table = state.table
    out = Text()
    out.append("    " + "".join(f"{chr(97 + c):^5}" for c in range(table.width)) + "\n")
    for row in range(table.height - 1, -1, -1):
        out.append(f"{row + 1:>3} ")
        for col in range(table.width):
            cell = row * table.width + col
            placed = table.at(cell)
            if placed is None:
                out.append("  ·  ")
                continue
            face = placed.face
            style = _OWNER_STYLE.get(placed.owner, "")
            out.append("◖", style=f"{_HUE_STYLE[face.left]} on {style.split(' on ')[-1]}")
            out.append(f"{face.top}{face.bottom}", style=style)
            out.append("◗", style=f"{_HUE_STYLE[face.right]} on {style.split(' on ')[-1]}")
            out.append(" ")
        out.append("\n")
    return out


def _status(state: RealtimeState) -> str:
    hands = "  ".join(f"{a}: {' '.join(state.table.card_set.designs[d].code for d in state.hands[a])}" for a in state.actors)
    score = f"  score {state.scores}" if state.scores else ""
    return f"t={state.clock:.2f}s  moves {state.ply}{score}\n{hands}"


@app.command()
def watch(file: Path, speed: float = typer.Option(4.0, help="replay speed (× real time); 0 for no pauses")) -> None:
    """Replay a recorded base or 2v2 game in the terminal."""
    try:
        record = ogames.records.load_file(file)
        final = ogames.replay(record)
    except OgamesError as exc:
        console.print(f"[red]cannot watch {file}: {exc}[/]")
        raise typer.Exit(1) from None
    game = ogames.load(record["game"], **record["options"])
    if game.dynamics != REAL_TIME:
        console.print(f"[red]cannot watch {file}: watch shows real-time (base or 2v2) Omiga records[/]")
        raise typer.Exit(1)
    state = game.new_state(record["players"])
    assert isinstance(state, RealtimeState)
    console.print(render_table(state))
    last = 0.0
    for entry in record["moves"]:
        if speed > 0:
            time.sleep(max(0.0, (entry["t"] - last) / speed))
        last = entry["t"]
        state.replay_entry(entry)
        console.print(f"[bold]{entry['by']}[/]: {entry['move']}  (t={entry['t']})")
        console.print(render_table(state))
        console.print(_status(state))
    console.print(f"[bold green]{final.result.describe() if final.result else 'unfinished'}[/]")


@app.command()
def match(
    bots: tuple[str, str] = typer.Option(("racer@club", "random@club"), help="two bots as strategy@reaction"),
    games: int = typer.Option(10, min=1),
    seed: int = typer.Option(0),
    variant: str = typer.Option("base", help="base or 2v2"),
    width: int = typer.Option(15),
    height: int = typer.Option(10),
    save: Annotated[Path | None, typer.Option(help="folder to save every game's record in")] = None,
    show: bool = typer.Option(False, help="draw the final table of each game"),
) -> None:
    """Run a seeded bot-vs-bot match on the simulated clock and show the results."""
    try:
        a, b = Bot.make(bots[0]), Bot.make(bots[1])
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    report = run_match(a, b, games, seed, {"variant": variant, "width": width, "height": height})
    summary = RichTable(title=f"Omiga {variant}: {games} games")
    for column in ("bot", "wins", "share"):
        summary.add_column(column)
    for name, wins in zip(report.names, report.wins, strict=True):
        summary.add_row(name, str(wins), f"{wins / games:.0%}")
    summary.add_row("draws", str(report.draws), f"{report.draws / games:.0%}")
    summary.add_row("unfinished", str(report.unfinished), f"{report.unfinished / games:.0%}")
    console.print(summary)
    for number, record in enumerate(report.records):
        result = record["result"]
        console.print(f"game {number + 1}: {result['winner'] + ' — ' + result['reason'] if result else 'unfinished'}")
        if show:
            console.print(render_table(ogames.replay(record)))
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            (save / f"omiga-{seed + number}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    app()
