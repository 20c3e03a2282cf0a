"""Rating pools: which games share a rating (docs/ratings.md, "Pools").

A pool is one game as its players think of it, the way lichess gives each variant with rules of
its own a rating of its own: a player's Omny rating holds every Omny board (the rule is the
same, only the board differs, as Go servers keep one rating over board sizes), and a table of
three or four at Omega is another game than a duel, with a model of its own. What is not rated
(casual only), as lichess rates no game from a set-up position: boards and card sets a player
makes up (Omny's `custom` variant, Omiga's own `cards`), and Omiga's children's variants, its
solo zen and its 2v2 (teams: not rated yet).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pool:
    """A rating pool: its name (stored with every rating), the game, a title for pages, and
    whether its games are tables of three or four (ranked by Plackett–Luce) rather than duels."""

    name: str
    game: str
    title: str
    table: bool = False


POOLS = {
    pool.name: pool
    for pool in (
        Pool("omny", "omny", "Omny"),
        Pool("oddy", "oddy", "Odd-Y"),
        Pool("omega", "omega", "Omega"),
        Pool("omega-table", "omega", "Omega, 3–4 players", table=True),
        Pool("onyx", "onyx", "Onyx"),
        Pool("omiga", "omiga", "Omiga"),
    )
}

# Omiga's variants that are rated: the base game, one against one. Its children's variants are
# for learning, zen is played alone and 2v2's teams wait for team ratings.
OMIGA_RATED = {"base"}


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
        return POOLS["omiga"] if options.get("variant", "base") in OMIGA_RATED and not own_cards else None
    return None
