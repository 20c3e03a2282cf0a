"""`ogames tournament GAME [--option value …] --players SPEC SPEC … [--games-per-pair N]
[--workers N] [--out FOLDER] [--seed S] [--resume] [--ray auto|local|ADDRESS]`: a round robin in
worker processes (or Ray tasks) with a progress bar, then the Elo table and the pairwise results;
records, table and plot in the folder."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ogames.arena import tournament as arena
from ogames.arena.schedule import balanced
from ogames.cli.args import parse_play_args
from ogames.cli.failing import fail
from ogames.errors import BadOption, OgamesError, shown

HELP = "\n\n".join(
    (
        "Play a round robin between players and rate them (Elo with 95% intervals).",
        "Players (two or more, required) as specs after --players: --players random mcts:iterations=200 "
        "mcts:think=0.5 (real-time Omiga: bots such as racer:reaction=expert rollout greedy).",
        "Game options as in `ogames play GAME --help`, e.g. --variant y --size 5; a number after --players is "
        "the game's player count (omega --players 3). Seats alternate between games (rotate through every "
        "order at tables of three or more).",
        "Records, tournament.json, elo.json, elo.csv and elo.png go to --out (default "
        "tournaments/GAME-<id of the settings>); --resume continues an interrupted tournament there. "
        "--seed seeds every game (Omiga deals a new deck per game). --openings N starts every game from N "
        "random moves and plays each opening once in every seat order of its pair, so that neither a first-move "
        "advantage nor an opening that decides the game favours a player; --book FILE takes the openings from a "
        "file instead, one a line in turn (moves separated by spaces).",
        "--ray auto plays the games as Ray tasks on the Ray cluster found (RAY_ADDRESS, else the latest `ray start` on "
        "this machine, else any Ray instance running here) or, if none, on a Ray instance started here; "
        "--ray local always starts one here; --ray HOST:PORT "
        "joins that cluster. Ray is an optional extra: pip install \"ogames\\[ray]\" (docs/scale-out.md).",
    )
)



def split_players(args: list[str]) -> tuple[list[str], list[str]]:
    """(player specs, the other arguments): specs follow `--players` (or `--players=SPEC`) up to the
    next `--option`; `--players` may come more than once. A lone whole number after it is the
    game's own `players` option (Omega's and toddler Omiga's player count), since no spec is a number."""
    specs: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        name, has_value, value = token.partition("=")
        i += 1
        if name not in ("--players", "--player"):
            rest.append(token)
            continue
        values = [value] if has_value else []
        while not has_value and i < len(args) and not args[i].startswith("--"):
            values.append(args[i])
            i += 1
        if len(values) == 1 and values[0].strip().isdigit():
            rest += ["--players", values[0]]
        else:
            specs += values
    return specs, rest


def players_and_options(args: list[str], game: str, hint: str = "") -> tuple[list[str], dict[str, Any]]:
    """(player specs, game options) of a command's extra arguments; BadOption names the first
    option the game does not have (`hint` goes before the pointer to the game's options)."""
    specs, rest = split_players(args)
    options, unknown = parse_play_args(game, rest)
    if unknown:
        word = sorted(unknown)[0]
        if word == "players":
            raise BadOption(f"{game} has no player count to set: --players takes player specs, not a number")
        raise BadOption(f"unknown option --{shown(word)[1:-1]} ({hint}game options: `ogames play {game} --help`)")
    return specs, options


def default_folder(t: arena.Tournament, parent: str = "tournaments") -> Path:
    """PARENT/GAME-<8 hex digits of the manifest>: the same settings find the same folder
    (`ogames selfplay` keeps its runs under selfplay/)."""
    digest = hashlib.sha256(json.dumps(t.manifest(), sort_keys=True).encode()).hexdigest()[:8]
    return Path(parent) / f"{t.game}-{digest}"


# (Round brackets: the help is rich markup, where [words] would be read as a style and vanish.)
WORKERS_HELP = "games at once: worker processes (default: the cores); with --ray, Ray tasks under way (default: 2 × its CPUs)"
RAY_HELP = "play the games as Ray tasks: auto (a running cluster, else a local instance), local, or HOST:PORT"
OPENINGS_HELP = "start every game from N random moves, each opening played in every seat order of its pair (0: none)"
BOOK_HELP = "openings from a file, one a line (moves separated by spaces), each played in every seat order of its pair"


