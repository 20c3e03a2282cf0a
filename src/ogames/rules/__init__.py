"""Layer 2: one module per game, all speaking the protocol in `protocol.py`."""

from __future__ import annotations

import difflib
import importlib
from typing import Any

from ogames.errors import BadOption, shown
from ogames.rules.protocol import BOARD, REAL_TIME, TABLE, TURN_BASED, Game, Result, State

# Game name → "module:Class". Imported on first use, so one game's import cost (numba kernels)
# is paid only by those who play it.
REGISTRY: dict[str, str] = {
    "omny": "ogames.rules.omny:Omny",
    "oddy": "ogames.rules.oddy:OddY",
    "omega": "ogames.rules.omega:Omega",
    "onyx": "ogames.rules.onyx:Onyx",
    "omiga": "ogames.rules.omiga:Omiga",
}

ALIASES = {"odd-y": "oddy", "flanx": "omiga"}


def game_class(name: str) -> type[Game]:
    """The Game class registered under a name (case-insensitive, aliases allowed)."""
    if not isinstance(name, str):
        raise BadOption(f"a game name must be text, not {type(name).__name__}")
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in REGISTRY:
        near = difflib.get_close_matches(key, list(REGISTRY), n=1) if len(key) < 40 else []
        hint = f"; did you mean {near[0]}?" if near else ""
        raise BadOption(f"unknown game {shown(name)} (games: {', '.join(REGISTRY)}){hint}")
    module_name, class_name = REGISTRY[key].split(":")
    found: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return found


def load(name: str, **options: Any) -> Game:
    """A game by name with options as keyword arguments; BadOption for anything unknown or invalid."""
    return game_class(name)(**options)


def available() -> list[str]:
    """Names of the games whose modules are present."""
    names = []
    for name in REGISTRY:
        try:
            game_class(name)
        except ImportError:
            continue
        names.append(name)
    return names


__all__ = ["BOARD", "REAL_TIME", "REGISTRY", "TABLE", "TURN_BASED", "Game", "Result", "State", "available", "game_class", "load"]
