"""What the page of an Omiga table shows, built from the state (no secrets: hands lie face up in
Omiga, and the decks' order is never sent).

**Hidden while the game is on.** The rules hide one thing, the order of the cards in each deck,
and the `seed` option fixes it (with `ogames.load("omiga", seed=…)` anyone could deal the decks
again and know which cards will come). So the view's options and the table's record leave the
seed out until the game is over (`shown_options`, `shown_record`); then the whole record is
public, for replays. Hands and discard piles lie face up, and are shown.

Seats: in real time a seat is one of the state's actors (`white`, `black`; 2v2 `white1`, `black1`,
`white2`, `black2`); in toddler and kids with `pace=turns` the seat's colour; zen has one seat
laying cards of both colours. Each seat's hand comes with the drawings of its cards and, for the
page's hints, where each card may go now (the server still judges every action on arrival).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from typing_extensions import TypeIs

from ogames.draw import card_svg, form_svg, table_drawing
from ogames.draw.cards import card_words, fill_frame
from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.omiga.teams import TeamState
from ogames.rules.omiga.turn_based import TurnCardState
from ogames.rules.omiga.zen.state import ZenState
from ogames.rules.protocol import State
from ogames.web.core.computer import level_shown
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.messages import speaker, word
from ogames.web.omiga.views import (
    WIRE_ONLY,
    HandCard,
    HintView,
    MoveView,
    ResultView,
    SeatView,
    Supply,
    TableWire,
    VerdictView,
    WireCard,
    WireMove,
    WireSeat,
    ZenView,
)
from ogames.web.ratings.views import RatingChangeView

if TYPE_CHECKING:
    from ogames.web.omiga.table import LiveTable

MOVES_SHOWN = 12
HIDDEN_OPTIONS = ("seed",)  # what the rules keep secret while the game is on: the decks' order


def is_realtime(state: State) -> bool:
    """Whether the state runs on the real-time authority (base, 2v2, kids in real time)."""
    return isinstance(state, RealtimeState)


def is_zen(state: State) -> TypeIs[ZenState]:
    """Whether the state is a zen game (one player building a form)."""
    return isinstance(state, ZenState)


def card_state(state: State) -> RealtimeState | TurnCardState | ZenState:
    """An Omiga state as its mode's type: real time, in turns (toddler, kids in turns) or zen."""
    if isinstance(state, RealtimeState | TurnCardState | ZenState):
        return state
    raise TypeError(f"{state.game.title} is not Omiga")


def dealt(state: State) -> RealtimeState | TurnCardState:
    """An Omiga state whose seats hold hands of their own (every mode but zen)."""
    if isinstance(state, RealtimeState | TurnCardState):
        return state
    raise TypeError(f"{state.game.title} {state.game.options.get('variant')} deals no hands by seat")


def actor_of(state: State, seat: int) -> str:
    """The name a seat acts under: the real-time actor, or the seat's colour."""
    if isinstance(state, RealtimeState):
        return state.actors[seat]
    if is_zen(state):
        return state.solo
    return str(state.game.colours[seat])


def colour_of(state: State, seat: int) -> str | None:
    """The card colour a seat lays (None in zen, where the one player lays both)."""
    if isinstance(state, RealtimeState):
        return state.colour_of(state.actors[seat])
    if is_zen(state):
        return None
    return str(state.game.colours[seat])


def shown_options(options: dict[str, Any], over: bool) -> dict[str, Any]:
    """A table's options as anyone may see them: without the seed until the game is over."""
    return dict(options) if over else {name: value for name, value in options.items() if name not in HIDDEN_OPTIONS}


def shown_record(record: dict[str, Any]) -> dict[str, Any]:
    """A table's record as anyone may download it: whole once the game is over; before, every action
    with its time but the seed null — such a record cannot be replayed (`ogames.replay` says why)."""
    if record.get("result") is not None:
        return record
    options = {name: None if name in HIDDEN_OPTIONS else value for name, value in record["options"].items()}
    return {**record, "options": options}


def seat_count(state: State) -> int:
    """How many seats the game has."""
    return len(state.players)


def _hand(state: State, seat: int) -> list[tuple[str, int]]:
    """(owner colour, design) of each card a seat holds."""
    if is_zen(state):
        return list(state.hand)
    colour = colour_of(state, seat)
    assert colour is not None
    hands = dealt(state).hands
    return [(colour, design) for design in hands[actor_of(state, seat)]]


def _supplies(state: State, seat: int) -> dict[str, Supply]:
    """Deck and discard pile sizes of the colours a seat draws from."""
    supplies = card_state(state).supplies
    colours = [str(c) for c in supplies] if is_zen(state) else [str(colour_of(state, seat))]
    return {c: Supply(deck=len(supplies[c].cards), discards=len(supplies[c].discards)) for c in colours if c in supplies}


def _prefix(state: State, index: int, design: int) -> str:
    """The start of the action laying a hand card; the page adds the cell and `turned`."""
    if isinstance(state, RealtimeState):
        return f"place {design}"
    if is_zen(state):
        return f"place {index + 1}"
    return "place"


