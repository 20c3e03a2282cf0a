"""Rating pools: which games share a rating (docs/ratings.md, "Pools").

A pool is one game as its players think of it, the way lichess gives each variant with rules of
its own a rating of its own: a player's Omny rating holds every Omny board (the rule is the
same, only the board differs, as Go servers keep one rating over board sizes), and a table of
three or four at Omega is another game than a duel, with a model of its own. What is not rated
(casual only), as lichess rates no game from a set-up position: boards and card sets a player
makes up (Omny's `custom` variant, Omiga's own `cards`), and Omiga's children's variants, its
solo zen. Omiga's 2v2 is a game of two teams of two: a pool of its own, rated by the table model
with each team's skill the sum of its players' (`Pool.teams`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pool:
    """A rating pool: its name (stored with every rating), the game, a title for pages, whether
    its games are tables of three or more (ranked by Plackett–Luce) rather than duels, and for a
    game of teams how many teams its seats alternate between (seat i plays for team i mod teams)."""

    name: str
    game: str
    title: str
    table: bool = False
    teams: int = 0

    @property
    def seats(self) -> tuple[int, ...]:
        """How many players a game of the pool is rated with."""
        if self.teams:
            return (2 * self.teams,)
        return (3, 4) if self.table else (2,)

    def team_of(self, seat: int) -> int:
        """The team a seat plays for (each seat its own in a pool without teams)."""
        return seat % self.teams if self.teams else seat


POOLS = {
    pool.name: pool
    for pool in (
        Pool("omny", "omny", "Omny"),
        Pool("oddy", "oddy", "Odd-Y"),
        Pool("omega", "omega", "Omega"),
        Pool("omega-table", "omega", "Omega, 3–4 players", table=True),
        Pool("onyx", "onyx", "Onyx"),
        Pool("omiga", "omiga", "Omiga"),
        Pool("omiga-2v2", "omiga", "Omiga, 2v2", table=True, teams=2),
    )
}

# Omiga's variants that are rated, and their pools: the base game, one against one, and 2v2, two
# teams of two. Its children's variants (kids, toddler) are for learning and zen is played alone.
OMIGA_RATED = {"base": "omiga", "2v2": "omiga-2v2"}


def pool_of(game: str, options: Mapping[str, Any]) -> Pool | None:
    """The pool a game with these options is rated in, or None if it can only be played casual.
    `options` are the game's settled options (`ogames.load(...).options`, a record's `options`)."""
    if game in ("oddy", "onyx"):
        return POOLS[game]
    if game == "omny":
        return None if options.get("variant") == "custom" else POOLS["omny"]
    if game == "omega":
        return POOLS["omega-table"] if int(options.get("players") or 2) > 2 else POOLS["omega"]
    if game == "omiga":
        own_cards = options.get("cards") not in (None, "", "standard")
        pool = OMIGA_RATED.get(str(options.get("variant", "base")))
        return POOLS[pool] if pool is not None and not own_cards else None
    return None
