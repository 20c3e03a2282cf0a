"""Real-time Omiga bots: a reaction time on the simulated clock and a strategy.

A bot looks at the table, decides, and its action arrives `reaction` seconds later (± jitter), by
when the table may have changed: the authority then re-checks it, so slow bots lose races.
Strategies:
- `racer`: win now if it can; otherwise a two-ply look-ahead over the foe placements that may land
  before its own (see `racer.py`): keep foe wins off the table, make its own, race on.
- `rollout`: Monte-Carlo look-ahead: the racer's best few placements and the discard, each played
  out many times at both sides' speeds from the public information (see `rollout.py`).
- `greedy`: the earlier one-ply racer (block threats shown by the foe's face-up hand, advance
  without opening a win), kept to measure the racer against.
- `random`: any legal placement, discarding only when none exists.
In kids («Дети») the racer plays by a race count (`racer.kids_choice`), and `rollout` and `greedy`
play as the racer: their kernels and threat tests know the base game's rules only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ogames.players.omiga import racer, rollout
from ogames.players.omiga.racer import Placements
from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.omiga.table import PlacementRules

# Seconds per decision on the simulated clock, from a small child to a machine.
REACTION = {
    "toddler": 5.0,
    "child": 3.0,
    "casual": 2.0,
    "club": 1.2,
    "expert": 0.7,
    "champion": 0.4,
    "machine": 0.05,
}
STRATEGIES = ("racer", "rollout", "greedy", "random")
_LOOSE = PlacementRules(fit="none")

# Scores of the racer's considerations ("looming": with some card of the deck, not the hand shown).
BLOCK, BLOCK_LOOMING, OPENS_WIN, OPENS_LOOMING, SETS_UP, SETS_UP_LOOMING = 10_000.0, 2_000.0, -5_000.0, -1_500.0, 1_000.0, 300.0
COVER = 200.0


def reaction_seconds(reaction: str | float) -> float:
    """Seconds per decision for a named speed (see REACTION) or a number of seconds."""
    if isinstance(reaction, str):
        key = reaction.strip().lower()
        if key in REACTION:
            return REACTION[key]
        try:
            reaction = float(key)
        except ValueError:
            raise ValueError(f"unknown reaction {reaction!r}: use seconds or one of {', '.join(REACTION)}") from None
    if not reaction > 0:
        raise ValueError(f"a reaction time must be positive, not {reaction!r}")
    return float(reaction)


@dataclass(frozen=True)
class Bot:
    """A strategy with a reaction time (seconds per decision) and a little human jitter."""

    strategy: str = "racer"
    reaction: float = 1.0
    jitter: float = 0.2

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {self.strategy!r}: use {', '.join(STRATEGIES)}")

    @classmethod
    def make(cls, spec: str = "rollout") -> Bot:
        """A bot from a player spec, e.g. `racer:reaction=expert`, `random:reaction=0.5`; a bare kind
        reacts at club speed. (rollout is the strongest: ~71% of decisive games against racer at equal
        speed, benchmarks/bench_omiga_bots.py.)"""
        from ogames.errors import BadOption
        from ogames.players import parse_spec, player

        kind, settings = parse_spec(spec)
        if kind not in STRATEGIES:
            raise BadOption(f"a real-time Omiga bot is one of {', '.join(STRATEGIES)}, not {kind!r}")
        made = player(kind, **{"reaction": "club", **settings})
        assert isinstance(made, Bot)
        return made

    def reset(self) -> None:
        """Nothing is kept between decisions."""

    def info(self) -> dict[str, float | str]:
        """The strategy and the reaction time."""
        return {"strategy": self.strategy, "reaction": self.reaction}

    @property
    def name(self) -> str:
        """The bot's spec, such as `racer:reaction=0.7` (seconds)."""
        return f"{self.strategy}:reaction={self.reaction:g}"

    def delay(self, rng: random.Random) -> float:
        """The time this decision takes."""
        return self.reaction * (1.0 + self.jitter * (2.0 * rng.random() - 1.0))

    def decide(self, state: RealtimeState, actor: str, rng: random.Random) -> str | None:
        """The action to send now (without the actor), or None to wait."""
        if state.is_over or not state.hands[actor]:
            return None
        options = state.placements(actor)
        if self.strategy == "random":
            if not options:
                return "discard"
            return state.action_text(*rng.choice(options))
        if racer.is_kids(state):
            return racer.kids_choice(state, actor, options, rng)
        if self.strategy == "greedy":
            return greedy_choice(state, actor, options, rng)
        if self.strategy == "rollout":
            return rollout.rollout_choice(state, actor, options, rng, reaction=self.reaction, jitter=self.jitter)
        return racer.racer_choice(state, actor, options, rng)


def _opponents(state: RealtimeState, actor: str) -> list[str]:
    colour = state.colour_of(actor)
    return [a for a in state.actors if state.colour_of(a) != colour]


def winning_cells(state: RealtimeState, actors: list[str]) -> set[int]:
    """The cells where one of the actors could win (or score) now with a card in hand."""
    cells = set()
    for other in actors:
        colour = state.colour_of(other)
        for _, cell, _ in state.placements(other):
            if state.wins_at(cell, colour):
                cells.add(cell)
    return cells


def potential_wins(state: RealtimeState, colour: str) -> set[int]:
    """The cells where a colour would win with the right card from anywhere in its deck."""
    table = state.table
    # Rules 2 and 3 alone (fit="none"), then the win geometry, then whether any design fits.
    loose = table.legal_placements(colour, table.card_set.designs[0], _LOOSE, state.blocked())
    cells = {cell for cell, _ in loose if table.win_reason(cell, colour)}
    every_face = [f for d in range(len(table.card_set)) for f in table.card_set.faces(d)]
    return {cell for cell in cells if any(table.fits(cell, f) for f in every_face)}


def greedy_choice(state: RealtimeState, actor: str, options: Placements, rng: random.Random) -> str:
    """The one-ply racer (the racer before the look-ahead): win, block, advance safely, or discard."""
    if not options:
        return "discard"
    table, colour = state.table, state.colour_of(actor)
    opponents = _opponents(state, actor)
    foe = state.colour_of(opponents[0])
    threats = winning_cells(state, opponents)
    looming = potential_wins(state, foe)
    best, best_score = None, float("-inf")
    for design, cell, face in options:
        if state.wins_at(cell, colour):
            return state.action_text(design, cell, face)
        _, row = table.position(cell)
        progress = row if table.forward(colour) == 1 else table.height - 1 - row
        score = 10.0 * progress + rng.random()
        if cell in threats:
            score += BLOCK
        elif cell in looming:
            score += BLOCK_LOOMING
        elif table.is_behind(cell, foe) or table.reaches_far_edge(cell, foe):
            score += COVER  # the opponent could win here one day: take the cell first
        table.place(cell, colour, design, face)
        try:
            # Would this card give an opponent a new way to win, or set up our own next win?
            if winning_cells(state, opponents) - threats:
                score += OPENS_WIN
            score += OPENS_LOOMING * len(potential_wins(state, foe) - looming)
            score += SETS_UP * len(winning_cells(state, [actor])) + SETS_UP_LOOMING * len(potential_wins(state, colour))
        finally:
            table.remove(cell)
        if score > best_score:
            best, best_score = (design, cell, face), score
    if best_score < 0:
        # Every card only helps the opponent: try a fresh hand.
        return "discard"
    return state.action_text(*best)  # type: ignore[misc]
