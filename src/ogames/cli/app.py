"""The `ogames` command: list games, play one in the terminal (people and computer players in any
seat), and step through saved records."""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

import ogames
from ogames import records
from ogames.cli.args import parse_play_args
from ogames.cli.describe import WIDTH, PlayCommand, games_lines
from ogames.cli.engine import prepare_engine, search_note
from ogames.cli.failing import fail
from ogames.cli.hints import HINTS, Hints
from ogames.cli.omiga_seats import seat_bot
from ogames.cli.prompt import ask
from ogames.cli.render import render_state
from ogames.errors import BadOption, BadRecord, OgamesError
from ogames.errors import shown as shorten
from ogames.players import TURN_KINDS, BasePlayer, make_player, parse_spec
from ogames.records import load_file, save
from ogames.rules.protocol import REAL_TIME, TABLE, Game, State, is_board_state

app = typer.Typer(
    name="ogames",
    help="Omny, Odd-Y, Omega, Onyx and Omiga in the terminal.",
    no_args_is_help=True,
    add_completion=False,
)

HELP_TEXT = """\
Enter a cell label (like c3) to place a stone, or one of:
  swap            take over the first player's colour (pie rule, when offered)
  other moves     any special move the game lists below (e.g. komi=3.5)
  undo            take back your last move (and the computer's reply)
  hint            the computer's choice for you (a few a game, against the computer only)
  resign          give up the game
  save FILE       write the game record to FILE (JSON)
  help            this text
  quit            leave without finishing"""


def _console() -> Console:
    # Made per call so that the command writes to whatever stdout is now (tests capture it).
    return Console(highlight=False)



# Answers to "save the game?" that mean no (an empty line too).
_NO = {"q", "quit", "n", "no", "exit"}
MAX_THINK = 3600.0  # seconds the computer may think per move
MAX_HINTS = 1000  # hints a game may offer


def _cut(text: str, limit: int = 40) -> str:
    """Text as a message shows it: whole, or its start and its length; on one line."""
    text = " ".join(text.split())
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _ask(console: Console, prompt: str, *, fresh: bool = False) -> str | None:
    """One line from the person (with line editing and history), or None at the end of input;
    `fresh`: only what is typed after the prompt appeared (`prompt.ask`)."""
    return ask(console, prompt, fresh=fresh)


# ----- games ------------------------------------------------------------------------------------


@app.command("games")
def games_command() -> None:
    """List the games with their variants, options, seats and rules pages."""
    console = Console(highlight=False, width=WIDTH, soft_wrap=True)
    for line in games_lines():
        console.print(line, markup=False)


# ----- play -------------------------------------------------------------------------------------


