"""The racer's strategy for real-time Omiga: a two-ply look-ahead over the table's threats.

Why two plies. At equal speed the foe's next action is already on its way while the bot decides,
and the bot's own action lands only after it. A threat (a cell where a player holds a card that
wins there) is therefore taken by the player who made it before the other can answer: blocking a
threat once it is on the table comes too late. So for each of its placements M the bot looks at
every foe placement F that could land first (and at F = nothing) and asks, on table + F + M:
- does a foe win that was on table + F survive M? (deadly: the foe has seen it and acts first)
- does M open a new foe win? (the bot sees it in time to cover it, but loses a tempo)
- do I now hold a winning card for some cell? (the foe's answer to M is still on the old table)
- was M made impossible by F? (a wasted action).
The scores are averaged over F (a random foe) and mixed with the worst F (a foe that aims).
Smaller terms steer quiet positions: advancing towards the far edge and win cells within two
placements (own: good, foe's: bad; see `race`). A discard is scored the same way, with the hand
about to be drawn, less a tempo.

Hands lie face up and discard piles are public; the unseen cards of a deck are the designs neither
on the table, in a hand of that colour nor on its discard pile.

Kids («Дети», `kids_choice`) has other rules — one card in hand, rule 3 dropped, only the far edge
wins — so the racer plays it by a race count instead of the two-ply kernel: for each placement,
how many placements each side still needs to reach its far edge (fitting aside, the other side's
cards as walls), and whether the foe's card in hand could win at once afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ogames.players.omiga.threat_kernels import race, two_ply
from ogames.rules.omiga.cards import Face
from ogames.rules.omiga.table import deck_arrays, face_codes

if TYPE_CHECKING:
    from ogames.kernels.omiga import TableArrays
    from ogames.rules.omiga.realtime import RealtimeState
    from ogames.rules.omiga.table import Table

Placements = list[tuple[int, int, Face]]  # (design, cell, face), as `RealtimeState.placements` lists them

# Weights of the look-ahead (in "one win" units of about 100).
DEADLY = 100.0  # a foe win that survives my move
OPENED = 35.0  # a foe win my move opens (I can still cover it, at the cost of a tempo)
READY = 70.0  # my win weight after my move
WASTED = 8.0  # my move was made impossible by the foe's
AIMED = 0.5  # share of the worst foe move against the average one
ADVANCE = 5.0  # per row towards the far edge
RACE_MINE = 6.0  # per win cell within reach, halved for each placement it is away (see `race`)
RACE_FOE = 3.0  # the same for the foe
RACE_DEPTH, RACE_DECAY = 2, 0.5
DISCARD_COST = 12.0  # a discard spends a tempo
NEXT = 0.5  # a win with a card of the hand about to be drawn
LATER = 0.25  # a win with a card still in the deck: sooner or later it comes


def unseen(state: RealtimeState, colour: str) -> list[int]:
    """The designs a colour may draw next: its deck as far as public information tells."""
    table = state.table
    me = table.index_of(colour)
    gone = {int(d) for d in table.design[table.owner == me]}
    for actor in state.actors:
        if state.colour_of(actor) == colour:
            gone.update(state.hands[actor])
    supply = state.supplies.get(colour)
    discards = list(supply.discards) if supply is not None else []
    deck = [d for d in range(len(table.card_set)) if d not in gone and d not in discards]
    return deck or discards


def hand_weights(n: int, hand: list[int], drawn: list[int]) -> np.ndarray:
    """What holding each design counts: 1 in hand, NEXT for the unseen ones when the hand is empty
    (a draw comes at once), LATER otherwise (a discard or a few placements away)."""
    weights = np.zeros(n)
    if drawn:
        weights[drawn] = LATER if hand else NEXT
    if hand:
        weights[hand] = 1.0
    return weights


def _move_row(table: Table, cell: int, face: Face) -> tuple[int, int, int, int, int]:
    return (cell, *face_codes(face))


def opponents(state: RealtimeState, actor: str) -> list[str]:
    """The actors laying the other colour."""
    colour = state.colour_of(actor)
    return [a for a in state.actors if state.colour_of(a) != colour]


def racer_choice(state: RealtimeState, actor: str, options: Placements, rng: random.Random) -> str:
    """The racer's action: a win now, else the placement (or discard) with the best two-ply score."""
    colour = state.colour_of(actor)
    for design, cell, face in options:
        if state.wins_at(cell, colour):
            return state.action_text(design, cell, face)
    if is_kids(state):
        return kids_choice(state, actor, options, rng)
    score = racer_scores(state, actor, options, rng)["score"]
    best = int(np.argmax(score))
    if best == len(options):
        return "discard"
    return state.action_text(*options[best])


