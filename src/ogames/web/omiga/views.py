"""What an Omiga table's page is sent, as types: `view.py` builds a `TableWire` for every view it
makes (so a field the page reads is checked as the view is made, not only in the tests);
`TableWire.shown()` is the JSON-ready dict a page that takes deltas and the other server processes
get, and `view.whole_view` makes of it the `TableView` the JSON API answers (a zen table's `zen`,
a placement hint's cell and card: only where they apply)."""

from __future__ import annotations

from typing import Any, Literal

from ogames.web.core.protocol import Declared
from ogames.web.ratings.views import RatingChangeView


class CardFields(Declared):
    design: int  # the card's design number (the page sends it back in `place DESIGN CELL`)
    code: str  # its face's code
    owner: str  # its colour
    title: str  # the card in words: its button's label
    act: str  # the start of the action that lays it: `place 15`, `place` (turns), `place 2` (zen)
    spots: list[tuple[str, bool]]  # where it may go now: [cell, turned]


class HandCard(CardFields):
    svg: str  # its drawing


class WireCard(CardFields):
    picture: str  # its drawing's key in the view's `pictures`


class Supply(Declared):
    deck: int
    discards: int


class SeatFields(Declared):
    seat: int
    name: str
    actor: str  # the name it acts under: `white`, 2v2's `white1`, zen's `player`
    colour: str | None  # the colour it lays (None in zen, which lays both)
    kind: str  # its stored kind: `human`, a bot's spec, `climber`
    computer: bool
    level: int | None  # a bot's level 1–10 (None: a person, or a bot chosen by strategy and speed)
    ready: bool  # a page holding the seat is open, on any server process
    supplies: dict[str, Supply]  # colour → its deck's and discard pile's sizes
    actions: list[str]  # the seat's other actions now: discard, zen's start, draw and end


class SeatView(SeatFields):
    hand: list[HandCard]


class WireSeat(SeatFields):
    hand: list[WireCard]


class MoveFields(Declared):
    """One line of the move list, as people read it (no card numbers)."""

    n: int
    by: str | None
    move: str  # the recorded action, for programs
    t: float | int | None  # the game time of the action
    kind: str  # place, start, discard, draw, end, resign
    cell: str | None
    turned: bool
    colour: str | None


class MoveView(MoveFields):
    card: str | None  # the laid card's drawing as it lies


class WireMove(MoveFields):
    picture: str | None  # the laid card's drawing's key in the view's `pictures`


class HintView(Declared):
    """A zen hint: the move (`action`), and for a placement the hand card, the cell and the turn."""

    action: str
    kind: str
    card: int | None = None
    cell: str | None = None
    turned: bool | None = None


class VerdictView(Declared):
    status: str  # possible, impossible, unknown
    reason: str


class ZenView(Declared):
    form: str
    english: str
    russian: str
    name: str  # as the page names it
    level: str
    cells: int
    placed: int
    form_svg: str
    verdict: VerdictView | None
    hint: HintView | None
    completed: bool


class ResultView(Declared):
    winner: str
    reason: str
    text: str


class TableFields(Declared):
    """What every page watching an Omiga table is sent (no secrets: the seed only once it is over),
    but the table's drawing."""

    type: Literal["state"]
    id: str
    game: Literal["omiga"]
    variant: str | None
    options: dict[str, Any]
    realtime: bool
    version: int
    over: bool
    started: bool
    signal_in: float | None  # seconds to the signal, while counting down
    clock: float | int  # game time now
    to_move: str | None
    mover: int | None
    last: str | None  # the cell of the last card laid
    count: int  # actions so far
    scores: dict[str, Any] | None
    round: int | None  # 2v2's round
    target: int | None
    result: ResultView | None
    problem: str | None
    pages: int  # pages open on the table, on every server process
    rated: bool = False  # its end changes the people's ratings (web/ratings/)
    # Once a rated table is rated: each person's rating before and after, seat by seat.
    ratings: list[RatingChangeView] | None = None
    zen: ZenView | None = None  # zen's only

    def shown(self) -> dict[str, Any]:
        """The view as JSON-ready data, with the fields that do not apply left out."""
        return self.model_dump(mode="json", exclude_unset=True)


class TableView(TableFields):
    """An Omiga table as the JSON API answers it and a page that takes no deltas is sent it: with
    the table's whole drawing."""

    seats: list[SeatView]
    moves: list[MoveView]  # the last MOVES_SHOWN
    table: str


class TableWire(TableFields):
    """An Omiga table as a page that takes deltas holds it (web/core/delta.py): the drawing in its
    parts (`ogames.draw.TableParts`) and the cards' drawings by key, so that a delta carries only
    the cells that changed and a card's drawing once. Made for every view; `whole_view` turns it
    into the `TableView`."""

    seq: int | None = None  # the view's number in its server process (set when it is sent)
    seats: list[WireSeat]
    moves: list[WireMove]  # the last MOVES_SHOWN
    pictures: dict[str, str]  # the drawings of the cards in the hands and the moves, each once, by a key made from it
    table_frame: str  # the drawing without its cells, marks and name (the same all game)
    table_name: str  # the drawing's name: its title
    cells: dict[str, str]  # each cell's drawing, by label, in drawing order
    table_marks: str  # the last move's outline and the highlight, over the cells


WIRE_ONLY = frozenset(TableWire.model_fields) - frozenset(TableView.model_fields)


__all__ = ["WIRE_ONLY", "CardFields", "HandCard", "HintView", "MoveFields", "MoveView", "ResultView", "SeatFields", "SeatView",
           "Supply", "TableFields", "TableView", "TableWire", "VerdictView", "WireCard", "WireMove", "WireSeat", "ZenView"]
