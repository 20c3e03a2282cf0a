"""The real-time engine shared by Omiga's base game, 2v2 and kids: the single authority over the table.

Actions come from any actor at any moment, each with a time `t` on a clock that the caller
drives (simulated in tests and bot matches, the wall clock in live play). They are applied in
arrival order and each is checked against the table as it is then:

    state.act("black", "place 3 h5 turned", t=1.25)   # raises IllegalMove, nothing changed
    state.submit("white", "discard", t=1.30)          # never raises: returns a Verdict
    state.play("black: place 3 h5")                   # the protocol form, actor written first

Action grammar (case-insensitive): `place CARD [at] CELL [turned]` where CARD is the design
number (0–35, each design is in a deck once) or its four-character code (`AB/^`), and
`discard` (the whole hand, then draw 3). `resign` ends the game for the actor's side.

Real time has no single mover: `to_move` is None and `legal_moves()` lists every actor's
actions written with the actor (`"white: place 7 h6"`). Kids (`kids.py`) holds one card at a
time and may discard it only when it fits nowhere; `discard_problem` says when a discard is refused.
`t` must be a finite number not before the last accepted action (None: at the last action's time). History entries are
`{"move": action, "by": actor, "t": time}`; `record()` adds the rejected actions under
`meta.rejected` (for watching replays; replay ignores them). Replaying the accepted actions in
order reproduces the game exactly, decks included, because the decks come from the seed.
"""

from __future__ import annotations

import numbers
import random
import re
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np

from ogames.errors import IllegalMove, UnknownLabel
from ogames.rules.omiga.cards import Face
from ogames.rules.omiga.deck import Supply
from ogames.rules.omiga.game import Omiga
from ogames.rules.omiga.table import BASE_RULES, PlacementRules, Table
from ogames.rules.protocol import Game, Result, State, check_move_text, check_time
from ogames.wording import say

_PLACE = re.compile(r"^place\s+(\S+)\s+(?:at\s+)?([a-z]+\d+)(\s+turned)?$")


@dataclass(frozen=True)
class Action:
    """A parsed action: `place` (design, cell, turned) or `discard`."""

    kind: str
    design: int = -1
    cell: int = -1
    turned: bool = False

    def text(self, table: Table) -> str:
        """The canonical spelling, e.g. `place 3 h5 turned` (a card that looks the same turned is
        written unturned, as `legal_moves` lists it)."""
        if self.kind == "discard":
            return "discard"
        printed = table.card_set.designs[self.design]
        turned = self.turned and printed.turned() != printed
        return f"place {self.design} {table.label(self.cell)}" + (" turned" if turned else "")


@dataclass(frozen=True)
class Verdict:
    """What the authority said about a submitted action."""

    accepted: bool
    actor: str
    action: str
    t: float
    reason: str = ""


def parse_action(text: str, table: Table) -> Action:
    """An Action from its text; IllegalMove naming the text if it is not one."""
    key = " ".join(text.strip().lower().split())
    if key == "discard":
        return Action("discard")
    match = _PLACE.match(key)
    if not match:
        raise IllegalMove(text, say("action-form",
                                    "an action is 'place CARD CELL [turned]' (CARD: design number or code like AB/^) "
                                    "or 'discard'"))
    card, label, turned = match.groups()
    if card.isdigit():
        design = int(card)
        if not 0 <= design < len(table.card_set):
            raise IllegalMove(text, say("no-such-card", "there is no card {card}: cards are numbered 0 to {last}", card=design,
                                        last=len(table.card_set) - 1))
    else:
        try:
            face = Face.from_code(card)
        except ValueError as exc:
            raise IllegalMove(text, str(exc)) from None
        if face in table.card_set.designs:
            design = table.card_set.designs.index(face)
        elif face.turned() in table.card_set.designs:
            design, turned = table.card_set.designs.index(face.turned()), not turned
        else:
            raise IllegalMove(text, say("not-in-set", "{card} is not a card of this set", card=card))
    try:
        cell = table.cell(label)
    except UnknownLabel:
        raise IllegalMove(text, say("off-table", "{cell} is off the {width} × {height} table", cell=label, width=table.width,
                                    height=table.height)) from None
    return Action("place", design, cell, bool(turned))


