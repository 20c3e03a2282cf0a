"""Terminal faces for Omiga's turn-based modes: kids, toddler (2–6 seats) and zen, with rich.

Commands at the prompt: the game's moves (`place 1 c3 turned`, `discard`, `draw white`, `end`, …),
`moves` (list the legal ones), `help`, `quit`. A bad entry gets a clear message and the same prompt.
"""

from __future__ import annotations

import random
from typing import Any

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from ogames.errors import OgamesError
from ogames.rules import load
from ogames.rules.omiga.zen.forms import FORMS

app = typer.Typer(help="Omiga's turn-based modes: kids, toddler and zen.", no_args_is_help=True)
console = Console()
MARK = {"white": "w", "black": "b", "red": "r", "blue": "u", "green": "g", "yellow": "y"}
STYLE = {"white": "bold white", "black": "bold grey50", "red": "bold red"}
STYLE |= {"blue": "bold blue", "green": "bold green", "yellow": "bold yellow"}
HELP = (
    "moves: place N CELL [turned] (kids/toddler: place CELL [turned]), discard, "
    "zen: start white|black, draw white|black, end; also: moves, help, quit"
)


def render_table(table: Any) -> None:
    """The card grid, top row first: each card as colour letter and face code (left right top bottom)."""
    letters = [chr(ord("a") + c) for c in range(table.width)]
    console.print("     " + "".join(f"{c:^7}" for c in letters))
    for row in range(table.height - 1, -1, -1):
        line = Text(f"{row + 1:>3}  ")
        for col in range(table.width):
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
        console.print(f"[bold]form {state.form.title}[/]  (# black, o white)")
        for line in state.form.lines:
            console.print("   " + line)
    render_table(state.table)
    if variant == "zen":
        codes = [f"{i + 1}: {c[0]}{state.cards.designs[d].code}" for i, (c, d) in enumerate(state.hand)]
        hand = ", ".join(codes) or "(empty)"
        console.print(Text(f"hand {hand}"))
        for colour, supply in state.supplies.items():
            turned = "turned once" if supply.turns else "not turned yet"
            console.print(f"{colour} deck {len(supply.cards)}, discard pile {len(supply.discards)} ({turned})")
    elif state.to_move:
        design = state.hands[state.to_move][0]
        code = state.table.card_set.designs[design].code
        console.print(Text(f"{state.to_move} holds {code}", style=STYLE.get(state.to_move, "bold")))


def bot_move(state: Any, rng: random.Random) -> str:
    """A simple bot: the placement that climbs furthest towards the far edge, else any legal move."""
    moves = state.legal_moves()
    places = [m for m in moves if m.startswith("place")]
    if not places or state.game.options["variant"] == "zen":
        return rng.choice(moves)
    colour = state.to_move
    far = state.table.far_row(colour)
    return min(places, key=lambda m: (abs(far - (int(m.split()[1][1:]) - 1)), rng.random()))


def loop(state: Any, bots: set[int], seed: int, ask=input) -> Any:
    """Play until the end or `quit`; returns the state."""
    rng = random.Random(seed)
    while not state.is_over:
        render_state(state)
        seat = state.mover
        if seat in bots:
            move = bot_move(state, rng)
            console.print(f"bot {state.players[seat]} plays [bold]{move}[/]")
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
                console.print(HELP)
                continue
            if entry == "moves":
                console.print(", ".join(state.legal_moves()[:60]))
                continue
            try:
                state.play(entry)
                break
            except OgamesError as exc:
                console.print(f"[red]{exc}[/]")
    render_state(state)
    console.print(f"[bold]result:[/] {state.result.describe()}")
    return state


@app.command()
def kids(seed: int = typer.Option(None, help="deck seed"), bot: bool = typer.Option(True, help="Black is a bot")) -> None:
    """Play «Дети» (kids): one card at a time, first to the far edge."""
    game = load("omiga", variant="kids", seed=seed)
    loop(game.new_state(), {1} if bot else set(), game.options["seed"])


@app.command()
def toddler(
    players: int = typer.Option(2, help="2 to 6 seats"),
    bots: int = typer.Option(1, help="how many of the last seats are bots"),
    seed: int = typer.Option(None, help="deck seed"),
) -> None:
    """Play «Карапуз» (toddler): rounds of one card, everyone races to the far edge."""
    try:
        game = load("omiga", variant="toddler", players=players, seed=seed)
    except OgamesError as exc:
        raise typer.BadParameter(str(exc)) from None
    loop(game.new_state(), set(range(players - bots, players)), game.options["seed"])


@app.command()
def zen(
    form: str = typer.Argument("fly", help="form key, English, Russian or Latin name"), seed: int = typer.Option(None)
) -> None:
    """Play «Дзен» (zen): build the chosen form alone."""
    try:
        game = load("omiga", variant="zen", form=form, seed=seed)
        state = game.new_state()
    except (OgamesError, ValueError) as exc:
        raise typer.BadParameter(str(exc)) from None
    loop(state, set(), game.options["seed"])


@app.command()
def forms(solve: bool = typer.Option(True, help="run the solver for each form")) -> None:
    """List the zen forms with their levels and the solver's verdict (chances: docs/zen-forms.md)."""
    from ogames.players.solvers.zen import solve as solve_form

    out = RichTable("key", "English", "Russian", "level", "white", "black", "solver")
    for f in FORMS:
        verdict = solve_form(f.cells).status if solve else "—"
        out.add_row(f.key, f.english, f.russian, f.level, str(f.count("white")), str(f.count("black")), verdict)
    console.print(out)
