"""The `rollout` strategy for real-time Omiga: Monte-Carlo look-ahead over the racer's best actions.

Why. The racer's two-ply scores see threats one exchange deep; long crowded games are lost to
what comes after. Here each candidate action (a win now is simply taken; else the racer's best
few placements and the discard) is played out many times from the public information — hands
lie face up, discard piles are public, only deck orders are hidden and sampled afresh — with
both sides acting at their reaction speeds under a simple policy (see `rollout_kernels.py`),
and the action with the most wins (draws count half) is sent. The racer's score breaks near-ties.

Only the two-player base game is rolled out; the other real-time modes fall back to the racer:
2v2, and kids (its one-card hands, rules without rule 3 and far-edge-only wins are not what the
rollout kernel plays).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ogames.players.omiga.racer import Placements, is_kids, racer_choice, racer_scores, unseen
from ogames.players.omiga.rollout_kernels import RolloutPlan, SideArrays, rollouts
from ogames.rules.omiga.table import deck_arrays, face_codes

if TYPE_CHECKING:
    from ogames.rules.omiga.realtime import RealtimeState


@dataclass(frozen=True)
class Budget:
    """How much look-ahead one decision buys: candidates, rollouts each, events per rollout, policy."""

    candidates: int = 6
    rollouts: int = 96  # 48 gave 65%, 96 gave 71% of decisive games against random (seeds 2100-4100)
    horizon: int = 40
    policy: int = 2
    tie_break: float = 0.02  # weight of the racer's normalised score next to the win share


DEFAULT_BUDGET = Budget()


def rollout_values(state: RealtimeState, actor: str, options: Placements, rng: random.Random, budget: Budget = DEFAULT_BUDGET,
                   reaction: float = 1.0, jitter: float = 0.2) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The candidates (indices into `options`, len(options) meaning the discard), their (wins, losses, draws), racer scores."""
    table, colour = state.table, state.colour_of(actor)
    me = table.index_of(colour)
    foe_actor = next(a for a in state.actors if state.colour_of(a) != colour)
    foe_colour = state.colour_of(foe_actor)
    score = racer_scores(state, actor, options, rng)["score"]
    order = [int(i) for i in np.argsort(-score[:-1], kind="stable")[: budget.candidates]]
    candidates = [*order, len(options)]
    cands = np.zeros((len(candidates), 6), dtype=np.int64)
    for row, i in enumerate(candidates):
        if i == len(options):
            cands[row, 1] = -1
        else:
            design, cell, face = options[i]
            cands[row] = (design, cell, *face_codes(face))
    hands = np.full((2, 3), -1, dtype=np.int64)
    pool = np.zeros((2, len(table.card_set)), dtype=np.int64)
    n_pool = np.zeros(2, dtype=np.int64)
    piles = np.zeros_like(pool)
    n_piles = np.zeros(2, dtype=np.int64)
    for who, col in ((actor, colour), (foe_actor, foe_colour)):
        o = table.index_of(col)
        hand = state.hands[who]
        hands[o, : len(hand)] = hand
        deck = unseen(state, col)
        supply = state.supplies[col]
        if deck == list(supply.discards):
            deck = []  # `unseen` falls back to the pile when nothing is unseen; the pile is known here
        pool[o, : len(deck)] = deck
        n_pool[o] = len(deck)
        piles[o, : len(supply.discards)] = supply.discards
        n_piles[o] = len(supply.discards)
    out = np.zeros((len(candidates), 3))
    sides = SideArrays(hands, pool, n_pool, piles, n_piles, np.array([reaction, reaction]))
    plan = RolloutPlan(budget.rollouts, budget.horizon, budget.policy, jitter, rng.randrange(1 << 40))
    rollouts(table.arrays(state.blocked()), deck_arrays(table.card_set), sides, me, cands, plan, out)
    return candidates, out, score[candidates]


def rollout_choice(state: RealtimeState, actor: str, options: Placements, rng: random.Random, budget: Budget = DEFAULT_BUDGET,
                   reaction: float = 1.0, jitter: float = 0.2) -> str:
    """The rollout bot's action: a win now, else the candidate with the best Monte-Carlo result."""
    colour = state.colour_of(actor)
    for design, cell, face in options:
        if state.wins_at(cell, colour):
            return state.action_text(design, cell, face)
    if len(state.actors) != 2 or is_kids(state):
        return racer_choice(state, actor, options, rng)
    candidates, counts, score = rollout_values(state, actor, options, rng, budget, reaction, jitter)
    share = (counts[:, 0] + 0.5 * counts[:, 2]) / max(1, budget.rollouts)
    spread = float(score.max() - score.min()) or 1.0
    value = share + budget.tie_break * (score - score.min()) / spread
    best = candidates[int(np.argmax(value))]
    if best == len(options):
        return "discard"
    return state.action_text(*options[best])
