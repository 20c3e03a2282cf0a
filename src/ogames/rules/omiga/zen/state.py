"""Omiga «Дзен» (zen), RULES.md §5: one player builds a chosen form, turn by turn.

Moves (case-insensitive):
- `start white` / `start black` (optionally `turned`): the top card of that deck becomes the
  starting card, laid in the middle of the table (first move only);
- `draw white` / `draw black`: begin a round with the top three cards of that deck (fewer if
  fewer are left); a deck that is out is turned over from its discard pile, once per colour;
- `place N CELL` (optionally `turned`): lay hand card N (1-based) on CELL; it must join the
  layout orthogonally, fit every orthogonal neighbour, and leave a layout that is still part of
  the form in shape and colour (the form may sit anywhere under the layout: translations only);
- `end` (alias `discard`): finish the round; the cards left in hand go face down on the discard
  pile of their colour, in hand order.
The game is won when the layout is the whole form; it is lost when neither deck can be drawn
any more (each colour's deck out after its discard pile was turned once, or out with an empty
discard pile) and the form is not complete. A one-colour form sets the other deck aside.
The result names the colour of the first deck (the game's first colour) as winner on success and
"nobody" on a loss; `rewards()` is [1] or [0].
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

from ogames.errors import IllegalMove, UnknownLabel
from ogames.rules.omiga.cards import STANDARD, CardSet, Face
from ogames.rules.omiga.deck import HAND_SIZE, Supply
from ogames.rules.omiga.table import ZEN_RULES, Table
from ogames.rules.omiga.zen.forms import DEFAULT_FORM, Form, form_named
from ogames.rules.protocol import Result, State
from ogames.wording import say

LOST = "nobody"


def _option(game: Any, name: str, default: Any) -> Any:
    value = getattr(game, "options", {}).get(name)
    return default if value is None else value


class ZenState(State):
    """A zen game in progress: the form, both supplies, the hand and the layout on a table."""

    mutable_fields = ("table", "hand", "layout", "offsets")
    nested_fields = ("supplies",)

    def __init__(self, game: Any, players: Sequence[str] | None = None):
        super().__init__(game, players, seats=1)
        self.form: Form = form_named(_option(game, "form", DEFAULT_FORM))
        self.cards = CardSet(STANDARD.designs, turning=bool(_option(game, "turning", True)))
        seed = _option(game, "seed", 0)
        self.solo = game.colours[0] if game.colours else "white"
        # The layout can never be wider or taller than the form, so a table of twice the form's
        # size with the starting card in the middle holds every layout the rules allow.
        width, height = 2 * self.form.width - 1, 2 * self.form.height - 1
        self.table = Table(width, height, self.cards, owners=("white", "black"), home_rows=(height - 1, 0))
        start_cell = self.table.number(self.form.width - 1, self.form.height - 1)
        assert start_cell is not None, "the middle of the table is on it"
        self.start_cell = start_cell
        self.supplies: dict[str, Supply] = {}
        for colour in self.form.colours:
            self.supplies[colour] = Supply(len(self.cards), random.Random(f"omiga-zen:{seed}:{colour}"))
        self.hand: list[tuple[str, int]] = []
        self.layout: dict[tuple[int, int], str] = {}
        self.offsets: set[tuple[int, int]] = set()
        # The end conditions hold from the start as after every move (with full decks nothing ends yet).
        self._check_loss()

    # ----- protocol ----------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        """The solo player's colour while the game goes on."""
        return None if self.result else self.solo

    def stone_at(self, label: str) -> str | None:
        """The colour of the card on a cell of the table, or None."""
        return self.table.owner_at(self.table.cell(label))

    def rewards(self) -> list[float]:
        """[1] for a completed form, [0] for a loss."""
        if self.result is None:
            raise ValueError("the game is not over")
        return [0.0 if self.result.winner == LOST else 1.0]

    def resign_result(self, colour: str) -> Result:
        """Giving up loses."""
        return Result(LOST, say("gave-up", "the player gave up"))

    # ----- what can be done --------------------------------------------------------------
    def drawable(self, colour: str) -> bool:
        """Whether a round may begin from this colour's deck (turning its discard pile if allowed)."""
        supply = self.supplies.get(colour)
        if supply is None:
            return False
        return bool(supply.cards) or (supply.turns == 0 and bool(supply.discards))

    def fits_form(self, cell: int, colour: str) -> set[tuple[int, int]]:
        """The form offsets that still hold the layout with one more card of `colour` on `cell`."""
        col, row = self.table.position(cell)
        cells = self.form.cells
        return {(dx, dy) for dx, dy in self.offsets if cells.get((col - dx, row - dy)) == colour}

    def placements(self, index: int) -> list[tuple[int, Face]]:
        """Every (cell, face) where hand card `index` (0-based) may go now."""
        colour, design = self.hand[index]
        out = []
        for cell, face in self.table.legal_placements(colour, design, ZEN_RULES):
            if self.fits_form(cell, colour):
                out.append((cell, face))
        return out

    def legal_moves(self) -> list[str]:
        """Every move allowed now."""
        if self.result:
            return []
        if not self.layout:
            moves = []
            for colour in self.supplies:
                if self.form.count(colour):
                    moves.append(f"start {colour}")
                    if self.cards.turning:
                        moves.append(f"start {colour} turned")
            return moves
        if not self.hand:
            return [f"draw {colour}" for colour in self.supplies if self.drawable(colour)]
        moves = []
        for i, (_, design) in enumerate(self.hand):
            printed = self.cards.designs[design]
            for cell, face in self.placements(i):
                moves.append(f"place {i + 1} {self.table.label(cell)}" + ("" if face == printed else " turned"))
        return [*moves, "end"]

    # ----- making moves ------------------------------------------------------------------
    def play(self, move: str, *, t: float | None = None) -> Self:
        """Make a move (see State.play); `undo` takes it back at once."""
        return self.keeping_undo(super().play, move, t=t)

    def resign(self, colour: str | None = None, *, t: float | None = None) -> Self:
        """Give up (see State.resign); `undo` takes it back at once."""
        return self.keeping_undo(super().resign, colour, t=t)

    def apply(self, move: str) -> dict[str, Any]:
        """Check and make one move; IllegalMove naming the reason (nothing changed) if not allowed."""
        words = move.split()
        if not words:
            raise IllegalMove(move, say("zen-say-action", "say start, draw, place, end or resign"))
        verb, args = words[0], words[1:]
        if verb == "start":
            return self._start(move, args)
        if not self.layout:
            raise IllegalMove(move, say("zen-start-first",
                                        "the game begins with a starting card: 'start white' or 'start black'"))
        if verb == "draw":
            return self._draw(move, args)
        if verb == "place":
            return self._place(move, args)
        if verb in ("end", "discard"):
            if args:
                raise IllegalMove(move, say("zen-end-alone",
                                            "'end' takes nothing more: the whole hand goes to the discard piles"))
            if not self.hand:
                raise IllegalMove(move, say("zen-nothing-to-end", "there is no round to end: draw first"))
            return self._end_round("end")
        raise IllegalMove(move, say("zen-unknown-action",
                                    "unknown action {verb}: start, draw, place, end or resign", verb=repr(verb)))

    def _colour(self, move: str, word: str | None) -> str:
        if word not in ("white", "black"):
            raise IllegalMove(move, say("zen-name-deck", "name a deck: white or black"))
        if word not in self.supplies:
            raise IllegalMove(move, say("zen-deck-aside", "the {colour} deck is set aside: the form {form} has no {colour} cells",
                                        colour=word, form=self.form.english, russian=self.form.russian))
        return word

    def _turned(self, move: str, extra: list[str]) -> bool:
        if not extra:
            return False
        if extra != ["turned"]:
            raise IllegalMove(move, say("zen-only-turned",
                                        "unexpected {words}: only 'turned' may follow", words=repr(" ".join(extra))))
        if not self.cards.turning:
            raise IllegalMove(move, say("no-turning", "cards may not be turned in this game (turning is off)"))
        return True

    def _start(self, move: str, args: list[str]) -> dict[str, Any]:
        if self.layout:
            raise IllegalMove(move, say("zen-started", "the starting card is already on the table"))
        colour = self._colour(move, args[0] if args else None)
        turned = self._turned(move, args[1:])
        supply = self.supplies[colour]
        design = supply.cards[-1]
        face = self.cards.designs[design].turned() if turned else self.cards.designs[design]
        supply.cards.pop()
        cell = self.start_cell
        col, row = self.table.position(cell)
        self.offsets = {(col - fc, row - fr) for (fc, fr), c in self.form.cells.items() if c == colour}
        self._lay(cell, colour, design, face)
        return {"move": f"start {colour}" + (" turned" if turned else ""), "card": design}

    def _draw(self, move: str, args: list[str]) -> dict[str, Any]:
        if self.hand:
            raise IllegalMove(move, say("zen-round-going", "the round is still going: place cards or 'end' it first"))
        if len(args) != 1:
            raise IllegalMove(move, say("zen-draw-form", "say 'draw white' or 'draw black'"))
        colour = self._colour(move, args[0])
        if not self.drawable(colour):
            raise IllegalMove(move, say("zen-deck-out", "the {colour} deck is out and its discard pile was turned once already",
                                        colour=colour))
        supply = self.supplies[colour]
        if not supply.cards:
            supply.turn_discards()
        drawn = supply.draw(min(HAND_SIZE, len(supply.cards)))
        self.hand = [(colour, d) for d in drawn]
        return {"move": f"draw {colour}", "cards": drawn}

    def _place(self, move: str, args: list[str]) -> dict[str, Any]:
        if not self.hand:
            raise IllegalMove(move, say("zen-hand-empty", "the hand is empty: draw first"))
        if len(args) not in (2, 3):
            raise IllegalMove(move, say("zen-place-form", "say 'place N CELL' or 'place N CELL turned'"))
        try:
            index = int(args[0]) - 1
        except ValueError:
            raise IllegalMove(move, say("zen-not-position", "{given} is not a hand position (1 to {n})", given=repr(args[0]),
                                        n=len(self.hand))) from None
        if not 0 <= index < len(self.hand):
            raise IllegalMove(move, say("zen-no-card",
                                        "there is no card {given} in the hand (1 to {n})", given=args[0], n=len(self.hand)))
        try:
            cell = self.table.cell(args[1])
        except UnknownLabel as exc:
            raise IllegalMove(move, say("not-a-table-cell", "{cell} is not a cell of the table: {reason}", cell=repr(args[1]),
                                        reason=exc.said)) from None
        turned = self._turned(move, args[2:])
        colour, design = self.hand[index]
        face = self.cards.designs[design].turned() if turned else self.cards.designs[design]
        problem = self.table.why_not(cell, colour, face, ZEN_RULES)
        if problem:
            raise IllegalMove(move, problem)
        offsets = self.fits_form(cell, colour)
        if not offsets:
            where = self.table.label(cell)
            raise IllegalMove(move, say("zen-off-form",
                                        "a {colour} card on {cell} leaves a layout that is no part of the {form} form",
                                        colour=colour, cell=where, form=self.form.english, russian=self.form.russian))
        self.offsets = offsets
        self.hand.pop(index)
        self._lay(cell, colour, design, face)
        label = f"place {index + 1} {self.table.label(cell)}" + (" turned" if turned else "")
        entry: dict[str, Any] = {"move": label, "card": design}
        if not self.result and not self.hand:
            self._check_loss()
        return entry

    def _lay(self, cell: int, colour: str, design: int, face: Face) -> None:
        self.table.place(cell, colour, design, face)
        self.layout[self.table.position(cell)] = colour
        if len(self.layout) == len(self.form.cells):
            self.result = Result(self.solo, say("form-completed", "completed the form {form}", form=self.form.english,
                                                 russian=self.form.russian))

    def _end_round(self, word: str) -> dict[str, Any]:
        for colour, design in self.hand:
            self.supplies[colour].discard([design])
        self.hand = []
        self._check_loss()
        return {"move": word}

    def _check_loss(self) -> None:
        if not any(self.drawable(c) for c in self.supplies):
            self.result = Result(LOST, say("decks-out", "both decks ran out the second time before the form was complete"))

    # ----- for faces -----------------------------------------------------------------------
    def placed_cells(self) -> dict[tuple[int, int], str]:
        """Layout cells in table coordinates → colour."""
        return dict(self.layout)