def tournament_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game name (see `ogames games`)")],
    games_per_pair: Annotated[
        int | None, typer.Option("--games-per-pair", help="games per pair (per group at tables of 3+); default 10 or 12")
    ] = None,
    workers: Annotated[int | None, typer.Option(help=WORKERS_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="folder for records and results")] = None,
    seed: Annotated[int, typer.Option(help="tournament seed: every game's seed derives from it and the game number")] = 0,
    resume: Annotated[bool, typer.Option("--resume", help="continue the tournament saved in --out")] = False,
    ci: Annotated[str, typer.Option(help="confidence intervals: bootstrap (over games) or fisher")] = "bootstrap",
    ray: Annotated[str | None, typer.Option("--ray", help=RAY_HELP, metavar="auto|local|ADDRESS")] = None,
    openings: Annotated[int, typer.Option("--openings", help=OPENINGS_HELP, metavar="N")] = 0,
    book: Annotated[Path | None, typer.Option("--book", help=BOOK_HELP, metavar="FILE")] = None,
) -> None:
    """Play a round robin between players and rate them (Elo with 95% intervals)."""
    console = Console(highlight=False)
    try:
        specs, options = players_and_options(list(ctx.args), game, "players go after --players; ")
        if not specs:
            raise BadOption("name the players after --players, e.g. --players random mcts:iterations=200")
        if ci not in ("bootstrap", "fisher"):
            raise BadOption(f"--ci {shown(ci)}: use bootstrap or fisher")
        lines = arena.read_book(book) if book is not None else ()
        t = arena.plan(game, options, specs, games_per_pair, seed, opening_plies=openings, book=lines)
        folder = out if out is not None else default_folder(t)
        check_runner(workers, ray)
    except (BadOption, ValueError) as exc:
        raise fail(str(exc)) from None
    with told_failures(console, folder), runner(workers, ray) as (executor, where):
        _headline(console, t, folder, where)
        summary = play_games(console, t, folder, executor, resume, ci)
    show_results(console, summary)
    from ogames.arena.report import write_reports

    paths = write_reports(summary, folder)
    files = ", ".join(escape(p.name) for p in paths.values())
    console.print(f"records in {escape(str(folder / arena.GAMES))}; table and plot: {files}")
    fail_if_unplayed(summary)


@contextmanager
def told_failures(console: Console, folder: Path) -> Iterator[None]:
    """Around a run of games (tournament or self-play): Ctrl-C says the saved games stay in the
    folder and exits 130; a failure exits 1 with its message, never a traceback."""
    try:
        yield
    except KeyboardInterrupt:
        where = escape(str(folder))
        console.print(f"[yellow]interrupted:[/] the games saved stay in {where}; run the same command with --resume to go on")
        raise typer.Exit(130) from None
    except OSError as exc:  # the folder cannot be made or written: say which, in words
        reason = (exc.strerror or str(exc)).lower()
        where = f" {exc.filename}" if exc.filename else ""
        raise fail(f"cannot save the games in{where}: {reason} (choose another --out)", code=1) from None
    except (OgamesError, ValueError) as exc:
        raise fail(str(exc), code=1) from None


def fail_if_unplayed(summary: arena.Summary) -> None:
    """Exit 1, after the results are shown, if some games could not be played."""
    if summary.failed:
        first = min(summary.failed)
        raise fail(
            f"{len(summary.failed)} game(s) could not be played (game {first}: {summary.failed[first]}); "
            "run the same command with --resume to try them again",
            code=1,
        )


def check_runner(workers: int | None, ray: str | None) -> None:
    """BadOption for a bad --workers or --ray value, before anything starts."""
    if workers is not None and workers < 1:
        raise BadOption(f"--workers must be at least 1, not {workers}")
    if ray is not None:
        from ogames.arena.ray_runner import parse_address

        parse_address(ray)


@contextmanager
def runner(workers: int | None, ray: str | None) -> Iterator[tuple[arena.Executor, str]]:
    """The executor the options ask for and how to name it in the headline: local processes
    (default: one per core), or Ray tasks (at most --workers at once, default twice the
    cluster's CPUs; a Ray instance started here gets --workers CPUs, default the cores)."""
    if ray is None:
        count = arena.default_workers() if workers is None else workers
        yield arena.local_executor(count), f"{count} worker{'s' if count != 1 else ''}"
        return
    from ogames.arena.ray_runner import RayExecutor, connect

    with connect(ray, cpus=workers) as cluster:
        in_flight = workers if workers is not None else 2 * cluster.cpus
        yield RayExecutor(in_flight), cluster.describe()


