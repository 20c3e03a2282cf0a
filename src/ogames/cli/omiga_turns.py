"""Terminal faces for Omiga's turn-based modes: toddler (2–6 seats), zen and kids with `pace=turns`,
with rich; plus what every Omiga command shares (clear errors, save folders, tables that fit).

Commands at the prompt: the game's moves (`place 1 c3 turned`, `discard`, `draw white`, `end`, …),
`moves` (list the legal ones), `help`, `quit`. A bad entry gets a clear message and the same prompt.
Real-time kids (the default) has its own face in `omiga.py`; `loop` hands such states over to it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from ogames.cli.failing import fail
from ogames.cli.prompt import read_line
from ogames.errors import CannotPlay, OgamesError
from ogames.players.omiga.climber import climber_move
from ogames.rules import REAL_TIME, load
from ogames.rules.omiga.zen.forms import DEFAULT_FORM, FORMS

app = typer.Typer(help="Omiga's turn-based modes: toddler, zen and kids with --pace turns.", no_args_is_help=True)
console = Console()
MARK = {"white": "w", "black": "b", "red": "r", "blue": "u", "green": "g", "yellow": "y"}
STYLE = {"white": "bold white", "black": "bold grey50", "red": "bold red"}
STYLE |= {"blue": "bold blue", "green": "bold green", "yellow": "bold yellow"}
HELP = (
    "moves: place N CELL [turned] (kids/toddler: place CELL [turned]), discard, "
    "zen: start white|black, draw white|black, end; also: moves, help, quit"
)


# ----- shared by every Omiga command -------------------------------------------------------------
def save_folder(save: Path | None) -> Path | None:
    """The folder records go into, made now so that a bad one is refused before any game is played."""
    if save is None:
        return None
    try:
        save.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"cannot save records in {save}: {exc.strerror or exc}") from None
    if not save.is_dir():
        raise fail(f"cannot save records in {save}: it is not a folder")
    return save


def write_record(folder: Path, name: str, record: dict[str, Any]) -> Path | None:
    """Write a record as JSON into the folder; print why not (and return None) if that fails."""
    path = folder / name
    try:
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        console.print(Text(f"cannot write {path}: {exc.strerror or exc}", style="red"))
        return None
    return path


def column_name(table: Any, col: int) -> str:
    """The letters of a column's labels (`a` … `z`, `aa` …), as the table names its cells."""
    return table.label(table.number(col, 0)).rstrip("0123456789")


