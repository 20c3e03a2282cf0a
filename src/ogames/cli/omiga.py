"""`ogames omiga …`: watch recorded real-time Omiga games, run bot-vs-bot matches, and play kids
against a bot in the terminal on the simulated clock (toddler and zen come from `omiga_turns.py`).

Playing kids in real time at a prompt: the table is shown as it is now, and the clock stands while
it is drawn. Whatever you type lands at "now + the time you took" (measured, or `--think` seconds
per entry); the bot's actions that arrive before it are applied first and shown, so your action
may then be refused (the table changed) — exactly as the authority treats any two players.
"""

from __future__ import annotations

import heapq
import itertools
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

import ogames
from ogames.arena.realtime_match import play_game, run_match
from ogames.cli import omiga_turns
from ogames.cli.failing import fail
from ogames.cli.omiga_seats import DEFAULT_OPPONENT
from ogames.cli.omiga_turns import bands, column_name, load_state, play_and_save, record_name, save_folder, write_record
from ogames.cli.prompt import read_line
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
for _command in (omiga_turns.toddler, omiga_turns.zen, omiga_turns.forms):
    app.command()(_command)

_HUE_STYLE = {"A": "red", "B": "blue"}
_OWNER_STYLE = {"white": "black on grey93", "black": "white on grey23"}
_CELL_WORD = re.compile(r"^[a-z]+\d+$")
LIVE_HELP = (
    "place CARD CELL [turned] (CARD: the number or code of your card; kids: 'place CELL [turned]' "
    "lays the one card you hold), discard (kids: only when your card fits nowhere), "
    "Enter (look again: time passes), moves, help, quit. Two people at one keyboard name themselves: "
    "'white: place h9'."
)


def render_table(state: RealtimeState, width: int | None = None) -> Text:
    """The table as text: each card as `hue seams hue` glyphs (e.g. `◖/^◗`), rows top first; a table
    wider than the console is drawn in bands of columns."""
    table = state.table
    out = Text()
    for band in bands(table.width, 5, 4, width):
        out.append("    " + "".join(f"{column_name(table, c):^5}" for c in band) + "\n")
        for row in range(table.height - 1, -1, -1):
            out.append(f"{row + 1:>3} ")
            for col in band:
                placed = table.at(row * table.width + col)
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
    designs = state.table.card_set.designs
    hands = "  ".join(f"{a}: {' '.join(f'{d}:{designs[d].code}' for d in state.hands[a]) or '—'}" for a in state.actors)
    score = f"  score {state.scores}" if state.scores else ""
    return f"t={state.clock:.2f}s  moves {state.ply}{score}\n{hands}"


# ----- watch ------------------------------------------------------------------------------------
def _read_record(file: Path) -> tuple[dict[str, Any], Any]:
    """The record in a file and its final state; a clear error (exit 1) for anything else."""
    try:
        record = ogames.records.load_file(file)  # names the file in its errors
    except OgamesError as exc:
        raise fail(f"cannot watch: {exc}", code=1) from None
    try:
        final = ogames.replay(record)
    except OgamesError as exc:
        raise fail(f"cannot watch {file}: {exc}", code=1) from None
    return record, final


@app.command()
def watch(file: Path, speed: float = typer.Option(4.0, help="replay speed (× real time); 0 for no pauses")) -> None:
    """Replay a recorded real-time game (base, 2v2 or kids) in the terminal."""
    if not speed >= 0:
        raise fail(f"--speed {speed}: use 0 (no pauses) or a positive factor")
    record, final = _read_record(file)
    game = final.game
    if game.name != "omiga" or game.dynamics != REAL_TIME:
        raise fail(f"cannot watch {file}: watch shows real-time Omiga records (base, 2v2 or kids)", code=1)
    state = game.new_state(record["players"])
    assert isinstance(state, RealtimeState)  # what REAL_TIME promises; narrows the type
    console.print(render_table(state))
    last = 0.0
    for entry in record["moves"]:
        t = entry.get("t")
        if t is not None:
            # A record may leave t out: such an action is shown without a pause.
            if speed > 0:
                time.sleep(min(60.0, max(0.0, (t - last) / speed)))
            last = t
        state.replay_entry(entry)
        when = f"(t={t})" if t is not None else "(no time)"
        console.print(Text.assemble((f"{entry['by']}", "bold"), f": {entry['move']}  {when}"))
        console.print(render_table(state))
        console.print(Text(_status(state)))
    console.print(Text(final.result.describe() if final.result else "unfinished", style="bold green"))


