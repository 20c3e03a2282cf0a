"""The computer's levels as rated players: `computer:<level>` has a fixed rating in each pool,
made from the project's own measurements of its levels (docs/levels.md), so that a person's first
games against them give a meaningful rating (docs/ratings.md, "The computer's levels").

The board games' levels were measured against each other only (level N + 1 against level N, on
one board per game): each step's score becomes an Elo difference, 400·log10(p / (1 − p)), at most
400 a step (a step won 91% or more of 100 games says the gap is large, not how large: Onyx's
3–4 and 4–5 won all their games), and level 1, a player close to random, stands at 400, the
floor of lichess's scale. At Omega's tables of three a step's share of the tables won p, against
two of the level below, becomes the Plackett–Luce difference c·ln(2p / (1 − p)), c = √3·β being
the table's spread between settled players (the even share, 1/3, is no difference). A table
spreads ratings less than a duel (the seat and the other two decide much of a game), so from level
1 at 400 its level 4 would stand near 1000 and a new player's 1500 near level 9; the table's
ladder is placed with level 4 at 1600 instead, where two-player Omega's stands. Omiga's levels
were measured against a scripted person (reactions of 0.4–1.5 s): that person stands at 1500, a
new player's rating, and each level at the difference its share against the person gives.

A level's rating is fixed: its games move its opponents' ratings, never its own, so the scale
stays tied to the levels and nobody can drag a level up or down.
"""

from __future__ import annotations

import math

from ogames.ratings.model import BETA, START_RATING, Rating

COMPUTER = "computer:"
LEVELS = range(1, 11)
FLOOR = 400.0  # level 1 of a two-player board game: nearly random play
TABLE_LEVEL_4 = 1600.0  # Omega's tables: level 4 where two-player Omega's level 4 stands
MAX_STEP = 400.0  # the most one level's step counts for
DEVIATION = 50.0  # a level's deviation: about a settled player's, the ladder being measured on one board per game

# docs/levels.md, "Results": the higher level's share of the games, level N + 1 against level N,
# for N = 1 … 9 (Omega's tables of three: the share of the tables won against two of level N).
STEPS = {
    "omny": (0.97, 0.95, 0.91, 0.65, 0.61, 0.59, 0.59, 0.66, 0.60),
    "oddy": (0.98, 0.93, 0.91, 0.80, 0.64, 0.62, 0.66, 0.62, 0.66),
    "omega": (0.98, 0.99, 1.00, 0.86, 0.72, 0.61, 0.67, 0.59, 0.58),
    "onyx": (0.62, 0.98, 1.00, 1.00, 0.92, 0.75, 0.68, 0.62, 0.64),
    "omega-table": (0.61, 0.51, 0.53, 0.57, 0.50, 0.40, 0.43, 0.43, 0.40),
}
# docs/levels.md, "Omiga's real-time bots by level": the scripted person's share against levels 1 … 10.
PERSON_AGAINST_OMIGA = (0.995, 0.965, 0.91, 0.855, 0.698, 0.64, 0.452, 0.298, 0.152, 0.065)


def elo_step(share: float) -> float:
    """The Elo difference a two-player score gives, at most MAX_STEP."""
    if share >= 1.0:
        return MAX_STEP
    return min(MAX_STEP, 400.0 * math.log10(share / (1.0 - share)))


def table_step(share: float, players: int = 3) -> float:
    """The Plackett–Luce difference that wins a table of `players` this share of the time against
    equal others, at most MAX_STEP."""
    spread = math.sqrt(players) * BETA
    return min(MAX_STEP, spread * math.log((players - 1) * share / (1.0 - share)))


def _ladder(pool: str) -> tuple[float, ...]:
    if pool == "omiga":
        return tuple(START_RATING - 400.0 * math.log10(share / (1.0 - share)) for share in PERSON_AGAINST_OMIGA)
    step = table_step if pool == "omega-table" else elo_step
    ratings = [FLOOR]
    for share in STEPS[pool]:
        ratings.append(ratings[-1] + step(share))
    shift = TABLE_LEVEL_4 - ratings[3] if pool == "omega-table" else 0.0
    return tuple(rating + shift for rating in ratings)


LADDERS = {pool: _ladder(pool) for pool in (*STEPS, "omiga")}
# Omiga's 2v2: the levels were measured one against one only. A bot lays its cards at a team's
# table as it does alone, so each level keeps its duel rating (a guess, not a measurement).
LADDERS["omiga-2v2"] = LADDERS["omiga"]


def computer_id(level: int) -> str:
    """The player id of a computer level: `computer:5`."""
    if level not in LEVELS:
        raise ValueError(f"the computer's levels are 1 to 10, not {level!r}")
    return f"{COMPUTER}{level}"


def level_of(player_id: str) -> int | None:
    """The level a computer's player id names, or None for anyone else (or a level that does not exist)."""
    if not player_id.startswith(COMPUTER):
        return None
    text = player_id.removeprefix(COMPUTER)
    if not text.isdigit() or int(text) not in LEVELS:
        return None
    return int(text)


def is_computer(player_id: str) -> bool:
    """Whether a player id names one of the computer's levels."""
    return level_of(player_id) is not None


def computer_rating(pool: str, level: int) -> Rating:
    """A computer level's fixed rating in a pool."""
    if pool not in LADDERS:
        raise ValueError(f"no computer ladder for the pool {pool!r}")
    computer_id(level)  # refuses a level that does not exist
    return Rating(LADDERS[pool][level - 1], DEVIATION, 0)