def _headline(console: Console, t: arena.Tournament, folder: Path, workers: str) -> None:
    shown_options = ", ".join(f"{k}={v}" for k, v in t.settled.items() if v is not None)
    console.print(f"[bold]{escape(t.game)}[/] {escape(shown_options)}")
    per = f"{t.games_per_pair} per {'pair' if t.sides == 2 else 'group'}"
    if t.opening_plies:
        per += f", openings of {t.opening_plies} random moves"
    if t.book:
        per += f", {len(t.book)} openings from the book"
    console.print(f"{len(t.entrants)} players, {len(t.pairings)} games ({per}), {workers}, seed {t.seed} → {escape(str(folder))}")
    if not balanced(t.games_per_pair, t.sides):
        cycle = 2 if t.sides == 2 else math.factorial(t.sides)
        console.print(f"[yellow]note:[/] seats are even only when games per pair is a multiple of {cycle}")


def play_games(
    console: Console, t: arena.Tournament, folder: Path, executor: arena.Executor, resume: bool, ci: str
) -> arena.Summary:
    """Run the games with a progress bar, showing the folder's notes; the run's summary."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    bar = Progress(*columns, console=console, transient=False)
    task = bar.add_task("games", total=len(t.pairings))

    def notes(lines: list[str]) -> None:
        for line in lines:
            console.print(f"[dim]{escape(line)}[/]")

    def progress(saved: int, total: int, number: int, error: str | None) -> None:
        bar.start()  # on the first call, once the worker processes run (see arena.run); then a no-op
        if error is not None:
            bar.console.print(f"[red]game {number} failed:[/] {escape(error)}")
        bar.update(task, completed=saved, total=total)

    try:
        return arena.run(t, folder, resume=resume, progress=progress, notes=notes, method=ci, executor=executor)
    finally:
        bar.stop()


def show_results(console: Console, summary: arena.Summary) -> None:
    """The Elo table (best first) and the pairwise results matrix."""
    table = summary.table
    ranked = table.ranked()
    console.print(f"[bold]Elo[/] (mean 0; interval: {escape(table.method)})")
    elo = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("#", "player", "games", "points", "score", "Elo", "95% CI"):
        if name == "player":
            elo.add_column(name, overflow="fold", min_width=min(40, max(len(r.name) for r in ranked)))
        else:
            elo.add_column(name, justify="right", no_wrap=True)
    for rank, r in enumerate(ranked, 1):
        interval = f"{r.low:+.0f} … {r.high:+.0f}" if math.isfinite(r.low) and math.isfinite(r.high) else "—"
        score = f"{100 * r.score:.1f}%" if r.meetings else "—"
        points = f"{r.points:g}/{r.meetings}"
        elo.add_row(str(rank), escape(r.name), str(r.games), points, score, f"{r.elo:+.0f} ± {r.error:.0f}", interval)
    console.print(elo)
    index = {r.name: k for k, r in enumerate(table.ratings)}
    console.print("[bold]pairwise[/]: points of the row against the column / games")
    matrix = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    matrix.add_column("", overflow="fold")
    for k in range(1, len(ranked) + 1):
        matrix.add_column(f"{k}", justify="right", no_wrap=True)
    for k, r in enumerate(ranked, 1):
        i = index[r.name]
        cells = []
        for other in ranked:
            j = index[other.name]
            games = table.meetings[i, j]
            cells.append("·" if i == j else f"{table.points[i, j]:g}/{games:g}" if games else "–")
        matrix.add_row(f"{k} {escape(r.name)}", *cells)
    console.print(matrix)
    extra = []
    if summary.unfinished:
        extra.append(f"{summary.unfinished} game(s) ran out of simulated time and count as draws")
    if not summary.complete:
        extra.append(f"{len(summary.outcomes)} of {len(summary.tournament.pairings)} games are saved")
    for line in extra:
        console.print(f"[yellow]note:[/] {escape(line)}")


def register(app: typer.Typer) -> None:
    """Add `tournament` to the `ogames` command."""
    settings: dict[str, Any] = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": ["--help"]}
    app.command("tournament", context_settings=settings, help=HELP)(tournament_command)
