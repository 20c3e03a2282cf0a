"""`ogames selfplay GAME [--option value …] --player SPEC --games N [--out FOLDER] [--seed S]
[--workers N] [--ray auto|local|ADDRESS] [--resume] [--shard-size N]`: games of one player against
itself in worker processes (or Ray tasks), saved as records and, for the board games, as training
examples in .npz shards (the format: `ogames.arena.selfplay`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ogames.arena import selfplay
from ogames.arena import tournament as arena
from ogames.cli.failing import fail
from ogames.cli.tournament import (
    RAY_HELP,
    WORKERS_HELP,
    check_runner,
    default_folder,
    fail_if_unplayed,
    play_games,
    players_and_options,
    runner,
    told_failures,
)
from ogames.errors import BadOption

HELP = "\n\n".join(
    (
        "Play a player against itself and save the games as training data.",
        "--player SPEC takes one player spec (e.g. mcts:iterations=400), seated in every seat; --games N games "
        "are played, seats rotating, each seeded from --seed and its number.",
        "Game options as in `ogames play GAME --help`, e.g. --variant y --size 5 (Omega: --players 3).",
        "--out (default selfplay/GAME-<id of the settings>) gets tournament.json, one record per game in games/ and, "
        "for Omny, Odd-Y, Omega and Onyx, examples/shard-NNNNN.npz: per decision the observation planes, the legal "
        "mask, the action played and the final result for the seat to move (docs/scale-out.md). --resume continues.",
        "--ray runs the games as Ray tasks, as for `ogames tournament`.",
    )
)


def selfplay_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game name (see `ogames games`)")],
    games: Annotated[int, typer.Option("--games", help="games to play")] = 100,
    workers: Annotated[int | None, typer.Option(help=WORKERS_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="folder for records and examples")] = None,
    seed: Annotated[int, typer.Option(help="seed: every game's seed derives from it and the game number")] = 0,
    resume: Annotated[bool, typer.Option("--resume", help="continue the self-play saved in --out")] = False,
    shard_size: Annotated[int, typer.Option("--shard-size", help="games per examples shard")] = selfplay.DEFAULT_SHARD_SIZE,
    ray: Annotated[str | None, typer.Option("--ray", help=RAY_HELP, metavar="auto|local|ADDRESS")] = None,
) -> None:
    """Play a player against itself and save the games as training data."""
    console = Console(highlight=False)
    try:
        specs, options = players_and_options(list(ctx.args), game)
        if len(specs) != 1:
            raise BadOption(f"name one player after --player, e.g. --player mcts:iterations=200 ({len(specs)} given)")
        if shard_size < 1:
            raise BadOption(f"--shard-size must be at least 1, not {shard_size}")
        t = selfplay.plan_selfplay(game, options, specs[0], games, seed)
        folder = out if out is not None else default_folder(t, "selfplay")
        check_runner(workers, ray)
    except (BadOption, ValueError) as exc:
        raise fail(str(exc)) from None
    with told_failures(console, folder):
        with runner(workers, ray) as (executor, where):
            shown_options = ", ".join(f"{k}={v}" for k, v in t.settled.items() if v is not None)
            console.print(f"[bold]{escape(t.game)}[/] {escape(shown_options)}")
            plan_line = f"self-play of {specs[0]}: {len(t.pairings)} games, {where}, seed {t.seed} → {folder}"
            console.print(escape(plan_line))
            summary = play_games(console, t, folder, executor, resume, "fisher")
        shards = selfplay.write_examples(t, folder, shard_size)
    console.print(f"{len(summary.outcomes)} of {len(t.pairings)} games saved in {escape(str(folder / arena.GAMES))}")
    if shards:
        rows = sum(int(_rows(path)) for path in shards)
        console.print(f"{rows} examples in {len(shards)} shard(s) in {escape(str(folder / selfplay.EXAMPLES))}")
    elif not selfplay.has_examples(t.game):
        console.print(f"[dim]{escape(t.game)} has no observation tensors: records only[/]")
    fail_if_unplayed(summary)


def _rows(path: Path) -> int:
    import numpy as np

    with np.load(path, allow_pickle=False) as data:
        return len(data["action"])


def register(app: typer.Typer) -> None:
    """Add `selfplay` to the `ogames` command."""
    settings: dict[str, Any] = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": ["--help"]}
    app.command("selfplay", context_settings=settings, help=HELP)(selfplay_command)
