"""What the command line says about the games: `ogames games` and `ogames play GAME --help`.

Everything comes from the games themselves (`ogames.games()`, each game's colours), so a new option
shows up here without an edit; the rules pages are `docs/rules/<game>.md` in the repository.
Every line is at most `WIDTH` columns, so nothing is cut off in an 80-column terminal.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.core import TyperCommand

from ogames.cli.omiga_seats import SEAT_KINDS as OMIGA_SEAT_KINDS
from ogames.errors import BadOption
from ogames.players import TURN_KINDS
from ogames.rules import REGISTRY, TABLE, game_class, load

WIDTH = 80
SEAT_KINDS = "|".join(TURN_KINDS)
_REPOSITORY = Path(__file__).resolve().parents[3]


def board_name(game: Any) -> str:
    """A board as one line says it: the game's title and the options that are set, e.g.
    "Omny (variant y, size 5)"."""
    options = ", ".join(f"{name} {value}" for name, value in game.jsonable_options().items() if value not in (None, False, 0))
    return f"{game.title} ({options})" if options else game.title


def rules_page(name: str) -> str:
    """Where a game's rules are: the page's path in the repository (absolute when it is on disk)."""
    relative = f"docs/rules/{name}.md"
    found = _REPOSITORY / relative
    return str(found) if found.is_file() else f"{relative} in the ogames repository"


def rules_index() -> str:
    """Where the index of the rules pages is."""
    found = _REPOSITORY / "docs" / "rules" / "README.md"
    return str(found) if found.is_file() else "docs/rules/README.md in the ogames repository"


def flag(name: str) -> str:
    """The command-line spelling of an option name."""
    return "--" + name.replace("_", "-")


def _number(value: Any) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def value_form(option: dict[str, Any]) -> str:
    """What an option's value looks like, with its range: `sunder|y|…`, `2–30`, `on|off`."""
    kind = option["kind"]
    if "choices" in option:
        return "|".join(str(c) for c in option["choices"])
    low, high = option.get("minimum"), option.get("maximum")
    if kind == "bool":
        return "on|off"
    if kind == "half":
        span = f" ≥ {_number(low)}" if low is not None and high is None else ""
        return f"K (whole or half{span})"
    if kind == "int":
        if low is not None and high is not None:
            return f"{_number(low)}–{_number(high)}"
        if low is not None:
            return f"N ≥ {_number(low)}"
        return "N"
    return {"ints": "A,B", "labels": "CELLS (like a1,a2,b1)", "text": "TEXT"}.get(kind, kind.upper())


def option_summary(option: dict[str, Any]) -> str:
    """One option in a few words: `--size 2–30`, `--pie on|off = off`."""
    default = option["default"]
    if option["kind"] == "bool" and default is not None:
        default = "on" if default else "off"
    shown = "" if default is None else f" = {default}"
    return f"{flag(option['name'])} {value_form(option)}{shown}"


def _wrap(text: str, indent: int, first: str = "") -> list[str]:
    """`first` then `text` wrapped to WIDTH, later lines indented by `indent` blanks."""
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=first,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [first.rstrip()]


