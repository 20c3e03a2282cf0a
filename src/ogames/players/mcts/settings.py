"""The settings of the `mcts` player, declared once.

Each setting is one `Setting` (in the pattern of a game's `rules.options.Option`): its name, kind,
default, range, help and group. That one declaration checks the values given to `CompiledMcts`
(`SETTINGS.parse`), reads the values written in a player spec (`mcts:think=2,rave=off`, see
`ogames.players.player`), tells which settings a level sets and what it sets them to where it
names none (`level`, see `players/levels.py`), and writes the settings table of
`docs/ai-settings.md` (`settings_table`, kept current by a test).

Settings the project's matches did not prove are retired (`RETIRED`): a spec naming one is refused
with the reason, and their results stay in `benchmarks/results/` and the git history.

>>> SETTINGS.parse({"think": "2", "rave": "off"})["exploration"]
1.4142135623730951
>>> SETTINGS.parse({"captures": True})
Traceback (most recent call last):
...
ogames.errors.BadOption: mcts setting captures was retired: Onyx playouts answering a capture threat won 16/30: not adopted
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ogames.errors import BadOption, shown
from ogames.rules.options import Option

MAX_ITERATIONS = 1_000_000_000  # far beyond any budget played here: a typo of 1e30 is refused, not run
MAX_NODES = 20_000_000  # at most about 1.4 GB per tree: a larger budget is refused, not allocated
MAX_WORKERS = 64  # threads searching at once (each with its own tree of `nodes`)
OPPONENTS = ("strong", "weak", "auto")  # how the playouts model the opponent (`opponent`)
LOWEST_LEVEL, HIGHEST_LEVEL = 1, 10


T = TypeVar("T")


class Read(Generic[T]):
    """A player's attribute that reads the setting of its name from the player's `settings`
    (`think = Read[float | None]()`), so that a setting has no second copy to keep in step."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, player: Any, owner: type | None = None) -> T:
        value: T = player.settings[self.name]
        return value


class _Unset:
    """The mark of a setting that levels do not set."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


@dataclass(frozen=True)
class Setting(Option):
    """One setting of the search: an `Option` with a group, a float kind and the value a level
    gives it (`level`; UNSET: levels leave it alone).

    kinds: those of `Option`, and "float" (a finite number). `above` is an exclusive lower bound
    (`think` must be more than 0). A default of None means "not given" (the search then decides:
    e.g. `exploration` follows `rave`)."""

    group: str = ""
    level: Any = UNSET  # the value of a level that does not name it; UNSET: not a level's setting
    above: float | None = None

    def coerce(self, value: Any) -> Any:
        """The setting's value for a given one (text as written in a spec, or a Python value)."""
        result = super().coerce(value)
        if result is not None and self.kind == "float":
            self._check_range(result)
            if self.above is not None and not result > self.above:
                raise self._fail(value, f"it must be more than {self.above:g}")
        return result

    def _fail(self, value: Any, want: str) -> BadOption:
        return BadOption(f"{self.name}={shown(value)} is not valid: {want}")

    def _check_range(self, value: float) -> None:
        if self.minimum is not None and not value >= self.minimum:
            raise self._fail(value, f"it must be at least {_number(self.minimum)}")
        if self.maximum is not None and not value <= self.maximum:
            raise self._fail(value, f"it must be at most {_number(self.maximum)}")

    def _as_float(self, value: Any) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            try:
                number = float(value.strip())
            except ValueError:
                raise self._fail(value, "a number is needed") from None
        else:
            raise self._fail(value, "a number is needed")
        if not math.isfinite(number):
            raise self._fail(value, "a finite number is needed")
        return number

    @property
    def range(self) -> str:
        """The allowed values in words, for the docs table."""
        if self.choices:
            return ", ".join(str(c) for c in self.choices)
        if self.kind == "bool":
            return "on, off"
        low = f"≥ {_number(self.minimum)}" if self.minimum is not None else None
        if low is None and self.above is not None:
            low = f"> {_number(self.above)}"
        if self.maximum is None:
            return low or ""
        return f"{_number(self.minimum or 0)} … {_number(self.maximum)}"


