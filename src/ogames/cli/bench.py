"""`ogames bench …`: how fast the engine is on any game and options, from the starting position.

    ogames bench playouts oddy --size 13 --seconds 2 --json
    ogames bench mcts omny --variant sunder --player mcts:exploration=1 --json

`playouts` counts random games played to the end through the game's own (compiled) playout,
`state.random_playout(rng)`; `mcts` counts the search iterations a player makes in one move from
the start, as its `info()` reports them (`iterations` and `seconds`). Game options are written as
for `ogames play`. Compiling the kernels (first run after an install, or a fresh cache) is done in
a warm-up before timing starts; how long it took is reported apart and is not in the figures.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import ogames
from ogames.cli.args import parse_play_args
from ogames.cli.failing import fail
from ogames.errors import BadOption, OgamesError, shown
from ogames.players import parse_spec, player
from ogames.rules.protocol import TURN_BASED, Game, State

app = typer.Typer(
    help="Measure speed: random playouts or search iterations per second from the start of a game.",
    no_args_is_help=True,
)

MAX_SECONDS = 3600.0
DEFAULT_SECONDS = 2.0
WARM_UP_ITERATIONS = 64  # a short search that compiles a player's kernels before the timed one
_CONTEXT = {"allow_extra_args": True, "ignore_unknown_options": True}

GameArgument = Annotated[str, typer.Argument(help="game name (see `ogames games`); its options follow as --name value")]
SecondsOption = Annotated[float, typer.Option(help="seconds to measure for (warm-up not counted)")]
JsonOption = Annotated[bool, typer.Option("--json", help="print one JSON object instead of a table")]



def _load(game: str, args: list[str]) -> Game:
    """The game with the options written after it; BadOption for anything else on the line."""
    options, others = parse_play_args(game, args)
    loaded = ogames.load(game, **options)
    if others:
        word = sorted(others)[0]
        raise BadOption(f"{loaded.name} has no option --{word[:40]} (options: {', '.join(loaded.option_set.names())})")
    return loaded


def _check_seconds(seconds: float) -> None:
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise BadOption(f"--seconds {seconds}: the time must be more than 0 and at most {MAX_SECONDS:.0f} seconds")


def _timed(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def measure_playouts(state: State, seconds: float, seed: int | None = None) -> dict[str, Any]:
    """Random games to the end from `state` (which is not changed) for about `seconds`, after a
    warm-up playout that compiles the game's kernels."""
    rng = random.Random(seed)
    warm = _timed(lambda: state.random_playout(rng))
    playout = state.random_playout
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        playout(rng)
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {"games": count, "seconds": elapsed, "games_per_second": count / elapsed, "warm_up_seconds": warm}


def measure_search(state: State, spec: str, seconds: float) -> dict[str, Any]:
    """Iterations per second of one search from `state` by the player `spec`, as its `info()`
    reports them; `seconds` is its thinking time unless the spec sets a budget of its own. A short
    search by the same kind of player comes first, to compile its kernels."""
    kind, settings = parse_spec(spec)
    player(spec)  # refuses an unknown kind or setting in the player's own words
    own_budget = "think" in settings or "iterations" in settings
    unbudgeted = {key: value for key, value in settings.items() if key not in ("think", "iterations")}
    try:
        warm_player = player(kind, **unbudgeted, iterations=WARM_UP_ITERATIONS)
    except BadOption:
        raise BadOption(f"player {shown(spec)} takes no search budget: bench mcts measures a searching player (mcts)") from None
    warm = _timed(lambda: warm_player.choose(state))
    timed = player(spec) if own_budget else player(spec, think=seconds)
    timed.reset()
    timed.choose(state)
    info = timed.info()
    iterations, used = info.get("iterations"), info.get("seconds")
    if not isinstance(iterations, int) or not iterations or not used:
        choices = len(state.legal_moves()) if state.game.dynamics == TURN_BASED else None
        why = "there is nothing to choose there" if choices == 1 else f"info: {shown(info)}"
        raise BadOption(f"player {shown(spec)} made no search iterations from the start of this game ({why})")
    return {"iterations": iterations, "seconds": used, "iterations_per_second": iterations / used, "warm_up_seconds": warm}


def _report(as_json: bool, what: str, facts: dict[str, Any], rate_key: str, unit: str) -> None:
    if as_json:
        typer.echo(json.dumps(facts))
        return
    options = " ".join(f"{k}={v}" for k, v in facts["options"].items() if v is not None)
    table = Table()
    with_player = "player" in facts
    if with_player:
        table.add_column("player")
    for column in (unit, "seconds", f"{unit}/s"):
        table.add_column(column, justify="right")
    count = facts["games"] if unit == "games" else facts["iterations"]
    table.add_row(
        *([escape(facts["player"])] if with_player else []), f"{count:,}", f"{facts['seconds']:.2f}", f"{facts[rate_key]:,.0f}"
    )
    console = Console(highlight=False)
    console.print(escape(f"{what}: {facts['game']} {options}"))
    console.print(table)
    console.print(f"[dim]one core, from the start; warm-up (compiling kernels) not timed: {facts['warm_up_seconds']:.2f} s[/]")


def _measured(ctx: typer.Context, game: str, seconds: float, measure: Callable[[State], dict[str, Any]]) -> dict[str, Any]:
    """The game (with the command's options) and what `measure` finds from its start; a clean
    error for anything refused."""
    try:
        _check_seconds(seconds)
        loaded = _load(game, ctx.args)
        facts = measure(loaded.new_state())
    except (OgamesError, ValueError, NotImplementedError) as exc:
        raise fail(str(exc)) from None
    return {"game": loaded.name, "options": loaded.jsonable_options(), **facts}


@app.command("playouts", context_settings=_CONTEXT)
def playouts_command(
    ctx: typer.Context,
    game: GameArgument,
    seconds: SecondsOption = DEFAULT_SECONDS,
    as_json: JsonOption = False,
) -> None:
    """Random games per second from the start through the game's own playout (JSON: games_per_second)."""
    facts = _measured(ctx, game, seconds, lambda state: measure_playouts(state, seconds))
    _report(as_json, "random playouts", facts, "games_per_second", "games")


@app.command("mcts", context_settings=_CONTEXT)
def mcts_command(
    ctx: typer.Context,
    game: GameArgument,
    player_spec: Annotated[
        str, typer.Option("--player", help="player spec, e.g. mcts or mcts:exploration=1 (a think= or iterations= in it wins)")
    ] = "mcts",
    seconds: SecondsOption = DEFAULT_SECONDS,
    as_json: JsonOption = False,
) -> None:
    """Search iterations per second of a player's first move (JSON: iterations_per_second)."""
    facts = _measured(ctx, game, seconds, lambda state: {"player": player_spec, **measure_search(state, player_spec, seconds)})
    _report(as_json, "search iterations", facts, "iterations_per_second", "iterations")