def colours_of(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(colours with the default options, every colour some option brings in), in seat order."""
    default = tuple(load(name).colours)
    most = game_class(name).most_colours
    return default, tuple(load(name, **most).colours) if most else default


def _on_table(name: str) -> bool:
    """Whether a game is played with cards on a table (Omiga): its seats are people and its own bots."""
    return game_class(name).played_on == TABLE


def seat_kinds(name: str) -> str:
    """What may sit in a seat of a game: the board games' players, or Omiga's people and bots."""
    return OMIGA_SEAT_KINDS if _on_table(name) else SEAT_KINDS


def _either(values: list[int]) -> str:
    """`3`, `3 or 4`, `3–6`."""
    if len(values) > 2:
        return f"{values[0]}–{values[-1]}"
    return " or ".join(str(value) for value in values)


def brought_in(name: str, colour: str) -> str:
    """The options that bring a colour into a game beyond its default ones, in the command line's
    words: the game's `most_colours` options, their last one (the number of players) given the
    values that seat the colour (`--players 3 or 4`, `--variant toddler --players 3–6`)."""
    most = dict(game_class(name).most_colours)
    *fixed, (counted, highest) = most.items()
    option = next(option for option in game_class(name).describe()["options"] if option["name"] == counted)
    counts = range(int(option.get("minimum") or 1), int(highest) + 1)
    seating = [n for n in counts if _has_colour(name, {**most, counted: n}, colour)]
    words = [f"{flag(key)} {value}" for key, value in fixed]
    return " ".join([*words, f"{flag(counted)} {_either(seating)}"])


def _has_colour(name: str, options: dict[str, Any], colour: str) -> bool:
    try:
        return colour in load(name, **options).colours
    except BadOption:  # a count the game refuses with the other options (too few for a variant)
        return False


def seat_lines(name: str) -> list[str]:
    """One line per seat colour with its default player, then how seats are named."""
    default, most = colours_of(name)
    bot = "bot" if _on_table(name) else "mcts"
    lines = []
    for seat, colour in enumerate(most):
        if colour not in default:
            kind = f"{bot}; played with {brought_in(name, colour)}"
        elif seat == 0:
            kind = "human"
        else:
            kind = bot
        lines.append(f"  --{colour} SPEC".ljust(16) + f"default {kind}")
    if _on_table(name):
        lines += _wrap(f"SPEC is {OMIGA_SEAT_KINDS}", 4, "  ")
    else:
        lines.append(f"  SPEC is {SEAT_KINDS}, with settings: mcts:think=2,seed=1")
    return lines


def game_help(name: str) -> list[str]:
    """The `ogames play GAME --help` section of one game: what it is, its options, seats and rules."""
    cls = game_class(name)
    description = cls.describe()
    lines = _wrap(f"{description['title']}: {description['summary']}", 2)
    lines.append(f"Rules: {rules_page(description['name'])}")
    if description["variants"]:
        lines.append(f"Variants: {', '.join(description['variants'])}")
    lines += ["", f"Options of {description['name']} (--name value; on|off options also as --name / --no-name):"]
    for option in description["options"]:
        if not option.get("cli", True):
            continue
        lines += _wrap(option_summary(option), 6, "  ")
        lines += _wrap(option["help"], 6, "      ")
        if flag(option["name"]) in _PLAY_VALUE_OPTIONS:
            # The play command's own option of that name takes the value before the game sees it.
            shadowed = f"(on `ogames play`, {flag(option['name'])} is read as the computer players' option above)"
            lines += _wrap(shadowed, 6, "      ")
    on_table = _on_table(name)
    if on_table:
        lines += ["", "Seats (who plays each colour):"]
    else:
        lines += ["", "Seats (who plays each colour; --think, --iterations and --seed tune mcts):"]
    lines += seat_lines(description["name"])
    default = colours_of(description["name"])[0]
    if not on_table and len(default) > 1:
        lines += ["", "Example (two people at one terminal):", f"  ogames play {description['name']} --{default[1]} human"]
    if on_table:
        lines += _wrap(
            "At this prompt: the kids, toddler and zen variants (kids in real time on the simulated clock "
            "unless --pace turns). The real-time base and 2v2 games are watched and played by bots: "
            "`ogames omiga match --show`, `ogames omiga watch FILE`.",
            2,
            "  ",
        )
    return lines


def games_lines() -> list[str]:
    """`ogames games`: each game with its summary, variants, options, seats and rules page."""
    lines: list[str] = []
    indent = 10
    for name in REGISTRY:
        try:
            description = game_class(name).describe()
            most = colours_of(name)[1]
        except Exception:  # a game module being written must not hide the others
            continue
        lines += _wrap(f"{description['title']}: {description['summary']}", indent, f"{name:<{indent}}")
        if description["variants"]:
            lines += _wrap(", ".join(description["variants"]), indent + 10, " " * indent + "variants  ")
        shown = [o for o in description["options"] if o.get("cli", True)]
        for n, option in enumerate(shown):
            lead = " " * indent + ("options   " if n == 0 else " " * 10)
            lines += _wrap(option_summary(option), indent + 12, lead)
        seats = " ".join(f"--{c}" for c in most)
        lines += _wrap(f"{seats} ({seat_kinds(name)})", indent + 10, " " * indent + "seats     ")
        lines.append(" " * indent + f"rules     docs/rules/{name}.md")
        lines.append("")
    lines += _wrap("`ogames play GAME --help` explains every option of a game; the rules of all games: docs/rules/.", 0)
    return lines


# ----- `ogames play GAME --help` ---------------------------------------------------------------

# The play command's own options that take a value (the first other word is the game's name).
_PLAY_VALUE_OPTIONS = {"--think", "--iterations", "--seed"}


def game_named(args: list[str]) -> str | None:
    """The game a `play` command line names: its first word that is not an option or an option's value."""
    skip = False
    for token in args:
        if skip:
            skip = False
            continue
        if token in _PLAY_VALUE_OPTIONS:
            skip = True
            continue
        if not token.startswith("-"):
            return token
    return None


class PlayCommand(TyperCommand):
    """The `play` command: its help ends with the named game's own options, seats and rules page
    (`ogames play omny --help`), or with the list of games when none is named."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        # --help is handled while the arguments are parsed, before the game argument is known.
        ctx.meta["ogames.play.args"] = list(args)
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super().format_help(ctx, formatter)
        name = game_named(ctx.meta.get("ogames.play.args", []))
        console = Console(highlight=False, width=WIDTH, soft_wrap=True)
        if name is None:
            lines = _wrap(f"Games: {', '.join(REGISTRY)}. `ogames play GAME --help` lists a game's options and seats.", 2)
            lines += _wrap(f"Rules of every game: {rules_index()}", 2)
        else:
            try:
                lines = game_help(name)
            except BadOption as exc:
                lines = _wrap(f"{exc}", 2)
        for line in lines:
            console.print(line, markup=False)