@dataclass(frozen=True)
class Settings:
    """The settings of the `mcts` player, in the order they are shown."""

    settings: tuple[Setting, ...]
    retired: Mapping[str, str] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Setting]:
        return iter(self.settings)

    def __getitem__(self, name: str) -> Setting:
        for setting in self.settings:
            if setting.name == name:
                return setting
        raise KeyError(name)

    def names(self) -> list[str]:
        """Setting names in order."""
        return [s.name for s in self.settings]

    def known(self, name: str) -> Setting:
        """The setting of a name; BadOption saying it was retired, or that there is none."""
        if name in self.retired:
            raise BadOption(f"mcts setting {name} was retired: {self.retired[name]}")
        try:
            return self[name]
        except KeyError:
            near = difflib.get_close_matches(str(name), self.names(), n=1)
            hint = f"did you mean {near[0]}?" if near else f"settings: {', '.join(self.names())}"
            raise BadOption(f"mcts has no setting {shown(name)} ({hint})") from None

    def read(self, name: str, value: Any) -> Any:
        """One setting's value, checked (BadOption if the name or the value is not accepted)."""
        return self.known(name).coerce(value)

    def parse(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every setting's checked value, from the given ones and the defaults. A None default
        that depends on another setting is filled in: `exploration` (0.25 with RAVE, √2 without)."""
        for name in given:
            self.known(name)
        values = {s.name: s.coerce(given.get(s.name)) for s in self.settings}
        if values["exploration"] is None:
            values["exploration"] = 0.25 if values["rave"] else math.sqrt(2)
        return values

    def at_level(self) -> dict[str, Any]:
        """The settings a level sets, each with the value of a level that does not name it."""
        return {s.name: s.level for s in self.settings if s.level is not UNSET}


# The project's matches (README's experiment notes until they move to docs/ai.md, and
# benchmarks/results/) did not show these to pay; each is refused with its reason.
RETIRED: dict[str, str] = {
    "edges": "answering intrusions into bridges to the edge too won 48% on Y 9 (60 games): not adopted",
    "decisive": "decisive moves at expansion won 17/40 on Y 9, 20/40 on Omny sunder 5 and 7/20 on Onyx: "
    "the tests cost more than they find",
    "captures": "Onyx playouts answering a capture threat won 16/30: not adopted",
    "reward": "rewards by rank (8/30) or paranoid (11/30) with three Omega players did not beat the winner's reward",
    "bias": "progressive bias from patterns won 118 of 240 games (49%) against the default: no gain shown",
    "swap": "the pie is always judged by colour (the former swap=shared, which won 40/60 against swap=move)",
    "replies": "last good reply won 104/200 against the default and 29/80 against 21/80 against OpenSpiel "
    "(p ≈ 0.2): unproven",
    "greedy": "Omega playouts placing each stone on the best of K random cells for its placer won 196/360 tables "
    "(3 players, against two plain UCT, 0.02 s) beside level 10's 186/360, and 80/200 beside 89/200 with 4: no gain",
    "prior": "Omega children seeded with virtual AMAF visits ranked by their stone's immediate gain won 36/60 (10 visits) "
    "and 33/60 (40) beside level 10's 34/60, and with greedy=2 88/160 beside 91/160 (3 players, against two plain "
    "UCT): no gain",
    "evaluate": "a learned evaluation of Omega leaves (a conditional logit fitted to self-play, which predicts the "
    "winner better than random playouts) mixed into their reward won 49/100 beside level 10's 49/100 (3 players) and "
    "90/200 beside 89/200 (4), against plain UCT: no gain",
    "policy": "a learned move policy of Omega (a softmax fitted to 50,000-iteration searches) seeding new children "
    "with virtual AMAF visits won 29/60 and 28/60 beside level 10's 27/60 against two plain UCT, and 19/60 and 20/60 "
    "against two copies of level 10 (even 20): no gain",
    "endgame": "Omega, three and four players: exact play of the last two turns won 108/200 against two plain UCT "
    "beside level 10's 113/200 and 62/200 against two level 10s (even 67); level 10 already takes every win there",
    "implicit": "implicit minimax backups of Omega score shares (3 players) won 145/260 against two plain UCT "
    "beside level 10's 132/260 with weight 0.3 and 78/260 against two copies of level 10 (even 87): no gain",
    "mast": "Omega playouts drawing each stone by its placer's mean reward there in the search (MAST, 3 players) won "
    "96/200 tables against two plain UCT beside level 10's 118/200 at equal time (half the iterations) and 74/128 "
    "beside 72/128 at equal iterations; 63/200 against two copies of level 10 (even 67): no gain",
    "mast_k": "MAST playouts by a tournament of K random cells (3 players, K = 2) won 43/80 tables against two plain "
    "UCT beside level 10's 47/80, and 29/80 against two copies of level 10 (even 27): no gain",
}

SETTINGS = Settings(
    (
        Setting("think", "float", None, "seconds a move (neither think nor iterations: 1 s); with workers, each one's",
                above=0.0, group="budget"),
        Setting("iterations", "int", None, "iterations a move; with workers, the total over them; with a level, "
                "its budget", minimum=1, maximum=MAX_ITERATIONS, group="budget", level=None),
        Setting("nodes", "int", 1_000_000, "node budget of each tree (32 + 8 × (3 + seats) bytes a node)",
                minimum=2, maximum=MAX_NODES, group="budget"),
        Setting("workers", "int", 1, "root parallelism: trees searched at once in threads, their root counts merged",
                minimum=1, maximum=MAX_WORKERS, group="budget"),
        Setting("seed", "int", None, "the seed of the search's random sequence (none: a fresh one)", group="search"),
        Setting("exploration", "float", None, "UCT exploration constant (none: 0.25 with RAVE, √2 without)",
                minimum=0.0, group="search"),
        Setting("rave", "bool", True, "RAVE: moves are valued by their AMAF statistics too", group="search", level=True),
        Setting("rave_k", "float", 500.0, "RAVE equivalence: β = √(k / (3n + k))", minimum=0.0, group="search"),
        Setting("fpu", "float", 1e6, "with RAVE, an unvisited move's value over its AMAF mean (1e6: every move first)",
                group="search", level=1e6),
        Setting("expand", "int", 8, "visits a node has before its children are made", minimum=1, group="search"),
        Setting("share", "float", 0.0, "Omega with three or four players: weight of each player's share of the "
                "scores in a playout's reward beside the winner's 1 (0: the winner's 1 only)",
                minimum=0.0, maximum=1.0, group="search", level=0.0),
        Setting("solver", "bool", False, "MCTS-solver: proven wins and losses are backed up the tree", group="search"),
        Setting("reuse", "bool", True, "keep the subtree of the moves played since the last search", group="search"),
        Setting("bridges", "bool", True, "Odd-Y and Omny playouts answer an intrusion into a bridge",
                group="playouts", level=True),
        Setting("opponent", "choice", "auto", "how Odd-Y and Omny playouts model the opponent: strong (saves its "
                "bridges), weak (fills at random), auto (strong until a search finds this player behind)",
                choices=OPPONENTS, group="playouts", level="strong"),
        Setting("temperature", "float", 0.0, "draw the move among the root's with chances ∝ visits^(1/T); 0 takes "
                "the most visited", minimum=0.0, group="choice", level=0.0),
        Setting("prove", "int", 0, "positions the connection solver may expand first in Omny and Odd-Y "
                "(a proven win is played, a move proven to lose replaced); 0: off", minimum=0, group="choice", level=0),
        Setting("level", "int", None, "1–10, for people: an iteration budget and a few of the settings above "
                "(docs/levels.md); settings written beside it win", minimum=LOWEST_LEVEL, maximum=HIGHEST_LEVEL,
                group="level"),
    ),
    retired=RETIRED,
)


def settings_table() -> str:
    """The settings (and the retired ones) as Markdown tables, as `docs/ai-settings.md` shows them."""
    lines = [
        "| setting | group | kind | default | range | at a level | what it does |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in SETTINGS:
        default = "—" if s.default is None else _shown_default(s.default)
        at_level = "" if s.level is UNSET else "the level's" if s.level is None else _shown_default(s.level)
        lines.append(f"| `{s.name}` | {s.group} | {s.kind} | {default} | {s.range or 'any'} | {at_level} | {s.help} |")
    lines += ["", "| retired setting | why |", "|---|---|"]
    lines += [f"| `{name}` | {why} |" for name, why in RETIRED.items()]
    return "\n".join(lines) + "\n"


def _shown_default(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, float)):
        return _number(value)
    return str(value)


def _number(value: float) -> str:
    """1,000,000 for a whole number, 0.25 for another."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"
