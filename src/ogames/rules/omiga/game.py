"""The Omiga game: options for every mode and dispatch to the mode's state.

Modes: `base` and `2v2` are real time (see `realtime.py`); `kids`, `toddler` and `zen` are
turn-based and live in their own modules (imported lazily). Colours: base, 2v2 and kids are
("white", "black"); 2v2 has four seats (two per colour, see `teams.py`); toddler uses the first
`players` of white, black, red, blue, green, yellow; zen is one seat laying both colours.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from ogames.rules.omiga.cards import STANDARD, CardSet, Face
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import Game, State

VARIANTS = ("base", "2v2", "kids", "toddler", "zen")
TODDLER_COLOURS = ("white", "black", "red", "blue", "green", "yellow")
FIXED_PLAYERS = {"base": 2, "2v2": 4, "kids": 2, "zen": 1}
_LAZY = {
    "kids": "ogames.rules.omiga.kids:KidsState",
    "toddler": "ogames.rules.omiga.toddler:ToddlerState",
    "zen": "ogames.rules.omiga.zen.state:ZenState",
}


def parse_cards(text: str) -> tuple[Face, ...]:
    """`standard`, or face codes separated by commas or spaces (e.g. `AB/^, BA\\v`)."""
    if text == "standard":
        return STANDARD.designs
    codes = text.replace(",", " ").split()
    designs = tuple(Face.from_code(code) for code in codes)
    if len(set(designs)) != len(designs):
        raise ValueError("a card set lists each design once")
    return designs


class Omiga(Game):
    """Omiga (Flanx): the real-time card game and its variants."""

    name = "omiga"
    title = "Omiga"
    summary = "A real-time card game: race a chain of fitting cards to the far edge, or get behind an opponent card."
    variants = VARIANTS
    option_set = OptionSet(
        (
            Option("variant", "choice", "base", "base, 2v2, kids, toddler or zen", choices=VARIANTS),
            Option("width", "int", 15, "table width in cards, 3 to 52", minimum=3, maximum=52),
            Option("height", "int", 10, "table height in cards, 3 to 52", minimum=3, maximum=52),
            Option("turning", "bool", True, "cards may be laid turned 180°"),
            Option(
                "seed",
                "int",
                None,
                "seed of the deck shuffles, 0 to 2^53−1 (chosen and stored when not given)",
                minimum=0,
                maximum=2**53 - 1,  # records are read exactly by JavaScript too
            ),
            Option("players", "int", None, "number of players (toddler: 2 to 6; fixed otherwise)", minimum=1, maximum=6),
            Option("form", "text", "muha", "zen: the form to build (its name, see `ogames omiga forms`)", max_length=40),
            Option("target", "int", 7, "2v2: points to win", minimum=1, maximum=99),
            Option(
                "cards",
                "text",
                "standard",
                "the card set: 'standard' or face codes like 'AB/^ BA\\v' (at most 600 characters)",
                cli=False,
                max_length=600,
            ),
        )
    )

    def settle(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill the seed and the player count; check the card set."""
        if options["seed"] is None:
            # Records store the chosen seed, so every deck is reproducible from the record.
            options["seed"] = random.SystemRandom().randrange(2**31)
        variant = options["variant"]
        if variant == "toddler":
            players = 2 if options["players"] is None else options["players"]
            if not 2 <= players <= 6:
                raise self.fail(f"option players={players} is not valid: toddler needs 2 to 6 players")
            options["players"] = players
        else:
            fixed = FIXED_PLAYERS[variant]
            if options["players"] not in (None, fixed):
                raise self.fail(f"option players={options['players']} is not valid: {variant} has {fixed} players")
            options["players"] = fixed
        try:
            parse_cards(options["cards"])
        except ValueError as exc:
            raise self.fail(f"option cards={options['cards']!r} is not valid: {exc}") from None
        return options

    @cached_property
    def card_set(self) -> CardSet:
        """The designs in every deck and whether they may be turned."""
        return CardSet(parse_cards(self.options["cards"]), turning=self.options["turning"])

    @property
    def colours(self) -> tuple[str, ...]:
        """The card colours in play."""
        if self.options["variant"] == "toddler":
            return TODDLER_COLOURS[: self.options["players"]]
        return ("white", "black")

    def new_state(self, players: Sequence[str] | None = None) -> State:
        """The position on the signal (start cards laid, hands drawn)."""
        variant = self.options["variant"]
        if variant == "base":
            from ogames.rules.omiga.base import BaseState

            return BaseState(self, players)
        if variant == "2v2":
            from ogames.rules.omiga.teams import TeamState

            return TeamState(self, players)
        module_name, class_name = _LAZY[variant].split(":")
        return getattr(importlib.import_module(module_name), class_name)(self, players)