class Session:
    """One game in the terminal: the state, the players by seat, and the person's commands."""

    def __init__(self, state: State, players: list[BasePlayer], console: Console, hints: Hints | None = None):
        self.state = state
        self.players = players
        self.console = console
        self.hints = hints or Hints(0)

    def mover(self) -> int:
        """The seat that decides now (asked only while the game goes on: then there is one)."""
        seat = self.state.mover
        assert seat is not None, "the game is over: nobody moves"
        return seat

    def status(self) -> str:
        """Whose turn it is and the score, in one line."""
        state = self.state
        parts = [f"move {state.ply + 1}: [bold]{state.to_move}[/] to play ({escape(state.players[self.mover()])})"]
        if state.scores:
            parts.append("score " + ", ".join(f"{c} {s}" for c, s in state.scores.items()))
        return " · ".join(parts)

    def show(self) -> None:
        """Draw the board and the status line."""
        self.console.print()
        self.console.print(render_state(self.state))
        if not self.state.is_over:
            self.console.print(self.status())

    def run(self) -> bool:
        """Play until the game ends (True) or the person quits (False)."""
        while not self.state.is_over:
            self.show()
            player = self.players[self.mover()]
            if player.human:
                if not self.human_turn():
                    return False
            else:
                self.computer_turn(player)
        self.show()
        self.console.print(f"[bold]game over:[/] {escape(self.state.result.describe()) if self.state.result else ''}")
        winner = self.state.winner
        if winner and winner != "draw":
            self.console.print(f"winner: {escape(self.state.seats[winner])} ({winner})")
        return True

    def computer_turn(self, player: BasePlayer) -> None:
        colour = self.state.to_move
        move = player.choose(self.state)
        self.state.play(move)
        detail = search_note(player.info())
        self.console.print(f"{player.name} ({colour}) plays [bold]{move}[/]{detail}")

    def human_turn(self) -> bool:
        """Read commands until one changes the game; False if the person quits."""
        prompt = escape(f"{self.state.to_move} ({self.state.players[self.mover()]})> ")
        while True:
            line = _ask(self.console, prompt)
            if line is None:
                self.console.print("\nend of input: leaving the game")
                return False
            entry = line.strip()
            word, _, rest = entry.partition(" ")
            command = word.lower()
            if not entry:
                continue
            if command == "quit":
                self.console.print("game abandoned")
                return False
            if command == "help":
                self.help()
                continue
            if command == "save":
                self.save(rest.strip())
                continue
            if command == "undo":
                if self.undo():
                    return True
                continue
            if command == "hint":
                self.console.print(self.hints.give(self.state))
                continue
            if command == "resign":
                return self.resign()
            try:
                self.state.play(entry)
            except (OgamesError, ValueError) as exc:
                self.console.print(f"[red]✗ {escape(str(exc))}[/]  [dim](type help for commands)[/]")
                continue
            return True

    def help(self) -> None:
        self.console.print(HELP_TEXT)
        moves = self.state.legal_moves()
        special = [m for m in moves if not self._is_cell(m)]
        cells = [m for m in moves if self._is_cell(m)]
        if special:
            self.console.print("special moves now: " + ", ".join(special))
        if cells:
            shown = ", ".join(cells[:12]) + (" …" if len(cells) > 12 else "")
            self.console.print(f"{len(cells)} cells are open, e.g. {shown}")

    def _is_cell(self, move: str) -> bool:
        state = self.state
        return is_board_state(state) and state.board.has(move)

    def save(self, name: str) -> bool:
        """Write the record to a file; False (with the reason shown) if it cannot be written."""
        if not name:
            self.console.print("[red]✗ save needs a file name, e.g. save game.json[/]")
            return False
        try:
            path = save(self.state, name)
        except (OSError, ValueError) as exc:  # ValueError: a name with a NUL byte
            why = getattr(exc, "strerror", None) or str(exc)
            self.console.print(f"[red]✗ cannot save to {escape(shorten(name))}: {escape(why)}[/]")
            return False
        self.console.print(f"saved to {escape(str(path))}")
        return True

    def undo(self) -> bool:
        """Take back to the person's previous turn (past the computer's replies); False if nothing to undo."""
        state = self.state
        if not state.history:
            self.console.print("[red]✗ there is no move to take back[/]")
            return False
        state.undo()
        while state.history and not self.players[self.mover()].human:
            state.undo()
        for player in self.players:
            player.reset()
        self.console.print(f"took back to move {state.ply + 1}")
        return True

    def resign(self) -> bool:
        try:
            self.state.play("resign")
        except (OgamesError, NotImplementedError, ValueError) as exc:
            self.console.print(f"[red]✗ cannot resign: {escape(str(exc))}[/]")
            return False
        return True

    def offer_save(self) -> None:
        """At the end: ask for a file name to save the record to (Enter, q or no skips). Keys typed
        before the question appeared (a move meant for the game that just ended) are set aside,
        so they cannot save the game under a move's name by accident."""
        fresh = True
        while True:
            name = _ask(self.console, "save the game? file name (Enter or q to skip)> ", fresh=fresh)
            fresh = False
            if name is None or name.strip().lower() in _NO | {""}:
                return
            if self.save(name.strip()):
                return


def build_players(colours: tuple[str, ...], seats: dict[str, str], count: int, **settings: Any) -> list[BasePlayer]:
    """One player per seat from its spec (`mcts:think=2`): seat i starts with colour i; unnamed seats
    are human for seat 0 and mcts after. `settings` (--think, --iterations, --seed) are defaults
    that a seat's own spec overrides."""
    specs = []
    for seat in range(count):
        colour = colours[seat] if seat < len(colours) else None
        specs.append(seats.get(colour, "human" if seat == 0 else "mcts") if colour else "mcts")
    kinds = [parse_spec(spec)[0] for spec in specs]
    players = []
    seed = settings.pop("seed", None)
    for seat, (spec, kind) in enumerate(zip(specs, kinds, strict=True)):
        name = kind if kinds.count(kind) == 1 else f"{kind} {kinds[:seat + 1].count(kind)}"
        own = parse_spec(spec)[1]
        defaults = {"name": name, "seed": None if seed is None else seed + seat, **settings}
        if "think" in own or "iterations" in own or "level" in own:  # the seat's own budget replaces the default one
            defaults.pop("think", None)
            defaults.pop("iterations", None)
        players.append(make_player(kind, **{**defaults, **own}))
    return players


