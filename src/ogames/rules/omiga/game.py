"""The Omiga game: options for every mode and dispatch to the mode's state.

Modes: `base`, `2v2` and `kids` are real time (see `realtime.py`; kids also has the explicit
turn-based form `pace=turns` for beginners); `toddler` and `zen` are turn-based. Each lives in its
own module, imported lazily. Colours: base, 2v2 and kids are ("white", "black"); 2v2 has four
seats (two per colour, see `teams.py`); toddler uses the first `players` of white, black, red,
blue, green, yellow; zen is one seat laying both colours.

Options that belong to some variants only (`width`, `height`, `cards`, `target`, `form`, `pace`)
are refused for the others, and settle to None there. `load` also refuses what could not be
played: a card set with which nobody could ever lay a second card, one where some first card of
the base game or of a 2v2 round could find no fitting card below it, a toddler table narrower
than its players, an unknown zen form.
"""

from __future__ import annotations

import importlib
import secrets
from collections.abc import Sequence
from functools import cached_property
from types import MappingProxyType
from typing import Any

from ogames.rules.omiga.cards import STANDARD, CardSet, Face, fits_above, fits_beside
from ogames.rules.omiga.zen.forms import DEFAULT_FORM, form_named
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import REAL_TIME, TABLE, TURN_BASED, Game, State
from ogames.wording import say

VARIANTS = ("base", "2v2", "kids", "toddler", "zen")
PACES = ("realtime", "turns")
TODDLER_COLOURS = ("white", "black", "red", "blue", "green", "yellow")
FIXED_PLAYERS = {"base": 2, "2v2": 4, "kids": 2, "zen": 1}
TABLE_VARIANTS = ("base", "2v2", "kids", "toddler")  # zen sizes its table from the form
SEEDS = 2**53  # seeds 0 to 2^53−1: records are read exactly by JavaScript too
DEFAULTS = {"width": 15, "height": 10, "cards": "standard", "target": 7, "form": DEFAULT_FORM, "pace": "realtime"}
_STATES = {
    "base": "ogames.rules.omiga.base_variant:BaseState",
    "2v2": "ogames.rules.omiga.teams:TeamState",
    "kids": "ogames.rules.omiga.kids:KidsState",
    "kids/turns": "ogames.rules.omiga.kids:KidsTurnState",
    "toddler": "ogames.rules.omiga.toddler:ToddlerState",
    "zen": "ogames.rules.omiga.zen.state:ZenState",
}


def secret_seed() -> int:
    """A seed nobody can guess: drawn by `secrets` from the option's whole range, far too many seeds to
    find it by dealing each and comparing with the cards on the table (benchmarks/bench_seed_search.py)."""
    return secrets.randbelow(SEEDS)


def parse_cards(text: str) -> tuple[Face, ...]:
    """`standard`, or face codes separated by commas or spaces (e.g. `AB/^, BA\\v`)."""
    if text == "standard":
        return STANDARD.designs
    codes = text.replace(",", " ").split()
    if not codes:
        raise ValueError("a card set needs at least one design: 'standard' or face codes like 'AB/^ BA\\v'")
    designs = tuple(Face.from_code(code) for code in codes)
    if len(set(designs)) != len(designs):
        raise ValueError("a card set lists each design once")
    return designs