def racer_scores(state: RealtimeState, actor: str, options: Placements, rng: random.Random) -> dict[str, np.ndarray]:
    """The look-ahead's terms for each placement in `options` and, last, the discard (see the module doc)."""
    table, colour = state.table, state.colour_of(actor)
    foes = opponents(state, actor)
    foe_colour = state.colour_of(foes[0])
    me, foe = table.index_of(colour), table.index_of(foe_colour)
    forward = table.forward(colour)
    n = len(table.card_set)
    arrays = table.arrays(state.blocked())
    my_hand = list(state.hands[actor])
    my_drawn, foe_drawn = unseen(state, colour), unseen(state, foe_colour)

    # My moves: every placement, then the discard (cell −1, a fresh hand).
    my_rows = [_move_row(table, cell, face) for _, cell, face in options] + [(-1, 0, 0, 0, 0)]
    my_w = [hand_weights(n, [d for d in my_hand if d != design], my_drawn) for design, _, _ in options]
    my_w.append(hand_weights(n, [], my_drawn))
    # Foe moves that could land first: each placement that does not win at once (those nobody can stop), and nothing.
    foe_hand = [d for a in foes for d in state.hands[a]]
    foe_rows, foe_w = [], []
    for a in foes:
        for design, cell, face in state.placements(a):
            if not state.wins_at(cell, foe_colour):
                foe_rows.append(_move_row(table, cell, face))
                left = list(foe_hand)
                left.remove(design)
                foe_w.append(hand_weights(n, left, foe_drawn))
    foe_rows.append((-1, 0, 0, 0, 0))
    foe_w.append(hand_weights(n, foe_hand, foe_drawn))

    out = np.zeros((len(my_rows), len(foe_rows), 4))
    two_ply(
        arrays.copy(), deck_arrays(table.card_set), me, foe, np.array(my_rows, dtype=np.int64), np.array(my_w),
        np.array(foe_rows, dtype=np.int64), np.array(foe_w), out,
    )
    rejected, old, new, mine = out[..., 0], out[..., 1], out[..., 2], out[..., 3]
    value = -DEADLY * np.minimum(old, 1.5) - OPENED * np.minimum(new, 1.5) + READY * np.minimum(mine, 1.0) - WASTED * rejected
    look = (1.0 - AIMED) * value.mean(axis=1) + AIMED * value.min(axis=1)
    quiet = np.zeros(len(my_rows))

    # Quiet-position terms on table + M: how near each side is to a win (fitting aside).
    after = arrays._replace(owner=table.owner.copy())
    owner, dist = after.owner, np.zeros(table.width * table.height, dtype=np.int64)

    def reach(t: TableArrays) -> float:
        mine = race(t, me, RACE_DEPTH, RACE_DECAY, dist)
        theirs = race(t, foe, RACE_DEPTH, RACE_DECAY, dist)
        return RACE_MINE * mine - RACE_FOE * theirs

    for i, (_, cell, _) in enumerate(options):
        row = cell // table.width
        progress = row if forward == 1 else table.height - 1 - row
        owner[cell] = me
        quiet[i] = ADVANCE * progress + reach(after) + 0.01 * rng.random()
        owner[cell] = -1
    # A discard leaves the table as it is.
    quiet[-1] = reach(after) - DISCARD_COST
    return {
        "score": look + quiet, "look": look, "quiet": quiet, "rejected": rejected.mean(axis=1),
        "old": old.max(axis=1), "new": new.max(axis=1), "mine": mine.mean(axis=1),
    }