@app.command(
    "play",
    cls=PlayCommand,
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": ["--help"]},
)
def play_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game name (see `ogames games`)")],
    think: Annotated[float, typer.Option(help="seconds the computer thinks per move")] = 1.0,
    iterations: Annotated[int | None, typer.Option(help="playouts per computer move instead of a time limit")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of computer players and Omiga's decks (repeatable games)")] = None,
    hints: Annotated[int, typer.Option(help="hints a game offers against the computer (type hint at your turn)")] = HINTS,
) -> None:
    """Play a game: game options as --name value, seats as --<colour> human|random|mcts|uct (Omiga: its bots).

    `ogames play GAME --help` adds that game's options, seats and rules page below.
    """
    console = _console()
    try:
        options, seats = parse_play_args(game, ctx.args)
        loaded = ogames.load(game, **options)
        unknown = set(seats) - set(loaded.colours)
        if unknown:
            raise BadOption(
                f"{loaded.name} has no option or colour --{_cut(sorted(unknown)[0])} "
                f"(colours: {', '.join(loaded.colours)}; options: {', '.join(loaded.option_set.names())})"
            )
        if loaded.played_on == TABLE:  # Omiga: people and its own bots, at Omiga's own faces
            if seed is not None:  # a repeatable game: Omiga's --seed deals the decks (its bots are seeded by it)
                loaded = ogames.load(game, **{**options, "seed": seed})
            omiga_state, omiga_bots = _omiga_seats(loaded, seats)
            from ogames.cli.omiga import play_any

            play_any(omiga_state, omiga_bots, loaded.options["seed"])
            return
        for colour, spec in seats.items():
            if parse_spec(spec)[0] not in TURN_KINDS:
                raise BadOption(f"--{_cut(colour)} {shorten(spec)}: a seat is {'|'.join(TURN_KINDS)}[:setting=value,…]")
        if not (math.isfinite(think) and 0 < think <= MAX_THINK):
            raise BadOption(f"--think {think}: the thinking time must be more than 0 and at most {MAX_THINK:.0f} seconds")
        if iterations is not None and iterations < 1:
            raise BadOption(f"--iterations {iterations}: at least 1 is needed")
        if not 0 <= hints <= MAX_HINTS:
            raise BadOption(f"--hints {hints}: from 0 to {MAX_HINTS}")
        probe = loaded.new_state()
        players = build_players(
            loaded.colours, seats, len(probe.players), think=None if iterations else think, iterations=iterations, seed=seed
        )
        state = loaded.new_state([p.name for p in players])
    except (BadOption, ValueError) as exc:
        raise fail(str(exc)) from None
    shown = ", ".join(f"{k}={v}" for k, v in loaded.jsonable_options().items() if v is not None)
    console.print(f"[bold]{type(loaded).title}[/] {escape(shown)}")
    console.print(escape("  ".join(f"{colour}: {state.players[seat]}" for colour, seat in state.owner.items())))
    console.print("[dim]type help for commands[/]")
    if any(not p.human for p in players):
        prepare_engine(console, state)
    hinting = Hints.for_game(players, hints, think=None if iterations else think, iterations=iterations, seed=seed)
    session = Session(state, players, console, hinting)
    if session.run():
        session.offer_save()


def _omiga_seats(game: Game, seats: dict[str, str]) -> tuple[State, dict[int, str]]:
    """Omiga has its own faces: kids, toddler and zen at a prompt (`omiga.play_any`; real-time kids
    runs on the simulated clock), base and 2v2 none. The state and each bot's seat and spec
    (`omiga_seats.seat_bot`: the climber in turns; an unnamed seat but the first is the mode's bot)."""
    variant = game.options["variant"]
    if variant not in ("kids", "toddler", "zen"):
        raise BadOption(
            f"omiga {variant} is played in real time, not at a prompt: watch bots play it with "
            "`ogames omiga match --show` and replay a record with `ogames omiga watch FILE`"
        )
    state = game.new_state()
    real_time = game.dynamics == REAL_TIME
    bots = {}
    for seat, colour in enumerate(game.colours[: len(state.players)]):
        spec = seats.get(colour, "human" if seat == 0 else "bot")
        try:
            bot = seat_bot(spec, real_time)
        except BadOption as exc:
            raise BadOption(f"--{colour} {shorten(spec)}: {exc}") from None
        if bot is not None:
            bots[seat] = bot
    return state, bots


# ----- replay -----------------------------------------------------------------------------------


