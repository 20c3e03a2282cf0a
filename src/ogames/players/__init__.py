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

from collections.abc import Callable
from typing import Any

from ogames.errors import BadOption, shown
from ogames.players.base import BasePlayer, HumanPlayer, Player
from ogames.players.compiled_mcts import CompiledMcts
from ogames.players.mcts import MctsPlayer
from ogames.players.random_player import RandomPlayer

BOT_KINDS = ("rollout", "racer", "greedy")  # Omiga's real-time strategies (plus random with a reaction)
TURN_KINDS = ("human", "random", "mcts", "uct", "solver")  # players of turn-based games
KINDS = (*TURN_KINDS, *BOT_KINDS)


def _flag(text: str) -> bool:
    """on/off, true/false, yes/no, 1/0."""
    word = text.strip().lower()
    if word in ("on", "true", "yes", "1"):
        return True
    if word in ("off", "false", "no", "0"):
        return False
    raise ValueError(text)


_flag.__name__ = "on or off"

# What each kind takes, and how a value written in a spec is read.
_SETTINGS: dict[str, dict[str, Callable[[str], Any]]] = {
    "human": {"name": str, "ask": lambda text: _refuse_text()},
    "random": {"name": str, "seed": int, "reaction": str},
    # mcts: the compiled search (Omny, Odd-Y, Omega, Onyx; plain UCT for other games); uct: plain UCT.
    "mcts": {
        "name": str,
        "think": float,
        "iterations": int,
        "seed": int,
        "exploration": float,
        "rave": _flag,
        "solver": _flag,
        "rave_k": float,
        "fpu": float,
        "nodes": int,
        "expand": int,
        "bridges": _flag,
        "edges": _flag,
        "reuse": _flag,
        "temperature": float,
        "prove": int,
        "decisive": _flag,
        "reward": str,
        "captures": _flag,
        "bias": float,
        "level": int,
        "workers": int,
        "swap": str,
        "replies": _flag,
        "opponent": str,
    },
    "uct": {"name": str, "think": float, "iterations": int, "seed": int, "exploration": float},
    "solver": {"name": str, "budget": int, "seconds": float, "fallback": str, "think": float, "iterations": int, "seed": int},
    **{kind: {"name": str, "reaction": str, "jitter": float} for kind in BOT_KINDS},
}


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
            raise BadOption(f"player {name} has no setting {shown(key)} (settings: {', '.join(readers)})")
        try:
            settings[key] = readers[key](value) if isinstance(value, str) else value
        except ValueError:
            want = {"int": "a whole number", "float": "a number", "on or off": "on or off"}.get(readers[key].__name__, "valid")
            raise BadOption(f"player {name}: {key}={shown(value)} is not {want}") from None
    try:
        return _build(name, settings)
    except ValueError as exc:
        raise BadOption(f"player {name}: {exc}") from None


def _refuse_text() -> Any:
    raise ValueError("a function is set from code, not from text")


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


def make_player(kind: str, **kw: Any) -> BasePlayer:
    """A turn-based player of a kind with its settings; settings the kind does not take are
    ignored, so that a face may pass `think` and `seed` to every kind."""
    name, _ = parse_spec(kind)
    accepted = _SETTINGS.get(name, {})
    return player(kind, **{k: v for k, v in kw.items() if k in accepted})


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
    "make_player",
    "parse_spec",
    "player",
]
