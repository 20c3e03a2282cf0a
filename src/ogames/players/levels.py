"""Levels 1–10 of the `mcts` player, for people: `mcts:level=N` or `player("mcts", level=N)`.

Each level is an ITERATION budget (so that its strength is the same on a busy or a fast machine)
and a few knobs:
- `temperature`: the move is drawn among the root's moves with chances ∝ visits^(1/T) instead of
  taking the most visited (T = 0), so the low levels play random-ish among the moves the search
  liked; proven losses are never drawn while another move is left;
- `rave` and `bridges` off at level 1 (a plain, short-sighted search);
- `fpu` 0 at levels 2 and 3: with a few dozen iterations the moves tried are those whose AMAF
  value (RAVE) is best instead of the first few in random order (docs/levels.md has what it won);
- `prove`: at level 10 the connection solver (DFPN) is asked first in Omny and Odd-Y, so a proven
  win is played and a move proven to lose is avoided (see `mcts.search.CompiledMcts`).

A level means the same strength step on every game, not the same budget: three- and four-player
Omega have their own ladder (`OMEGA_MULTI_LEVELS`, smaller budgets; with four players level 10
adds a score share to the reward, `OMEGA_FOUR_LEVELS`), which the player takes when it first sees
the game (`ladder`).

Settings written beside the level win over it (`mcts:level=3,iterations=500`). A `think` time
given with a level caps its time; level 10 given a `think` time has no iteration cap: it uses all
the time given. `docs/levels.md` has the tournament showing each level beats the one below.

>>> level_settings(1)  # doctest: +NORMALIZE_WHITESPACE
{'iterations': 10, 'rave': False, 'fpu': 1000000.0, 'share': 0.0, 'bridges': False,
 'opponent': 'strong', 'temperature': 1.0, 'prove': 0}
>>> level_settings(10, think=True)["iterations"] is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ogames.players.mcts.settings import HIGHEST_LEVEL, LOWEST_LEVEL, SETTINGS

LOWEST, HIGHEST = LOWEST_LEVEL, HIGHEST_LEVEL


class Level:
    """What one level sets on the search: its iteration budget and the settings it names, checked
    by the `mcts` settings spec. The settings a level sets are those the spec gives a level value
    (`Setting.level`): a level that names none of them gets that value (the levels were proven,
    docs/levels.md, with the opponent modelled strong, which also plays better against a strong
    opponent at these budgets: README, "The opponent")."""

    def __init__(self, iterations: int, **named: Any):
        base = SETTINGS.at_level()
        for key in named:
            if key not in base:
                raise ValueError(f"a level does not set {key} (it sets {', '.join(base)})")
        given = {**base, **named, "iterations": iterations}
        self.settings: Mapping[str, Any] = MappingProxyType({key: SETTINGS.read(key, given[key]) for key in base})

    def __getattr__(self, name: str) -> Any:
        """A setting of the level by name (`LEVELS[3].temperature`)."""
        try:
            return self.__dict__["settings"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        return f"Level({', '.join(f'{k}={v!r}' for k, v in self.settings.items())})"


LEVELS: dict[int, Level] = {
    1: Level(10, temperature=1.0, rave=False, bridges=False),
    2: Level(20, temperature=0.5, fpu=0.0),
    3: Level(60, temperature=0.25, fpu=0.0),
    4: Level(200, temperature=0.1),
    5: Level(600),
    6: Level(1_500),
    7: Level(4_000),
    8: Level(10_000),
    9: Level(25_000),
    10: Level(60_000, prove=20_000),
}

# Omega with three or more players has its own ladder: there the search stops gaining at about
# 10,000 iterations (a table of three is decided by the seat and by what the other two do as much
# as by search), so that from level 6 of LEVELS up no level beat the one below. Its ten levels are
# spread below that instead, each 2–3 times the one below, the knobs as in LEVELS; with three and
# four players every level beat the one below (docs/levels.md has the tables).
OMEGA_MULTI_LEVELS: dict[int, Level] = {
    1: LEVELS[1],
    2: LEVELS[2],
    3: Level(40, temperature=0.35, fpu=0.0),
    4: Level(80, temperature=0.2, fpu=0.0),
    5: Level(160, temperature=0.1),
    6: Level(350),
    7: Level(800),
    8: Level(2_500),
    9: Level(8_000),
    10: Level(25_000),
}

# Four players: level 10 blends each seat's share of the scores into its playouts' reward
# (`share=0.5`), which won more tables against three plain UCT players at equal time than the
# winner's 1 alone; with three players it did not, so their ladder keeps the winner's reward
# (docs/ai.md, "Three- and four-player Omega").
OMEGA_FOUR_LEVELS: dict[int, Level] = {**OMEGA_MULTI_LEVELS, 10: Level(25_000, share=0.5)}


def ladder(game: str, options: Mapping[str, Any]) -> dict[int, Level]:
    """The levels of a game with its options: a table of three seats (three-player Omega, by its
    `players` option) has its own, four seats that one with a score share at level 10, else LEVELS.

    >>> ladder("omega", {"players": 3})[9].iterations, ladder("omega", {"players": 2})[9].iterations
    (8000, 25000)
    >>> ladder("omega", {"players": 4})[10].share, ladder("omega", {"players": 3})[10].share
    (0.5, 0.0)
    """
    players = int(options.get("players") or 2)
    if players > 3:
        return OMEGA_FOUR_LEVELS
    if players > 2:
        return OMEGA_MULTI_LEVELS
    return LEVELS


# Omiga's real-time bots by level: a strategy (random < greedy < racer < rollout, see `omiga/bots.py`)
# and a reaction time on the simulated clock, every level faster than the one below and its
# strategy no worse. Speed decides most in a race of cards, and the levels are for people, so every
# reaction lies where a person's does: from 2 s a card (level 1, a random player a person beats
# nearly always) to 0.75 s (level 10, the rollout bot, which a quick person still beats now and
# then and which does not win before a person has laid a card). Measured against a scripted person
# (0.4–1.5 s an action, `omiga/person.py`) and level against level in
# `benchmarks/bench_omiga_levels.py` (docs/levels.md, with the former ladder it replaced).
OMIGA_LEVELS: dict[int, str] = {
    1: "random:reaction=2",
    2: "random:reaction=1.45",
    3: "greedy:reaction=1.4",
    4: "greedy:reaction=1.25",
    5: "racer:reaction=1.12",
    6: "racer:reaction=1.05",
    7: "rollout:reaction=1",
    8: "rollout:reaction=0.9",
    9: "rollout:reaction=0.8",
    10: "rollout:reaction=0.75",
}


def omiga_spec(level: int) -> str:
    """The spec of Omiga's real-time bot at a level (ValueError outside 1–10).

    >>> omiga_spec(6)
    'racer:reaction=1.05'
    """
    if isinstance(level, bool) or not isinstance(level, int) or level not in OMIGA_LEVELS:
        raise ValueError(f"level must be a whole number from {LOWEST} to {HIGHEST}, not {level!r}")
    return OMIGA_LEVELS[level]


def level_settings(level: int, think: bool = False, levels: Mapping[int, Level] = LEVELS) -> dict[str, Any]:
    """The `mcts` settings of a level of a ladder (ValueError outside 1–10); with a `think` time,
    level 10 drops its iteration cap."""
    settings = dict(levels[SETTINGS.read("level", level)].settings)
    if think and level == HIGHEST:
        settings["iterations"] = None
    return settings
