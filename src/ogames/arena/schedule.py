"""Round-robin schedules: which entrants meet in each game, in which seats, and the game's file name.

Two sides (most games): every pair of entrants meets `games_per_pair` times and the pair's seats
swap from one meeting to the next, so an even number of games gives each entrant of a pair each
seat equally often. More sides (Omega with 3 or 4 players, toddler Omiga): every group of that
many entrants meets `games_per_pair` times, seated by each permutation of the group in turn, so a
multiple of sides! games gives every entrant every seat, and every pair every pair of seats,
equally often.

>>> [g.seating for g in schedule(3, 2, 2)]
[(0, 1), (2, 0), (1, 2), (1, 0), (0, 2), (2, 1)]
>>> schedule(3, 2, 2)[3].file_name
'game-0003_round-1_seats-1-0.json'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import combinations, permutations

from ogames.errors import BadOption

FILE_PATTERN = re.compile(r"game-(\d{4,})_round-(\d+)_seats-(\d+(?:-\d+)*)\.json")


@dataclass(frozen=True)
class Pairing:
    """One scheduled game: its number, its round, and the entrants (by index) in seat order."""

    number: int
    round: int
    seating: tuple[int, ...]

    @property
    def file_name(self) -> str:
        """The record's file name: game number, round and the entrants in seat order."""
        seats = "-".join(str(e) for e in self.seating)
        return f"game-{self.number:04d}_round-{self.round}_seats-{seats}.json"


def schedule(entrants: int, sides: int, games_per_pair: int) -> list[Pairing]:
    """Every game of a round robin: round r holds one game of every pair (or group), seated as
    described in the module's docstring. Game numbers run through the rounds in order."""
    if sides < 2:
        raise BadOption(f"a tournament needs a game of two or more sides, not {sides}")
    if entrants < sides:
        need = "two players" if sides == 2 else f"{sides} players (each game seats {sides} different ones)"
        raise BadOption(f"this game needs at least {need}; {entrants} given")
    if games_per_pair < 1:
        raise BadOption(f"games per pair must be at least 1, not {games_per_pair}")
    groups = list(combinations(range(entrants), sides))
    orders = list(permutations(range(sides))) if sides > 2 else [(0, 1), (1, 0)]
    games: list[Pairing] = []
    for round_ in range(games_per_pair):
        for index, group in enumerate(groups):
            # Shift the order by the group's index too, so that within one round the first seat is
            # spread over the entrants (it matters when games_per_pair is odd).
            order = orders[(round_ + index) % len(orders)]
            games.append(Pairing(len(games), round_, tuple(group[k] for k in order)))
    return games


def default_games_per_pair(sides: int) -> int:
    """At least 10 games per pair or group, and a whole number of seatings (even for two sides)."""
    cycle = 2 if sides == 2 else math.factorial(sides)
    return cycle * math.ceil(10 / cycle)


def balanced(games_per_pair: int, sides: int) -> bool:
    """Whether that many games give every entrant of a pair (or group) every seat equally often."""
    return games_per_pair % (2 if sides == 2 else math.factorial(sides)) == 0
