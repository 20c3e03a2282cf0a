"""Layer 4: players. Every player has a `name`, `choose(state) -> move` (real-time bots:
`decide(state, actor, rng)` on a simulated clock), `reset()` and `info()`.

One way to name a player, for the library, the command line and (later) the web page: a *spec*
`KIND[:key=value[,key=value…]]`, e.g. `mcts:think=2`, `random:seed=3`, `racer:reaction=expert`.

>>> player("mcts:iterations=50,seed=1").name
'mcts'
>>> player("racer:reaction=expert").reaction
0.7
>>> parse_spec("mcts:think=2, seed=5")
('mcts', {'think': '2', 'seed': '5'})
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from functools import partial
from typing import Any

from ogames.errors import BadOption, shown
from ogames.players.base import BasePlayer, HumanPlayer, Player
from ogames.players.mcts import SETTINGS as MCTS_SETTINGS
from ogames.players.mcts import CompiledMcts, MctsPlayer
from ogames.players.random_player import RandomPlayer

BOT_KINDS = ("rollout", "racer", "greedy")  # Omiga's real-time strategies (plus random with a reaction)
TURN_KINDS = ("human", "random", "mcts", "uct", "solver")  # players of turn-based games
KINDS = (*TURN_KINDS, *BOT_KINDS)


def _whole(value: Any) -> int:
    if isinstance(value, str):
        return int(value.strip())
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise ValueError(value)


def _number(value: Any) -> float:
    if isinstance(value, str):
        return float(value.strip())
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    raise ValueError(value)


def _flag(value: Any) -> bool:
    """on/off, true/false, yes/no, 1/0 (as text), or a bool."""
    if isinstance(value, bool):
        return value
    word = value.strip().lower() if isinstance(value, str) else None
    if word in ("on", "true", "yes", "1"):
        return True
    if word in ("off", "false", "no", "0"):
        return False
    raise ValueError(value)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise ValueError(value)


def _reaction(value: Any) -> str | float:
    """A speed's name or seconds (as text or a number; `bots.reaction_seconds` reads it)."""
    if isinstance(value, str):
        return value
    return _number(value)


def _fallback(value: Any) -> Any:
    """A kind or spec, or (from code) a player object."""
    if isinstance(value, str) or callable(getattr(value, "choose", None)):
        return value
    raise ValueError(value)


def _ask(value: Any) -> Any:
    """A function from code; never text."""
    if callable(value) and not isinstance(value, str):
        return value
    raise ValueError(value)


# What a value that a reader refuses should have been, for the message.
_WANTED: dict[Callable[[Any], Any], str] = {
    _whole: "a whole number",
    _number: "a number",
    _flag: "on or off",
    _text: "text",
    _reaction: "a speed (toddler … machine) or seconds",
    _fallback: "a player kind or spec",
    _ask: "a function (set from code)",
}

# What each kind takes, and how a value (written in a spec, or given from code) is read.
_SETTINGS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "human": {"name": _text, "ask": _ask},
    "random": {"name": _text, "seed": _whole, "reaction": _reaction},
    # mcts: the compiled search (Omny, Odd-Y, Omega, Onyx; plain UCT for other games); uct: plain UCT.
    # Both read their settings by the search's one spec (`ogames.players.mcts.settings`).
    "mcts": {"name": _text, **{s.name: partial(MCTS_SETTINGS.read, s.name) for s in MCTS_SETTINGS}},
    "uct": {"name": _text, **{k: partial(MCTS_SETTINGS.read, k) for k in ("think", "iterations", "seed", "exploration")}},
    "solver": {
        "name": _text,
        "budget": _whole,
        "seconds": _number,
        "fallback": _fallback,
        "think": _number,
        "iterations": _whole,
        "seed": _whole,
    },
    **{kind: {"name": _text, "reaction": _reaction, "jitter": _number} for kind in BOT_KINDS},
}