# ----- match ------------------------------------------------------------------------------------
@app.command()
def match(
    bots: tuple[str, str] = typer.Option(
        ("racer:reaction=club", "random:reaction=club"), help="two bots as player specs KIND[:reaction=SPEED]"
    ),
    games: int = typer.Option(10, min=1, max=10_000),
    seed: int = typer.Option(0, min=0),
    variant: str = typer.Option(None, help="base (default), 2v2 or kids"),
    width: int = typer.Option(None, help="table width in cards (default 15)"),
    height: int = typer.Option(None, help="table height in cards (default 10)"),
    save: Annotated[Path | None, typer.Option(help="folder to save every game's record in")] = None,
    show: bool = typer.Option(False, help="draw the final table of each game"),
) -> None:
    """Run a seeded bot-vs-bot match on the simulated clock and show the results."""
    try:
        a, b = Bot.make(bots[0]), Bot.make(bots[1])
    except ValueError as exc:
        raise fail(str(exc)) from None
    options = {k: v for k, v in {"variant": variant, "width": width, "height": height}.items() if v is not None}
    try:
        game = ogames.load("omiga", **options, seed=seed)
        if game.dynamics != REAL_TIME:
            raise ogames.BadOption(f"bot matches are for the real-time modes (base, 2v2, kids), not {game.options['variant']}")
    except OgamesError as exc:
        raise fail(str(exc)) from None
    folder = save_folder(save)
    report = run_match(a, b, games, seed, options)
    summary = RichTable(title=f"Omiga {game.options['variant']}: {games} games")
    for column in ("bot", "wins", "share"):
        summary.add_column(column)
    for name, wins in zip(report.names, report.wins, strict=True):
        summary.add_row(name, str(wins), f"{wins / games:.0%}")
    summary.add_row("draws", str(report.draws), f"{report.draws / games:.0%}")
    summary.add_row("unfinished", str(report.unfinished), f"{report.unfinished / games:.0%}")
    console.print(summary)
    failed = False
    for number, record in enumerate(report.records):
        result = record["result"]
        console.print(Text(f"game {number + 1}: {result['winner'] + ' — ' + result['reason'] if result else 'unfinished'}"))
        if show:
            console.print(render_table(ogames.replay(record)))  # type: ignore[arg-type]
        if folder is not None:
            failed |= write_record(folder, f"omiga-{seed + number}.json", record) is None
    if failed:
        raise typer.Exit(1)


# ----- kids at the keyboard -----------------------------------------------------------------------
def _expand(state: RealtimeState, actor: str, body: str) -> str:
    """`place CELL [turned]` → `place CARD CELL [turned]` when the actor holds one card (kids)."""
    words = body.split()
    hand = state.hands[actor]
    if len(hand) == 1 and len(words) in (2, 3) and words[0].lower() == "place" and _CELL_WORD.match(words[1].lower()):
        if len(words) == 2 or words[2].lower() == "turned":
            return " ".join([words[0], str(hand[0]), *words[1:]])
    return body


def _who(state: RealtimeState, humans: list[str], line: str) -> tuple[str, str]:
    """(actor, action) of an entry; ValueError saying what is wrong."""
    named, sep, rest = line.partition(":")
    if sep:
        actor = named.strip().lower()
        if actor not in humans:
            raise ValueError(f"{named.strip()!r} is not a person at this keyboard ({', '.join(humans)})")
        return actor, rest.strip()
    if len(humans) != 1:
        raise ValueError(f"say who acts, e.g. '{humans[0]}: place h9'")
    return humans[0], line.strip()


