"""Omiga «2 на 2» (RULES.md §5, variant `2v2`): two teams of two, rounds, two scoring ends.

Seats and actors: seat 0 `white1`, seat 1 `black1`, seat 2 `white2`, seat 3 `black2`; each team
shares one deck and one discard pile, each partner has a hand of their own.
Decisions where the booklet is vague (the project's rules):
- A partner may discard their hand at any time; nobody draws until both partners' hands are
  empty, then each draws 3 (the actor who emptied the second hand first).
- The snake's two ends are the table's halves: columns left of the start column are the left
  end, columns right of it the right end. A card in the start column joins an end it touches
  (`side_of`): among the ends of the cards beside it, above and below it (the two start cards
  belong to no end), an open one, the left when both are open; a frozen one when every end it
  touches is frozen (it would lengthen that end, so it may not be laid); and the first open end,
  left before right, when it touches no end's card. A card keeps its end once laid.
- A win as in the base game (a card on the opponents' home edge or behind an opponent card)
  scores one point for the placer's team and freezes that end: no card may go there any more.
  An end also freezes, scoreless, when both teams have a card on that end's side edge.
- A round ends when both ends are frozen, when a team has no cards left but its hands and
  none of them can be laid, or when no card of either team could be laid anywhere (a dead
  table); the open ends then freeze scoreless. These are checked on each round's start position
  too (a round may end before anyone acts). Each round starts afresh with new shuffles (from the
  seed and the round number) and the base game's start; `load` refuses card sets where some first
  card could find no fitting card below it, so a round always starts and no action fails half-way.
- The first team with at least `target` points after a round wins; if both reach it with equal
  points, rounds go on until one team is ahead after a round.
- The match is drawn after three scoreless rounds in a row (`SCORELESS_ROUNDS`): neither team
  scored in any of them. Otherwise a match whose rounds keep ending scoreless would never end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ogames.rules.omiga.base_variant import COLOURS, colour_rng, lay_start
from ogames.rules.omiga.deck import HAND_SIZE, Supply
from ogames.rules.omiga.game import Omiga
from ogames.rules.omiga.realtime import Action, RealtimeState
from ogames.rules.omiga.table import Table
from ogames.rules.protocol import Result
from ogames.wording import say

ACTORS = ("white1", "black1", "white2", "black2")
SIDES = ("left", "right")
SCORELESS_ROUNDS = 3  # scoreless rounds in a row that draw the match


class TeamState(RealtimeState):
    """A 2v2 match: rounds of real-time play until a team reaches the target."""

    mutable_fields = ("points", "round_log", "side_of_cell", "frozen", "round_points")

    def __init__(self, game: Omiga, players: Sequence[str] | None = None):
        super().__init__(game, players, seats=4)
        self.points = {c: 0 for c in COLOURS}
        self.round = 0
        self.scoreless = 0  # scoreless rounds in a row, just ended
        self.round_log: list[dict[str, object]] = []
        self._new_round()

    # ----- rounds --------------------------------------------------------------------------
    def _new_round(self) -> None:
        opts = self.game.options
        self.round += 1
        self.table = Table(opts["width"], opts["height"], self.game.card_set)
        self.supplies = {c: Supply(len(self.game.card_set), colour_rng(opts["seed"], c, self.round)) for c in COLOURS}
        lay_start(self.table, self.supplies, colour_rng(opts["seed"], "start", self.round))
        self.start_col = self.table.position(self.table.centre())[0]
        self.side_of_cell: dict[int, str] = {}
        self.frozen: dict[str, str | None] = {side: None for side in SIDES}  # None, a scoring colour, or "closed"
        self.round_points = {c: 0 for c in COLOURS}
        self.hands = {a: self.supplies[a[:-1]].draw(HAND_SIZE) for a in ACTORS}
        self._settle_round()  # a round may be over on its start position (nothing can be laid)

    def _end_round(self) -> None:
        for colour in COLOURS:
            self.points[colour] += self.round_points[colour]
        self.round_log.append({"round": self.round, **self.round_points})
        self.scoreless = 0 if any(self.round_points.values()) else self.scoreless + 1
        self.round_points = {c: 0 for c in COLOURS}
        w, b = self.points["white"], self.points["black"]
        target = self.game.options["target"]
        if max(w, b) >= target and w != b:
            winner = "white" if w > b else "black"
            self.result = Result(winner, say("teams-won", "{colour} reached {points} points to {other} after {rounds} rounds",
                                             colour=winner, points=max(w, b), other=min(w, b), rounds=self.round))
        elif self.scoreless >= SCORELESS_ROUNDS:
            self.result = Result("draw", say("teams-scoreless",
                                             "{n} scoreless rounds in a row ({w} to {b} after {rounds} rounds)",
                                             n=SCORELESS_ROUNDS, w=w, b=b, rounds=self.round))
        else:
            self._new_round()

    # ----- actors and seats ----------------------------------------------------------------
    @property
    def actors(self) -> tuple[str, ...]:
        """The four seats, in seat order."""
        return ACTORS

    def colour_of(self, actor: str) -> str:
        """white1 and white2 lay white cards, black1 and black2 black ones."""
        return actor[:-1]

    @property
    def seats(self) -> dict[str, str]:
        """Each colour's team, as its two players' names."""
        return {c: f"{self.players[i]} & {self.players[i + 2]}" for i, c in enumerate(COLOURS)}

    @property
    def scores(self) -> dict[str, int]:
        """Points so far (completed rounds plus the current round)."""
        return {c: self.points[c] + self.round_points[c] for c in COLOURS}

    def rewards(self) -> list[float]:
        """Per seat: 1 for both winners, 0 for the losers; ½ each on a drawn match."""
        if self.result is None:
            raise ValueError("the game is not over")
        if self.result.winner == "draw":
            return [0.5] * len(ACTORS)
        return [1.0 if self.colour_of(a) == self.result.winner else 0.0 for a in ACTORS]

    def partner(self, actor: str) -> str:
        """The other seat of the same team."""
        return actor[:-1] + ("2" if actor.endswith("1") else "1")

    # ----- ends and freezing ---------------------------------------------------------------
    def side_of(self, cell: int) -> str:
        """Which snake end a cell belongs to: its half of the table, and in the start column the end
        it touches (see the module doc; every case is in tests/test_omiga_teams.py)."""
        col = cell % self.table.width
        if col != self.start_col:
            return "left" if col < self.start_col else "right"
        if cell in self.side_of_cell:
            return self.side_of_cell[cell]
        touched = {self.side_of_cell[other] for other in self.table.board.neighbours[cell] if other in self.side_of_cell}
        for side in SIDES:  # an open end it touches, the left first
            if side in touched and self.frozen[side] is None:
                return side
        for side in SIDES:  # it touches frozen ends only: it would lengthen one, a closed cell
            if side in touched:
                return side
        return next((side for side in SIDES if self.frozen[side] is None), "left")  # no end's card: the first open end

    def blocked(self) -> np.ndarray | None:
        """The cells of frozen ends."""
        if not any(self.frozen.values()):
            return None
        n = self.table.width * self.table.height
        mask = np.zeros(n, dtype=np.bool_)
        for cell in range(n):
            if self.table.owner[cell] < 0 and self.frozen[self.side_of(cell)]:
                mask[cell] = True
        return mask

    def blocked_reason(self, cell: int) -> str:
        """Why a cell is closed."""
        side = self.side_of(cell)
        cell_label, frozen = self.table.label(cell), self.frozen[side]
        if frozen == "closed":
            if side == "left":
                return say("frozen-left-closed", "{cell} is on the left end, which is closed", cell=cell_label)
            return say("frozen-right-closed", "{cell} is on the right end, which is closed", cell=cell_label)
        if side == "left":
            return say("frozen-left",
                       "{cell} is on the left end, which {colour} scored and froze", cell=cell_label, colour=frozen)
        return say("frozen-right", "{cell} is on the right end, which {colour} scored and froze", cell=cell_label, colour=frozen)

    # ----- actions -------------------------------------------------------------------------
    def _place(self, actor: str, action: Action) -> None:
        colour = self.colour_of(actor)
        face = self.table.card_set.designs[action.design]
        if action.turned:
            face = face.turned()
        side = self.side_of(action.cell)
        self.table.place(action.cell, colour, action.design, face)
        self.side_of_cell[action.cell] = side
        self.hands[actor].remove(action.design)
        self._maybe_draw(actor)
        if self.table.win_reason(action.cell, colour):
            self.round_points[colour] += 1
            self.frozen[side] = colour
        self._settle_round()

    def _discard(self, actor: str) -> None:
        self.supplies[self.colour_of(actor)].discard(self.hands[actor])
        self.hands[actor] = []
        self._maybe_draw(actor)
        self._settle_round()

    def _maybe_draw(self, actor: str) -> None:
        mate = self.partner(actor)
        if not self.hands[actor] and not self.hands[mate]:
            supply = self.supplies[self.colour_of(actor)]
            self.hands[actor] = supply.draw(HAND_SIZE)
            self.hands[mate] = supply.draw(HAND_SIZE)

    def _settle_round(self) -> None:
        for side in SIDES:
            if self.frozen[side] is None and self.table.edge_reached_by_all(side, COLOURS):
                self.frozen[side] = "closed"
        if all(self.frozen.values()):
            self._end_round()
            return
        for colour in COLOURS:
            cards = [d for a in ACTORS if self.colour_of(a) == colour for d in self.hands[a]]
            if self.ended_by_stuck(colour, self.supplies[colour].exhausted, cards) or self.table_dead(COLOURS):
                for side in SIDES:
                    self.frozen[side] = self.frozen[side] or "closed"
                self._end_round()
                return

    def act(self, actor: str | None, action: str, t: float | None = None) -> dict[str, Any]:
        """As in the base game; the entry also names the round it was made in."""
        current = self.round
        entry = super().act(actor, action, t)
        entry["round"] = current
        return entry