def takes_seed(kind: str) -> bool:
    """Whether players of a kind (or spec) take a `seed` (so that a tournament or a face can seed them).

    >>> takes_seed("uct:iterations=50"), takes_seed("racer")
    (True, False)
    """
    return "seed" in _SETTINGS.get(parse_spec(kind)[0], {})


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The kind and the settings (as text) of `KIND[:key=value,…]`; BadOption if malformed."""
    if not isinstance(spec, str) or not spec.strip():
        raise BadOption(f"a player is named KIND[:key=value,…] (kinds: {', '.join(KINDS)}), not {shown(spec)}")
    kind, _, rest = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise BadOption(f"player {shown(spec)}: settings are written key=value, not {shown(part)}")
        settings[key.strip().lower()] = value.strip()
    return kind.strip().lower(), settings


def player(kind: str, **options: Any) -> Any:
    """A player by spec or kind, with keyword settings (which win over those in the spec).

    Kinds: human, random, mcts (the compiled search; `level=1`…`10` for people, see `levels.py`),
    uct (plain UCT), solver (proven winning moves
    in Omny and Odd-Y, else its `fallback` kind), and Omiga's real-time bots rollout, racer and
    greedy (`random` given a `reaction` is the random real-time bot). BadOption for an unknown kind
    or setting.
    """
    name, written = parse_spec(kind)
    if name not in _SETTINGS:
        raise BadOption(f"unknown player kind {shown(name)} (kinds: {', '.join(KINDS)})")
    readers = _SETTINGS[name]
    settings: dict[str, Any] = {}
    for key, value in {**written, **{k: v for k, v in options.items() if v is not None}}.items():
        if key not in readers:
            if name == "mcts":
                MCTS_SETTINGS.known(key)  # a retired setting says so
            raise BadOption(f"player {name} has no setting {shown(key)} (settings: {', '.join(readers)})")
        try:
            settings[key] = readers[key](value)
        except BadOption as exc:  # the search's spec says what it wanted
            raise BadOption(f"player {name}: {exc}") from None
        except (ValueError, OverflowError):  # OverflowError: int("1e999") is fine, float("1e999") is inf
            raise BadOption(f"player {name}: {key}={shown(value)} is not {_WANTED[readers[key]]}") from None
    try:
        return _build(name, settings)
    except ValueError as exc:  # BadOption from the players' checks, ValueError from the bots' and levels'
        raise BadOption(f"player {name}: {exc}") from None


def _build(kind: str, settings: dict[str, Any]) -> Any:
    if kind in BOT_KINDS or (kind == "random" and "reaction" in settings):
        from ogames.players.omiga.bots import Bot, reaction_seconds

        reaction = reaction_seconds(settings.pop("reaction", "club"))
        settings.pop("name", None)
        settings.pop("seed", None)  # a bot's randomness comes from the match it plays in
        return Bot(kind, reaction, **settings)
    if kind == "human":
        return HumanPlayer(**settings)
    if kind == "random":
        return RandomPlayer(**settings)
    if kind == "solver":
        from ogames.players.solver_player import SolverPlayer

        return SolverPlayer(**settings)
    if kind == "uct":
        return MctsPlayer(**{"name": "uct", **settings})
    if settings.get("level") is not None:
        from ogames.players.levels import level_settings

        # The level's settings are defaults: those written beside it win. The defaults are those of
        # the common ladder until the player sees its game (`CompiledMcts.fit_level`).
        defaults = level_settings(settings["level"], think="think" in settings)
        settings = {**defaults, **settings, "level_defaults": frozenset(defaults) - frozenset(settings)}
    return CompiledMcts(**settings)


def computer_player(spec: str, **settings: Any) -> Any:
    """A player that chooses the moves of turn-based games by itself (random, mcts, uct, solver),
    seeded with `settings["seed"]` where its kind takes a seed and its spec sets none; BadOption
    for a person or a real-time Omiga bot, which cannot be asked for a move."""
    _, written = parse_spec(spec)
    if "seed" in written or not takes_seed(spec):
        settings.pop("seed", None)
    made = player(spec, **settings)
    if getattr(made, "human", False) or not callable(getattr(made, "choose", None)):
        why = "a person" if getattr(made, "human", False) else "a real-time Omiga bot"
        raise BadOption(f"player {shown(spec)} is {why}; a computer player here is random, mcts, uct or solver")
    return made


def make_player(kind: str, **kw: Any) -> BasePlayer:
    """A turn-based player of a kind with its settings; settings the kind does not take are
    ignored, so that a face may pass `think` and `seed` to every kind."""
    name, _ = parse_spec(kind)
    accepted = _SETTINGS.get(name, {})
    # `player` is typed Any because it also builds Omiga's real-time bots; the kinds here are turn-based.
    made: BasePlayer = player(kind, **{k: v for k, v in kw.items() if k in accepted})
    return made


__all__ = [
    "BOT_KINDS",
    "KINDS",
    "TURN_KINDS",
    "BasePlayer",
    "CompiledMcts",
    "HumanPlayer",
    "MctsPlayer",
    "Player",
    "RandomPlayer",
    "computer_player",
    "make_player",
    "parse_spec",
    "player",
    "takes_seed",
]