def _spots(state: State, seat: int, started: bool) -> tuple[dict[int, list[tuple[str, bool]]], list[str]]:
    """Where each hand card (by index) may go now, as (cell, turned), and the seat's other actions
    (discard, zen's start, draw and end) — empty for a seat that cannot act now."""
    spots: dict[int, list[tuple[str, bool]]] = {}
    if state.is_over or not started:
        return spots, []
    if isinstance(state, RealtimeState):
        actor = state.actors[seat]
        hand = state.hands[actor]
        designs = state.table.card_set.designs
        for design, cell, face in state.placements(actor):
            spots.setdefault(hand.index(design), []).append((state.table.label(cell), face != designs[design]))
        return spots, (["discard"] if state.discard_problem(actor) is None else [])
    if state.mover != seat:
        return spots, []
    others: list[str] = []
    for move in state.legal_moves():
        words = move.split()
        if words[0] != "place":
            others.append(move)
            continue
        index = int(words[1]) - 1 if is_zen(state) else 0
        label = words[2] if is_zen(state) else words[1]
        spots.setdefault(index, []).append((label, words[-1] == "turned"))
    return spots, others


def seat_view(state: State, seat: int, *, kind: str, ready: bool, started: bool, language: str = ENGLISH) -> SeatView:
    """One seat: who plays it, its hand with drawings (titled in `language`) and spots, its supplies and actions."""
    spots, actions = _spots(state, seat, started)
    designs = card_state(state).table.card_set.designs
    speak = speaker(language)
    hand = []
    for index, (owner, design) in enumerate(_hand(state, seat)):
        face = designs[design]
        hand.append(HandCard(
            design=design,
            code=face.code,
            owner=owner,
            title=speak(card_words(owner, face)),  # the card in words (its button's label)
            svg=card_svg(face, owner, speak=speak),
            act=_prefix(state, index, design),
            spots=spots.get(index, []),
        ))
    return SeatView(
        seat=seat,
        name=state.players[seat],
        actor=actor_of(state, seat),
        colour=colour_of(state, seat),
        kind=kind,
        computer=kind != "human",
        level=None if kind == "human" else level_shown(kind),  # None: a bot chosen by strategy and speed
        ready=ready,
        hand=hand,
        supplies=_supplies(state, seat),
        actions=actions,
    )


def hint_view(state: State, hint: str | None) -> HintView | None:
    """A zen hint as the page shows it: which hand card to lay on which cell and whether turned
    (the page lights them), or which button to press; `action` is the move itself, for programs."""
    if not hint:
        return None
    words = hint.split()
    if words[0] == "place":
        return HintView(action=hint, kind=words[0], card=int(words[1]) - 1, cell=words[2], turned=words[-1] == "turned")
    return HintView(action=hint, kind=words[0])


def _card_drawing(state: State, colour: str | None, design: Any, turned: bool, language: str) -> str | None:
    """A card as laid (turned or not), drawn as the hands are; None when the entry does not say which."""
    designs = card_state(state).table.card_set.designs
    if colour is None or not isinstance(design, int) or not 0 <= design < len(designs):
        return None
    face = designs[design].turned() if turned else designs[design]
    return card_svg(face, colour, speak=speaker(language))


def move_view(state: State, n: int, entry: dict[str, Any], language: str = ENGLISH) -> MoveView:
    """One line of the move list as people read it: what was done (`kind`: place, start, discard,
    draw, end, resign), the cell, turned or not, and the card drawn as it lies — no card numbers.
    `move` keeps the recorded action for programs."""
    text = str(entry.get("move", ""))
    words, by = text.split(), entry.get("by")
    kind = words[0] if words else ""
    turned = bool(words) and words[-1] == "turned"
    design, colour, cell, drawn = entry.get("card"), None, None, None
    if kind == "place":
        if isinstance(state, RealtimeState):  # place DESIGN CELL [turned]
            design, cell, colour = int(words[1]), words[2], state.colour_of(str(by))
        elif is_zen(state):  # place HAND-POSITION CELL [turned]: the card's colour is the cell's
            cell = words[2]
            colour = state.table.owner_at(state.table.cell(cell))
        else:  # place CELL [turned], by a colour
            cell, colour = words[1], by
    elif kind == "start" and is_zen(state):  # zen: start COLOUR [turned]
        colour = words[1]
        cell = state.table.label(state.start_cell)
    elif kind == "discard" and not isinstance(state, RealtimeState):  # kids in turns: the one card
        colour = by
    elif kind == "draw":
        drawn = words[1]
    card = _card_drawing(state, colour, design, turned, language) if kind != "draw" else None
    return MoveView(n=n, by=None if by is None else str(by), move=text, t=entry.get("t"), kind=kind, cell=cell, turned=turned,
                    card=card, colour=colour if colour is not None else drawn)