# ----- kids («Дети»): one card in hand, rules 1 and 2, the far edge wins -----------------------------
KIDS_THREAT = 1_000.0  # per cell where the foe's card in hand would win at once after my placement
KIDS_RACE = 10.0  # per placement the foe needs more than I do to reach the far edge
KIDS_ADVANCE = 1.0  # per row towards the far edge


def is_kids(state: RealtimeState) -> bool:
    """Whether the state plays kids' rules (the two-ply kernel and the rollouts know the base game's only)."""
    return state.game.options.get("variant") == "kids"


def placements_to_go(owner: Sequence[int], width: int, height: int, me: int, far_row: int) -> int:
    """How many placements `me` needs at least to lay a card on `far_row`: steps through empty
    cells from `me`'s cards (rule 2), fitting aside; width · height when it cannot get there."""
    n = width * height
    dist = [0] * n
    frontier = []
    for c in range(n):
        if owner[c] >= 0:
            continue
        col, row = c % width, c // width
        if (
            (col > 0 and owner[c - 1] == me) or (col < width - 1 and owner[c + 1] == me)
            or (row > 0 and owner[c - width] == me) or (row < height - 1 and owner[c + width] == me)
        ):
            dist[c] = 1
            frontier.append(c)
    for c in frontier:  # grows while it is read: a breadth-first search
        if c // width == far_row:
            return dist[c]
        col, row = c % width, c // width
        for z, ok in ((c - 1, col > 0), (c + 1, col < width - 1), (c - width, row > 0), (c + width, row < height - 1)):
            if ok and owner[z] < 0 and dist[z] == 0:
                dist[z] = dist[c] + 1
                frontier.append(z)
    return n


def kids_scores(state: RealtimeState, actor: str, options: Placements, rng: random.Random) -> np.ndarray:
    """A score for each placement in `options` (kids): foe wins it opens, the race, progress."""
    table, colour = state.table, state.colour_of(actor)
    foe_actor = opponents(state, actor)[0]
    foe_colour = state.colour_of(foe_actor)
    me, foe = table.index_of(colour), table.index_of(foe_colour)
    far, foe_far = table.far_row(colour), table.far_row(foe_colour)
    forward = table.forward(colour)
    scores = np.zeros(len(options))
    for i, (design, cell, face) in enumerate(options):
        table.place(cell, colour, design, face)
        try:
            threats = {c for _, c, _ in state.placements(foe_actor) if state.wins_at(c, foe_colour)}
            owner = table.owner.tolist()
            mine = placements_to_go(owner, table.width, table.height, me, far)
            theirs = placements_to_go(owner, table.width, table.height, foe, foe_far)
        finally:
            table.remove(cell)
        row = cell // table.width
        progress = row if forward == 1 else table.height - 1 - row
        scores[i] = -KIDS_THREAT * len(threats) + KIDS_RACE * (theirs - mine) + KIDS_ADVANCE * progress + 0.01 * rng.random()
    return scores


def kids_choice(state: RealtimeState, actor: str, options: Placements, rng: random.Random) -> str:
    """The racer in kids: a win now, else the placement with the best race score, else the discard
    (allowed only when the card fits nowhere, which is when `options` is empty)."""
    colour = state.colour_of(actor)
    if not options:
        return "discard"
    for design, cell, face in options:
        if state.wins_at(cell, colour):
            return state.action_text(design, cell, face)
    return state.action_text(*options[int(np.argmax(kids_scores(state, actor, options, rng)))])