def play_live(
    state: RealtimeState,
    bots: dict[str, Bot],
    seed: int,
    ask: Callable[[str], str] = read_line,
    think: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> RealtimeState:
    """Play a real-time state at the prompt: people in the actors without a bot, bots in the others,
    everyone on one simulated clock (see the module doc). Returns the state (at the end or on quit)."""
    humans = [a for a in state.actors if a not in bots]
    if not humans:
        play_game(state, bots, seed)
        console.print(render_table(state))
        console.print(Text(f"result: {state.result.describe() if state.result else 'unfinished'}", style="bold"))
        return state
    rng = random.Random(f"omiga-live:{seed}")
    queue: list[tuple[float, int, str, str | None]] = []
    order = itertools.count()

    def schedule(actor: str, now: float) -> None:
        bot = bots[actor]
        heapq.heappush(queue, (now + bot.delay(rng), next(order), actor, bot.decide(state, actor, rng)))

    def bots_until(now: float) -> None:
        while queue and queue[0][0] <= now and not state.is_over:
            t, _, actor, action = heapq.heappop(queue)
            if action is not None:
                verdict = state.submit(actor, action, t)
                mark = "" if verdict.accepted else f" — refused: {verdict.reason}"
                console.print(Text(f"  t={t:.1f}s bot {actor}: {verdict.action}{mark}", style="cyan"))
            schedule(actor, t)

    for actor in bots:
        schedule(actor, state.clock)
    now = state.clock
    shown = -1  # the ply of the table drawn last: it is drawn again when it changed or on Enter
    while not state.is_over:
        if state.ply != shown:
            console.print(render_table(state))
            shown = state.ply
        console.print(Text(_status(state)))
        prompt = f"{humans[0]} t={now:.1f}s> " if len(humans) == 1 else f"t={now:.1f}s who: action> "
        started = clock()
        try:
            line = ask(prompt)
        except EOFError:
            return state
        now += think if think is not None else max(0.0, clock() - started)
        bots_until(now)
        if state.is_over:
            break
        key = line.strip().lower()
        if key in ("quit", "exit"):
            return state
        if key in ("help", "?"):
            console.print(Text(LIVE_HELP))
            continue
        if key == "":
            shown = -1
            continue
        if key == "moves":
            mine = [m for m in state.legal_moves() if m.split(":")[0] in humans]
            console.print(Text(", ".join(mine[:60]) or "nothing: wait for a card"))
            continue
        try:
            actor, body = _who(state, humans, line)
        except ValueError as exc:
            console.print(Text(str(exc), style="red"))
            continue
        verdict = state.submit(actor, _expand(state, actor, body), now)
        if verdict.accepted:
            console.print(Text(f"  t={now:.1f}s {actor}: {verdict.action}", style="green"))
        else:
            console.print(Text(f"  refused: {verdict.reason}", style="red"))
    console.print(render_table(state))
    console.print(Text(_status(state)))
    console.print(Text(f"result: {state.result.describe() if state.result else 'unfinished'}", style="bold"))
    return state


def play_any(state: Any, bots: dict[int, str], seed: int, ask: Callable[[str], str] = read_line) -> Any:
    """Play any Omiga state at the prompt with bots in the seats of `bots` (seat → spec, see
    `omiga_seats.seat_bot`): real-time states live, each bot by its spec; turn-based ones in
    `omiga_turns.loop`, with the climber. Returns the state."""
    if state.game.dynamics != REAL_TIME:
        return omiga_turns.loop(state, set(bots), seed, ask=ask)
    players = {state.actors[seat]: Bot.make(spec) for seat, spec in bots.items()}
    return play_live(state, players, seed, ask=ask)


@app.command()
def kids(
    seed: int = typer.Option(None, help="deck seed"),
    width: int = typer.Option(None, help="table width in cards (default 15)"),
    height: int = typer.Option(None, help="table height in cards (default 10)"),
    pace: str = typer.Option(None, help="realtime (default: both play at once, as the booklet) or turns (for beginners)"),
    bot: bool = typer.Option(True, help="Black is a bot (--no-bot: two people at one keyboard)"),
    opponent: str = typer.Option(DEFAULT_OPPONENT, help="the bot as a player spec, e.g. racer:reaction=child, random:reaction=3"),
    think: float = typer.Option(None, help="count each of your entries as this many seconds (default: the time you take)"),
    save: omiga_turns.SaveOption = None,
) -> None:
    """Play «Дети» (kids): one card at a time, first to the far edge; in real time against a bot."""
    if think is not None and not 0 <= think < float("inf"):
        raise fail(f"--think {think}: use a number of seconds, 0 or more")
    try:
        rival = Bot.make(opponent)
    except ValueError as exc:
        raise fail(f"--opponent {opponent!r}: {exc}") from None
    state = load_state({"variant": "kids", "seed": seed, "width": width, "height": height, "pace": pace})
    folder = save_folder(save)
    seed = state.game.options["seed"]
    if state.game.dynamics != REAL_TIME:
        play_and_save(state, {1} if bot else set(), seed, folder, record_name(state))
        return
    assert isinstance(state, RealtimeState)
    play_live(state, {"black": rival} if bot else {}, seed, think=think)
    if folder is not None and (path := write_record(folder, record_name(state), state.record())) is not None:
        console.print(Text(f"record saved: {path}"))


if __name__ == "__main__":
    app()