def bands(columns: int, cell_width: int, margin: int, width: int | None = None) -> list[range]:
    """The table's columns in bands that each fit the console (wide tables are drawn in parts)."""
    room = max(1, ((width or console.width) - margin) // cell_width)
    return [range(start, min(columns, start + room)) for start in range(0, columns, room)]


def render_table(table: Any) -> None:
    """The card grid, top row first: each card as colour letter and face code (left right top bottom).
    A table wider than the console is drawn in bands of columns, one under the other."""
    for band in bands(table.width, 7, 5):
        console.print(Text("     " + "".join(f"{column_name(table, c):^7}" for c in band)))
        for row in range(table.height - 1, -1, -1):
            line = Text(f"{row + 1:>3}  ")
            for col in band:
                card = table.at(table.number(col, row))
                if card is None:
                    line.append("   .   ")
                else:
                    line.append(f"{MARK.get(card.owner, '?')}{card.face.code}  ", style=STYLE.get(card.owner, "bold"))
            console.print(line)


def render_state(state: Any) -> None:
    """Whatever a player needs to see before choosing a move."""
    variant = state.game.options["variant"]
    if variant == "zen":
        console.print(Text.assemble((f"form {state.form.title}", "bold"), "  (# black, o white)"))
        for line in state.form.lines:
            console.print(Text("   " + line))
    render_table(state.table)
    if variant == "zen":
        codes = [f"{i + 1}: {c[0]}{state.cards.designs[d].code}" for i, (c, d) in enumerate(state.hand)]
        hand = ", ".join(codes) or "(empty)"
        console.print(Text(f"hand {hand}"))
        for colour, supply in state.supplies.items():
            turned = "turned once" if supply.turns else "not turned yet"
            console.print(Text(f"{colour} deck {len(supply.cards)}, discard pile {len(supply.discards)} ({turned})"))
    elif state.to_move:
        design = state.hands[state.to_move][0]
        code = state.table.card_set.designs[design].code
        console.print(Text(f"{state.to_move} holds {code}", style=STYLE.get(state.to_move, "bold")))


def loop(state: Any, bots: set[int], seed: int, ask=read_line) -> Any:
    """Play a turn-based state until the end or `quit`; returns the state. Bots sit in the seats
    listed in `bots`. (Real-time states have their own face, `omiga.play_live`; `omiga.play_any`
    chooses between the two.)"""
    if state.game.dynamics == REAL_TIME:
        raise CannotPlay("a real-time Omiga state is played by omiga.play_live, not the turn-based loop")
    rng = random.Random(seed)
    while not state.is_over:
        render_state(state)
        seat = state.mover
        if seat in bots:
            move = climber_move(state, rng)
            console.print(Text.assemble(f"bot {state.players[seat]} plays ", (move, "bold")))
            state.play(move)
            continue
        prompt = f"{state.players[seat]} ({state.to_move})> "
        while True:
            try:
                entry = ask(prompt).strip()
            except EOFError:
                return state
            if entry in ("quit", "exit"):
                return state
            if entry in ("help", "?", ""):
                console.print(Text(HELP))
                continue
            if entry == "moves":
                console.print(Text(", ".join(state.legal_moves()[:60])))
                continue
            try:
                state.play(entry)
                break
            except OgamesError as exc:
                console.print(Text(str(exc), style="red"))
    render_state(state)
    console.print(Text.assemble(("result: ", "bold"), state.result.describe() if state.result else "unfinished"))
    return state


def play_and_save(state: Any, bots: set[int], seed: int, folder: Path | None, name: str) -> Any:
    """Play at the prompt, then save the record into the folder (if one is given)."""
    loop(state, bots, seed)
    if folder is not None:
        path = write_record(folder, name, state.record())
        if path is not None:
            console.print(Text(f"record saved: {path}"))
    return state


def load_state(options: dict[str, Any]) -> Any:
    """A fresh state of Omiga with the options given (None: the game's default); a clear error (exit 2) if they are bad."""
    try:
        return load("omiga", **{k: v for k, v in options.items() if v is not None}).new_state()
    except OgamesError as exc:
        raise fail(str(exc)) from None


def record_name(state: Any) -> str:
    """The file name a game's record is saved under: omiga-VARIANT-SEED.json."""
    return f"omiga-{state.game.options['variant']}-{state.game.options['seed']}.json"


SaveOption = Annotated[Path | None, typer.Option(help="folder to save the game's record in (as omiga-VARIANT-SEED.json)")]


@app.command()
def toddler(
    players: int = typer.Option(None, help="2 to 6 seats (default 2)"),
    bots: int = typer.Option(1, help="how many of the last seats are bots"),
    seed: int = typer.Option(None, help="deck seed"),
    width: int = typer.Option(None, help="table width in cards (default 15)"),
    height: int = typer.Option(None, help="table height in cards (default 10)"),
    save: SaveOption = None,
) -> None:
    """Play «Карапуз» (toddler): rounds of one card, everyone races to the far edge."""
    state = load_state({"variant": "toddler", "players": players, "seed": seed, "width": width, "height": height})
    count = len(state.players)
    if not 0 <= bots <= count:
        raise fail(f"--bots {bots}: between 0 and the number of players ({count}) of the last seats may be bots")
    folder = save_folder(save)
    play_and_save(state, set(range(count - bots, count)), state.game.options["seed"], folder, record_name(state))


@app.command()
def zen(
    form: str = typer.Argument(DEFAULT_FORM, help="form key, English, Russian or Latin name"),
    seed: int = typer.Option(None),
    save: SaveOption = None,
) -> None:
    """Play «Дзен» (zen): build the chosen form alone."""
    state = load_state({"variant": "zen", "form": form, "seed": seed})
    play_and_save(state, set(), state.game.options["seed"], save_folder(save), record_name(state))


@app.command()
def forms(solve: bool = typer.Option(True, help="run the solver for each form")) -> None:
    """List the zen forms with their levels and the solver's verdict (chances: docs/zen-forms.md)."""
    from ogames.players.solvers.zen import solve as solve_form

    out = RichTable(
        "key", "English", "Russian", "level", "w/b", "solver",
        box=box.SIMPLE_HEAD, pad_edge=False, caption="w/b: the form's white and black cells",
    )
    for f in FORMS:
        verdict = solve_form(f.cells).status if solve else "—"
        out.add_row(f.key, f.english, f.russian, f.level, f"{f.count('white')}/{f.count('black')}", verdict)
    console.print(out)