class RealtimeState(State):
    """Shared plumbing of the real-time modes; subclasses supply actors, hands and the rules."""

    game: Omiga
    rules: PlacementRules = BASE_RULES
    mutable_fields: ClassVar[tuple[str, ...]] = ("rejected", "table")
    nested_fields: ClassVar[tuple[str, ...]] = ("hands", "supplies")

    def __init__(self, game: Game, players: Sequence[str] | None = None, seats: int | None = None):
        super().__init__(game, players, seats)
        self.clock = 0.0  # time of the last accepted action (the signal is t = 0)
        self.rejected: list[dict[str, Any]] = []
        self.table: Table  # set by subclasses
        self.supplies: dict[str, Supply]  # set by subclasses
        self.hands: dict[str, list[int]] = {}

    # ----- what subclasses provide ---------------------------------------------------------
    @property
    @abstractmethod
    def actors(self) -> tuple[str, ...]:
        """Who may act, e.g. ("white", "black") or the four 2v2 seats."""

    @abstractmethod
    def colour_of(self, actor: str) -> str:
        """The card colour an actor lays."""

    @abstractmethod
    def _place(self, actor: str, action: Action) -> None:
        """Lay a checked card and settle what follows (draws, wins, draws of the game)."""

    @abstractmethod
    def _discard(self, actor: str) -> None:
        """Discard a checked hand and draw."""

    def blocked(self) -> np.ndarray | None:
        """Cells where nothing may be laid now (2v2 frozen ends); None if none are."""
        return None

    def wins_at(self, cell: int, colour: str) -> str | None:
        """Why a card of the colour on the cell wins (or scores), or None: the far edge or behind an
        opponent card (kids: the far edge only)."""
        return self.table.win_reason(cell, colour)

    def discard_problem(self, actor: str) -> str | None:
        """Why the actor may not discard now, or None (base and 2v2: any time the hand holds cards)."""
        if not self.hands[actor]:
            return say("nothing-to-discard", "{actor} has no cards in hand to discard", actor=actor)
        return None

    def blocked_reason(self, cell: int) -> str:
        """Why a blocked cell is closed."""
        return say("cell-closed", "{cell} is closed", cell=self.table.label(cell))

    # ----- the protocol --------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        """None: in real time nobody waits for a turn."""
        return None

    def stone_at(self, label: str) -> str | None:
        """The colour of the card on a cell, or None."""
        return self.table.owner_at(self.table.cell(label))

    def hand(self, actor: str) -> list[int]:
        """An actor's hand (design numbers; hands lie face up, so everyone may look)."""
        return list(self.hands[self._actor(actor)])

    def placements(self, actor: str) -> list[tuple[int, int, Face]]:
        """Every legal (design, cell, face) for an actor now."""
        colour = self.colour_of(actor)
        blocked = self.blocked()
        return [
            (design, cell, face)
            for design in self.hands[actor]
            for cell, face in self.table.legal_placements(colour, design, self.rules, blocked)
        ]

    def action_text(self, design: int, cell: int, face: Face) -> str:
        """The canonical action laying a design with a face on a cell."""
        turned = face != self.table.card_set.designs[design]
        return Action("place", design, cell, turned).text(self.table)

    def legal_moves(self) -> list[str]:
        """Every actor's legal actions, written `actor: action` (empty once the game is over)."""
        if self.result is not None:
            return []
        moves = []
        for actor in self.actors:
            moves += [f"{actor}: {self.action_text(d, c, f)}" for d, c, f in self.placements(actor)]
            if self.discard_problem(actor) is None:
                moves.append(f"{actor}: discard")
        return moves

    def _actor(self, actor: str) -> str:
        if not isinstance(actor, str) or actor.strip().lower() not in self.actors:
            raise IllegalMove(actor, say("not-playing", "{actor} is not playing (players: {actors})", actor=repr(actor),
                                         actors=list(self.actors)))
        return actor.strip().lower()

    def _split(self, actor: str | None, text: str) -> tuple[str, str]:
        """The actor and action of `[actor:] action`, checking that nobody acts for someone else."""
        check_move_text(text)
        named, sep, rest = text.partition(":")
        if sep:
            named_actor = self._actor(named)
            if actor is not None and self._actor(actor) != named_actor:
                raise IllegalMove(text, say("acts-for-other", "{actor} cannot act for {other}", actor=actor, other=named_actor))
            return named_actor, rest.strip()
        if actor is None:
            raise IllegalMove(text, say("say-who-acts", "in real time say who acts, e.g. 'black: place 3 h5'"))
        return self._actor(actor), text.strip()

    def act(self, actor: str | None, action: str, t: float | None = None) -> dict[str, Any]:
        """Apply one action now; IllegalMove (nothing changed) if the rules reject it."""
        return self.keeping_undo(self._act, actor, action, t)

    def _act(self, actor: str | None, action: str, t: float | None) -> dict[str, Any]:
        who, body = self._split(actor, action)
        if self.result is not None:
            raise IllegalMove(action, say("game-over", "the game is over: {result}", result=self.result.describe()))
        when = self._time(action, t)
        if body.strip().lower() == "resign":
            self.resign(self.colour_of(who), t=when)
            self.history[-1]["by"] = who
            self.clock = when
            return self.history[-1]
        parsed = parse_action(body, self.table)
        if parsed.kind == "discard":
            problem = self.discard_problem(who)
            if problem:
                raise IllegalMove(action, problem)
            self._discard(who)
        else:
            self._check_place(who, parsed, action)
            self._place(who, parsed)
        entry = {"move": parsed.text(self.table), "by": who, "t": round(when, 3)}
        self.history.append(entry)
        self.clock = when
        return entry

    def _time(self, action: str, t: Any) -> float:
        """The checked time of an action: a time (see `check_time`), not before the last accepted action."""
        if t is None:
            return self.clock
        when = check_time(t, action)
        if when < self.clock:
            raise IllegalMove(action, say("time-order", "time {t} is before the last action at {last}: actions arrive in order",
                                          t=f"{when:g}", last=f"{self.clock:g}"))
        return when

    def _check_place(self, who: str, parsed: Action, text: str) -> None:
        hand = self.hands[who]
        if parsed.design not in hand:
            raise IllegalMove(text, say("not-in-hand", "card {card} is not in {actor}'s hand (hand: {hand})", card=parsed.design,
                                        actor=who, hand=list(hand) or say("empty-hand", "empty")))
        face = self.table.card_set.designs[parsed.design]
        if parsed.turned:
            if not self.table.card_set.turning:
                raise IllegalMove(text, say("no-turning", "cards may not be turned in this game (turning is off)"))
            face = face.turned()
        blocked = self.blocked()
        if blocked is not None and blocked[parsed.cell]:
            raise IllegalMove(text, self.blocked_reason(parsed.cell))
        why = self.table.why_not(parsed.cell, self.colour_of(who), face, self.rules)
        if why:
            raise IllegalMove(text, why)

    def submit(self, actor: str, action: str, t: float) -> Verdict:
        """Apply an action if the rules allow it; otherwise log the rejection. Never raises for rule
        reasons (a `t` that is not a time is the caller's mistake: IllegalMove, nothing logged)."""
        check_time(t, action)
        try:
            entry = self.act(actor, action, t)
        except IllegalMove as exc:
            when = float(t) if _finite(t) else self.clock
            self.rejected.append({"move": action, "by": actor, "t": round(when, 3), "reason": str(exc.reason)})
            return Verdict(False, actor, action, when, exc.reason)
        return Verdict(True, actor, entry["move"], self.clock)

    def apply(self, move: str) -> dict[str, Any]:
        """Not used in real time: `play` and `act` go through the actor (kept for the protocol)."""
        raise IllegalMove(move, say("say-who-acts", "in real time say who acts, e.g. 'black: place 3 h5'"))

    def play(self, move: str, *, t: float | None = None) -> Self:
        """The protocol's play: `actor: action` (see the module doc)."""
        self.act(None, move, t)
        return self

    def resign(self, colour: str | None = None, *, t: float | None = None) -> Self:
        """A colour gives up (see State.resign); `undo` takes it back at once."""
        return self.keeping_undo(super().resign, colour, t=t)

    def resign_result(self, colour: str) -> Result:
        """The other colour wins."""
        return Result("black" if colour == "white" else "white", say("resigned", "{colour} resigned", colour=colour))

    def replay_entry(self, entry: dict[str, Any]) -> None:
        """Apply a recorded action again, checking it is what the record says."""
        made = self.act(entry["by"], entry["move"], entry.get("t"))
        for key, value in entry.items():
            if key != "t" and made.get(key) != value:
                raise IllegalMove(entry["move"], say("record-differs", "the record says {key}={value}, the rules give {rules}",
                                                     key=key, value=repr(value), rules=repr(made.get(key))))

    def record(self) -> dict[str, Any]:
        """The protocol record, plus the rejected actions under meta (replays may show them)."""
        out = super().record()
        out["meta"] = out.pop("meta")  # after the moves, where records have always had it
        return out

    def record_head(self) -> dict[str, Any]:
        """The record without its moves, the rejected actions included (a server stores them with
        the next accepted action's entry)."""
        return {**super().record_head(), "meta": {"rejected": [dict(r) for r in self.rejected]}}

    def undo_by_replay(self) -> State:
        """Take back the last accepted action (rebuilt from the seed by replaying the earlier ones)."""
        if not self.history:
            raise IllegalMove("undo", say("nothing-to-undo", "there is no move to take back"))
        fresh = self.game.new_state(self.players)
        for entry in self.history[:-1]:
            fresh.replay_entry(entry)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        return self

    def random_playout(self, rng: random.Random, step: float = 1.0, max_actions: int = 100_000) -> list[float]:
        """Rewards per seat after uniformly random actions through the authority, from a copy of this
        state: each action comes from a random actor with a legal one, `step` seconds after the last."""
        state = self.clone()
        assert isinstance(state, RealtimeState)
        for _ in range(max_actions):
            if state.result is not None:
                return state.rewards()
            moves = state.legal_moves()
            if not moves:
                raise RuntimeError(f"no actor has a legal action, yet the game goes on: {state!r}")
            state.play(rng.choice(moves), t=state.clock + step)
        raise RuntimeError(f"the random playout did not end within {max_actions} actions")

    def ended_by_stuck(self, colour: str, supply_exhausted: bool, cards: list[int]) -> bool:
        """Whether a side has no cards left but its hand(s) and none of them can be laid."""
        if not supply_exhausted:
            return False
        return not any(self.table.legal_placements(colour, d, self.rules, self.blocked()) for d in cards)

    def table_dead(self, colours: Sequence[str]) -> bool:
        """No design of any of the colours could be laid anywhere now (nobody can ever move again)."""
        blocked = self.blocked()
        designs = range(len(self.table.card_set))
        return not any(self.table.legal_placements(c, d, self.rules, blocked) for c in colours for d in designs)