class Positions:
    """The positions of a checked record, for stepping through it in time linear in its length.

    One state walks the record: stepping on replays one move. Copies of the state are kept every
    `spacing` moves (at most about 16 of them), so stepping back or jumping replays at most
    `spacing` moves from the nearest earlier copy. Nothing is copied per move (copying the state
    at every move cost 96 s and 2.8 GB for a 5,000-move record).
    """

    def __init__(self, record: dict[str, Any], final: State | None = None):
        self.record = record
        self.total = len(record["moves"])
        self.spacing = max(256, self.total // 16)
        self.state = ogames.replay(record, upto=0)
        self.index = 0
        self.saved: dict[int, State] = {0: self.state.clone()}
        if final is not None:
            self.saved[self.total] = final

    def at(self, index: int) -> State:
        """The position after `index` moves (0: the start). Do not change it: it is the walker."""
        if not 0 <= index <= self.total:
            raise IndexError(f"the record has positions 0 to {self.total}")
        nearest = max(i for i in self.saved if i <= index)
        if index < self.index or nearest > self.index:
            self.state, self.index = self.saved[nearest].clone(), nearest
        moves = self.record["moves"]
        while self.index < index:
            self.index += 1
            records.replay_move(self.state, self.index, moves[self.index - 1])
            if self.index % self.spacing == 0 and self.index not in self.saved:
                self.saved[self.index] = self.state.clone()
        return self.state


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="a record saved by `ogames play` (JSON)")],
    at: Annotated[int | None, typer.Option(help="show the position after this many moves and stop")] = None,
) -> None:
    """Step through a saved game: Enter or n next, p previous, a number jumps, q quits."""
    console = _console()
    try:
        record = load_file(file)
        final = ogames.replay(record)
        positions = Positions(record, final)
    except BadRecord as exc:
        message = str(exc) if str(file) in str(exc) else f"{file}: {exc}"
        raise fail(message, code=1) from None
    total = positions.total
    names = ", ".join(f"{colour}: {name}" for colour, name in final.seats.items())
    console.print(f"[bold]{escape(final.game.title)}[/] {total} moves; {escape(names)}")
    if at is not None:
        if not 0 <= at <= total:
            raise fail(f"--at {at}: the record has moves 0 to {total}", code=2)
        _show_position(console, positions, at)
        return
    index = 0
    while True:
        _show_position(console, positions, index)
        line = _ask(console, escape("[n]ext, [p]revious, number, [q]uit> "))
        if line is None:
            return
        key = line.strip().lower()
        if key in ("", "n"):
            if index == total:
                console.print("[dim]that was the last move (q quits)[/]")
            index = min(index + 1, total)
        elif key == "p":
            index = max(index - 1, 0)
        elif key == "q":
            return
        elif key.isdigit() and len(key) <= 9 and int(key) <= total:
            index = int(key)
        else:
            console.print(f"[red]✗ {escape(shorten(line.strip()))}: type n, p, q or a move number from 0 to {total}[/]")


def _show_position(console: Console, positions: Positions, index: int) -> None:
    state = positions.at(index)
    console.print()
    console.print(render_state(state))
    if index == 0:
        console.print(f"start position · {positions.total} moves in the record")
    else:
        entry = positions.record["moves"][index - 1]
        console.print(escape(f"move {index}/{positions.total}: {entry['by']} {entry['move']}"))
    if state.scores:
        console.print("score " + ", ".join(f"{c} {s}" for c, s in state.scores.items()))
    if state.is_over and state.result:
        console.print(f"[bold]result:[/] {escape(state.result.describe())}")


# ----- sub-apps -------------------------------------------------------------------------------


def _mount(name: str, loader: Callable[[], Any]) -> None:
    """Add another module's typer app as a sub-command, if that module is there and has one."""
    try:
        module = loader()
    except Exception:  # a missing or broken face must not break the rest of the command
        return
    sub = getattr(module, "app", None)
    if isinstance(sub, typer.Typer):
        app.add_typer(sub, name=name)


_mount("omiga", lambda: importlib.import_module("ogames.cli.omiga"))
importlib.import_module("ogames.cli.tournament").register(app)
importlib.import_module("ogames.cli.selfplay").register(app)
importlib.import_module("ogames.cli.review").register(app)
importlib.import_module("ogames.cli.puzzle").register(app)
importlib.import_module("ogames.cli.explore").register(app)
_mount("bench", lambda: importlib.import_module("ogames.cli.bench"))
_mount("serve", lambda: importlib.import_module("ogames.cli.serve"))
_mount("sgf", lambda: importlib.import_module("ogames.cli.sgf"))
_mount("operator", lambda: importlib.import_module("ogames.cli.operator"))


def main() -> None:
    """Entry point of the `ogames` script. Every error a person can cause is reported where it
    happens; anything else still ends in one line (exit code 1), never a traceback."""
    try:
        app(prog_name="ogames")
    except (OgamesError, OSError) as exc:
        Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {escape(_cut(str(exc), 300))}")
        sys.exit(1)
    except Exception as exc:  # the last resort: a bug, reported in one line
        what = escape(_cut(f"{type(exc).__name__}: {exc}", 300))
        Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] unexpected {what} (please report it)")
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
