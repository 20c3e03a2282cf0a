"""A scripted person for real-time Omiga: the yardstick the computer levels are measured against.

Levels 1–10 are for people, so each is measured against what a person does at a table, not only
against the other levels (`benchmarks/bench_omiga_levels.py`, docs/levels.md). The script plays
as a casual player reads the rule book:
- each action takes a reaction time drawn afresh between `fastest` and `slowest` seconds (looking
  at the table, picking a card, dragging it): the action is chosen on the table as it was looked
  at and lands that much later, by when the table may have changed and the card be refused, as on
  the site;
- a card that wins now (the far edge, or behind an opponent card) is laid;
- else, now and then (`blocks`), a cell where the opponent's face-up hand wins now is filled;
- else a fitting card is laid, mostly (`climbs`) one that gets furthest towards the far edge, else
  any fitting one;
- with no fitting card the hand is discarded and three are drawn (kids: the card, when the rules
  allow it).
It looks no further ahead than that: no race arithmetic, no reading of the opponent's deck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ogames.rules.omiga.realtime import RealtimeState


@dataclass(frozen=True)
class Person:
    """A scripted human-like player (see the module doc); deterministic for the match's random stream."""

    fastest: float = 0.4
    slowest: float = 1.5
    blocks: float = 0.5  # chance of seeing (and filling) a cell the opponent wins on now
    climbs: float = 0.7  # chance of laying the card that gets furthest, rather than any fitting one

    def __post_init__(self) -> None:
        if not 0 < self.fastest <= self.slowest:
            raise ValueError(f"reaction times must satisfy 0 < fastest <= slowest, not {self.fastest}, {self.slowest}")
        for name in ("blocks", "climbs"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} is a chance from 0 to 1, not {getattr(self, name)!r}")

    @property
    def name(self) -> str:
        """How the script is named in reports, e.g. `person:0.4-1.5s`."""
        return f"person:{self.fastest:g}-{self.slowest:g}s"

    def reset(self) -> None:
        """Nothing is kept between decisions."""

    def delay(self, rng: random.Random) -> float:
        """This action's reaction time."""
        return rng.uniform(self.fastest, self.slowest)

    def decide(self, state: RealtimeState, actor: str, rng: random.Random) -> str | None:
        """The action to send now (without the actor), or None to wait."""
        if state.is_over or not state.hands[actor]:
            return None
        colour = state.colour_of(actor)
        options = state.placements(actor)
        if not options:
            return "discard" if state.discard_problem(actor) is None else None
        wins = [option for option in options if state.wins_at(option[1], colour)]
        if wins:
            return state.action_text(*rng.choice(wins))
        if rng.random() < self.blocks:
            threats = _threatened_cells(state, actor)
            blocking = [option for option in options if option[1] in threats]
            if blocking:
                return state.action_text(*rng.choice(blocking))
        if rng.random() < self.climbs:
            table = state.table
            far = table.far_row(colour)
            nearest = min(abs(far - table.position(cell)[1]) for _, cell, _ in options)
            options = [option for option in options if abs(far - table.position(option[1])[1]) == nearest]
        return state.action_text(*rng.choice(options))


def _threatened_cells(state: RealtimeState, actor: str) -> set[int]:
    """The cells where an opponent could win now with a card of its face-up hand."""
    colour = state.colour_of(actor)
    cells: set[int] = set()
    for other in state.actors:
        theirs = state.colour_of(other)
        if theirs == colour:
            continue
        cells.update(cell for _, cell, _ in state.placements(other) if state.wins_at(cell, theirs))
    return cells


__all__ = ["Person"]