def _finite(t: Any) -> bool:
    """Whether t is a usable time (a finite real number)."""
    if isinstance(t, bool) or not isinstance(t, numbers.Real):
        return False
    try:
        return bool(np.isfinite(float(t)))
    except OverflowError:
        return False


class DuelState(RealtimeState):
    """White against Black, each acting for their own colour with a hand of `hand_size` cards
    (base: 3, kids: 1): lay a card, or discard the hand, and draw again when the hand is empty."""

    colours_in_play = ("white", "black")
    hand_size = 3
    supplies: dict[str, Supply]  # one deck and discard pile per colour, set by subclasses

    @property
    def actors(self) -> tuple[str, ...]:
        """The two colours act for themselves."""
        return self.colours_in_play

    def colour_of(self, actor: str) -> str:
        """The actor is the colour."""
        return actor

    def _place(self, actor: str, action: Action) -> None:
        face = self.table.card_set.designs[action.design]
        if action.turned:
            face = face.turned()
        self.table.place(action.cell, actor, action.design, face)
        self.hands[actor].remove(action.design)
        if not self.hands[actor]:
            self.hands[actor] = self.supplies[actor].draw(self.hand_size)
        why = self.wins_at(action.cell, actor)
        if why:
            self.result = Result(actor, why)
            return
        self._check_draws()

    def _discard(self, actor: str) -> None:
        self.supplies[actor].discard(self.hands[actor])
        self.hands[actor] = self.supplies[actor].draw(self.hand_size)
        self._check_draws()

    @abstractmethod
    def _check_draws(self) -> None:
        """Declare a draw if one holds now."""