class Omiga(Game):
    """Omiga (Flanx): the real-time card game and its variants."""

    name = "omiga"
    title = "Omiga"
    played_on = TABLE
    min_players = 1  # zen is played alone
    max_players = 6  # toddler
    most_colours = MappingProxyType({"variant": "toddler", "players": 6})
    summary = "A real-time card game: race a chain of fitting cards to the far edge, or get behind an opponent card."
    variants = VARIANTS
    option_set = OptionSet(
        (
            Option("variant", "choice", "base", "base, 2v2, kids, toddler or zen", choices=VARIANTS),
            Option("width", "int", None, "table width in cards, 3 to 52 (default 15; not zen)", minimum=3, maximum=52,
                   applies_to=TABLE_VARIANTS),
            Option("height", "int", None, "table height in cards, 3 to 52 (default 10; not zen)", minimum=3, maximum=52,
                   applies_to=TABLE_VARIANTS),
            Option("turning", "bool", True, "cards may be laid turned 180°"),
            Option(
                "seed",
                "int",
                None,
                "seed of the deck shuffles, 0 to 2^53−1 (chosen and stored when not given)",
                minimum=0,
                maximum=SEEDS - 1,
            ),
            Option("players", "int", None, "number of players (toddler: 2 to 6; fixed otherwise)", minimum=1, maximum=6),
            Option("form", "text", None, f"zen: the form to build (default {DEFAULT_FORM}; see `ogames omiga forms`)",
                   applies_to=("zen",), max_length=40),
            Option("target", "int", None, "2v2: points to win (default 7)", minimum=1, maximum=99, applies_to=("2v2",)),
            Option("pace", "choice", None, "kids: realtime (default, as the booklet) or turns (one card in turn, for beginners)",
                   choices=PACES, applies_to=("kids",)),
            Option("cards", "text", None, "the card set: 'standard' (default) or face codes like 'AB/^ BA\\v' (600 characters)",
                   cli=False, applies_to=TABLE_VARIANTS, max_length=600),
        )
    )

    def settle(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill the seed, the player count and the variant's defaults; refuse what cannot be played."""
        if options["seed"] is None:
            # Records store the chosen seed, so every deck is reproducible from the record.
            options["seed"] = secret_seed()
        variant = options["variant"]
        for name, default in DEFAULTS.items():
            if variant in self.option_set[name].applies_to and options[name] is None:
                options[name] = default
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
        if variant == "zen":
            try:
                options["form"] = form_named(options["form"]).key
            except ValueError as exc:
                raise self.fail(say("form-invalid", "option form={form} is not valid: {reason}", form=repr(options["form"]),
                                    reason=exc.args[0] if exc.args else str(exc))) from None
            return options
        if variant == "toddler" and options["players"] > options["width"]:
            raise self.fail(
                f"option players={options['players']} is not valid: toddler gives each player a column of their own "
                f"on the home edge, and the table is {options['width']} wide (width={options['width']})"
            )
        try:
            designs = parse_cards(options["cards"])
        except ValueError as exc:
            raise self.fail(f"option cards={options['cards']!r} is not valid: {exc}") from None
        problem = unplayable(CardSet(designs, turning=options["turning"]), variant)
        if problem:
            raise self.fail(f"option cards={options['cards']!r} is not valid: {problem}")
        return options

    @cached_property
    def card_set(self) -> CardSet:
        """The designs in every deck and whether they may be turned (zen always plays the standard set)."""
        return CardSet(parse_cards(self.options["cards"] or "standard"), turning=self.options["turning"])

    @property
    def colours(self) -> tuple[str, ...]:
        """The card colours in play."""
        if self.options["variant"] == "toddler":
            return TODDLER_COLOURS[: self.options["players"]]
        return ("white", "black")

    @property
    def dynamics(self) -> str:
        """Base, 2v2 and kids are played in real time (kids with pace=turns in turns); toddler and zen in turns."""
        variant = self.options["variant"]
        if variant in ("base", "2v2") or (variant == "kids" and self.options["pace"] == "realtime"):
            return REAL_TIME
        return TURN_BASED

    @property
    def seat_count(self) -> int:
        """2v2 seats four players on two colours; zen one player laying both."""
        return int(self.options["players"])

    @property
    def hidden_information(self) -> bool:
        """The order of every deck is hidden from every player."""
        return True

    def new_state(self, players: Sequence[str] | None = None) -> State:
        """The position on the signal (start cards laid, hands drawn; a draw that holds already is declared)."""
        variant = self.options["variant"]
        key = "kids/turns" if variant == "kids" and self.options["pace"] == "turns" else variant
        module_name, class_name = _STATES[key].split(":")
        state_class: type[State] = getattr(importlib.import_module(module_name), class_name)
        return state_class(self, players)


def unplayable(card_set: CardSet, variant: str) -> str | None:
    """Why no game of the variant could be played with the card set, or None.

    Every variant but zen grows chains of one colour: a second card of a colour must fit the first
    one orthogonally, and the two are different designs of one deck. Without two designs that fit
    side by side or one above the other, nobody could ever lay a card after the start. The base game
    and every 2v2 round start with White's top card, either way up, and a card of Black's full deck
    that fits below it: every face of every design needs a face that fits below it.
    """
    faces = [(d, f) for d in range(len(card_set)) for f in card_set.faces(d)]
    if not any(
        d1 != d2 and (fits_beside(f1, f2) or fits_above(f1, f2)) for d1, f1 in faces for d2, f2 in faces
    ):
        return "no two of its designs fit side by side or one above the other, so nobody could ever lay a card"
    if variant in ("base", "2v2"):
        for _, face in faces:
            if not any(fits_above(below, face) for _, below in faces):
                return f"no card fits below {face.code}, so a game whose first card it is could not start"
    return None