def zen_view(state: State, verdict: tuple[str, str] | None, hint: str | None, language: str = ENGLISH) -> ZenView:
    """The form beside the table (`name`: as the page names it), the solver's verdict and a hint,
    in `language`."""
    if not is_zen(state):
        raise TypeError(f"{state.game.title} {state.game.options.get('variant')} builds no form")
    form = state.form
    placed = len(state.layout)
    return ZenView(
        form=form.key,
        english=form.english,
        russian=form.russian,
        name=f"{form.english} · {form.russian}" if language == ENGLISH else form.russian,  # as the page names it
        level=form.level,
        cells=len(form.cells),
        placed=placed,
        form_svg=form_svg(form, speak=speaker(language)),
        verdict=None if verdict is None else VerdictView(status=verdict[0], reason=word(verdict[1], language)),
        hint=hint_view(state, hint),
        completed=state.result is not None and state.result.winner != "nobody",
    )


def last_cell(state: State) -> str | None:
    """The cell of the last card laid (None after a discard, a draw or a resignation)."""
    if not state.history:
        return None
    for token in str(state.history[-1].get("move", "")).split():
        if token[0].isalpha() and token[-1].isdigit() and card_state(state).table.board.has(token):
            return token
    return None


def table_view(live: LiveTable, clock: float, signal_in: float | None, language: str = ENGLISH) -> TableWire:
    """Everything every watcher of an Omiga table sees (its words and drawings in `language`), the
    table's drawing in its parts (`whole_view` joins them)."""
    state = live.state
    started = live.started
    seats = [
        seat_view(state, seat, kind=live.seat_kinds[seat], ready=seat in live.ready, started=started, language=language)
        for seat in range(seat_count(state))
    ]
    first = max(1, len(state.history) - MOVES_SHOWN + 1)
    moves = [move_view(state, n, state.history[n - 1], language) for n in range(first, len(state.history) + 1)]
    pictures = Pictures()
    result = state.result
    options = state.game.jsonable_options()
    turns = not state.is_over and not is_realtime(state)
    zen: dict[str, Any] = {"zen": zen_view(state, live.zen_verdict, live.zen_hint(), language)} if is_zen(state) else {}
    drawing = table_drawing(state, speak=speaker(language))
    return TableWire(
        type="state",
        id=live.id,
        game="omiga",
        variant=options.get("variant"),
        options={k: v for k, v in shown_options(options, state.is_over).items() if v is not None},
        realtime=is_realtime(state),
        version=live.version,
        over=state.is_over,
        started=started,
        signal_in=signal_in,
        clock=round(clock, 3),
        to_move=state.to_move if turns else None,
        mover=state.mover if turns else None,
        seats=[pictures.seat(seat) for seat in seats],
        last=last_cell(state),
        moves=[pictures.move(move) for move in moves],
        pictures=pictures,
        count=state.ply,
        scores=_plain(state.scores),
        round=state.round if isinstance(state, TeamState) else None,
        target=options.get("target"),
        result=None if result is None else ResultView(winner=result.winner, reason=word(result.reason, language),
                                                      text=word(result.describe(), language)),
        problem=None if live.problem is None else word(live.problem, language),
        pages=max(0, live.pages),  # pages open on the table, on every server process
        rated=live.rated,
        ratings=None if live.rating_changes is None else [RatingChangeView(**change) for change in live.rating_changes],
        table_frame=drawing.frame,
        table_name=drawing.name,
        cells=drawing.cells,
        table_marks=drawing.marks,
        **zen,
    )


def whole_view(wire: dict[str, Any]) -> dict[str, Any]:
    """A table's view with its whole drawing (`table`), as the JSON API answers and a page that
    takes no deltas is sent it, from the view in parts (`TableWire.shown()`, stamped or not)."""
    whole = {key: value for key, value in wire.items() if key not in WIRE_ONLY}
    pictures = wire["pictures"]
    whole["seats"] = [{**seat, "hand": [{**{key: value for key, value in card.items() if key != "picture"},
                                          "svg": pictures[card["picture"]]} for card in seat["hand"]]}
                      for seat in wire["seats"]]
    whole["moves"] = [{**{key: value for key, value in move.items() if key != "picture"},
                       "card": None if move["picture"] is None else pictures[move["picture"]]} for move in wire["moves"]]
    whole["table"] = fill_frame(wire["table_frame"], wire["table_name"], wire["cells"].values(), wire["table_marks"])
    return whole


class Pictures(dict[str, str]):
    """The card drawings of a view in parts, each once, by a key made from the drawing (a card in a
    hand and the same card laid unturned are one drawing): a page is sent each drawing once."""

    def keep(self, svg: str) -> str:
        """The key of a drawing, kept."""
        key = hashlib.blake2s(svg.encode(), digest_size=6).hexdigest()
        self[key] = svg
        return key

    def seat(self, seat: SeatView) -> WireSeat:
        """A seat with its hand's drawings kept here."""
        hand = [WireCard(**card.model_dump(exclude={"svg"}), picture=self.keep(card.svg)) for card in seat.hand]
        return WireSeat(**seat.model_dump(exclude={"hand"}), hand=hand)

    def move(self, move: MoveView) -> WireMove:
        """A move with its card's drawing kept here."""
        return WireMove(**move.model_dump(exclude={"card"}), picture=None if move.card is None else self.keep(move.card))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


__all__ = ["actor_of", "colour_of", "is_realtime", "is_zen", "seat_count", "shown_options", "shown_record", "table_view",
           "whole_view"]
