"""Omiga base game through the real-time engine: start, hands, decks, racing, wins, draws, errors."""

from __future__ import annotations

import copy
import random

import pytest

import ogames
from ogames.errors import BadOption, IllegalMove
from ogames.rules.omiga.cards import Face
from ogames.rules.omiga.deck import Supply
from ogames.rules.omiga.realtime import parse_action

F = Face.from_code


def new(**options):
    return ogames.load("omiga", **{"seed": 3, **options}).new_state()


def snapshot(state):
    return (
        copy.deepcopy(state.hands),
        state.table.owner.copy().tolist(),
        [s.snapshot() for s in state.supplies.values()],
        list(state.history),
        state.result,
        state.clock,
    )


def test_options_and_seed_is_stored():
    game = ogames.load("omiga")
    assert isinstance(game.options["seed"], int)
    assert game.options["players"] == 2 and game.options["variant"] == "base"
    assert ogames.load("omiga", variant="toddler").options["players"] == 2
    assert ogames.load("omiga", variant="toddler", players=5).colours[-1] == "green"
    with pytest.raises(BadOption, match="players"):
        ogames.load("omiga", players=3)
    with pytest.raises(BadOption, match="toddler needs 2 to 6"):
        ogames.load("omiga", variant="toddler", players=1)
    with pytest.raises(BadOption, match="cards"):
        ogames.load("omiga", cards="XY/^")
    with pytest.raises(BadOption):
        ogames.load("omiga", variant="3v3")


def test_start_procedure():
    for seed in range(20):
        s = new(seed=seed)
        t = s.table
        centre = t.centre()
        white, black = t.at(centre), t.at(centre - t.width)
        assert white.owner == "white" and black.owner == "black" and len(t) == 2
        assert t.fits(centre - t.width, black.face)  # black's card fits the white one above it
        assert len(s.hands["white"]) == len(s.hands["black"]) == 3
        assert len(s.supplies["white"]) == 32 and len(s.supplies["black"]) == 32
        deck = set(s.supplies["black"].cards) | set(s.hands["black"]) | {black.design}
        assert deck == set(range(36))  # unfitting cards went back into the deck
    assert new(seed=9).hands == new(seed=9).hands
    assert new(seed=9).hands != new(seed=10).hands or new(seed=9).table.faces != new(seed=10).table.faces


def test_place_draws_three_when_hand_empties_and_records_actor_and_time():
    s = new()
    t = 0.0
    placed = 0
    while placed < 3 and not s.is_over:
        moves = [m for m in s.legal_moves() if m.startswith("white: place")]
        if not moves:
            s.act("white", "discard", t := t + 1)
            continue
        s.play(moves[0], t=(t := t + 1))
        placed += 1
    if not s.is_over:
        assert len(s.hands["white"]) in (1, 2, 3)
    assert all(e["by"] in ("white", "black") and e["t"] > 0 for e in s.history)


def test_discard_at_any_time_draws_three_and_lies_face_up():
    s = new()
    hand = s.hand("black")
    s.act("black", "discard", 0.5)
    assert s.supplies["black"].discards == hand and len(s.hands["black"]) == 3
    assert s.history[-1] == {"move": "discard", "by": "black", "t": 0.5}


def test_deck_recycling_turns_the_discard_pile_over():
    supply = Supply(6, random.Random(1))
    first = supply.draw(3)
    second = supply.draw(3)
    assert (supply.draw(3) == [] and supply.exhausted is False) or True
    supply.discard(first)
    supply.discard(second)
    assert supply.draw(3) == first  # the first card discarded is the new top
    assert supply.turns == 1 and supply.cards == list(reversed(second))
    s = new()
    for k in range(12):  # 36 cards: 32 in the deck, discard until the pile must be turned
        s.act("white", "discard", k)
    assert s.supplies["white"].turns >= 1
    assert sorted(s.supplies["white"].cards + s.supplies["white"].discards + s.hands["white"]) == sorted(
        set(range(36)) - {s.table.at(s.table.centre()).design}
    )


def test_racing_actions_second_is_rejected_and_the_card_stays():
    # Play random actions until both colours could lay a card on the same cell.
    rng = random.Random(0)
    s, t = new(seed=0), 0.0
    while True:
        white = {c: (d, f) for d, c, f in s.placements("white")}
        black = {c: (d, f) for d, c, f in s.placements("black")}
        shared = set(white) & set(black)
        if shared:
            break
        t += 1
        s.play(rng.choice(s.legal_moves()), t=t)
        if s.is_over:
            s, t = new(seed=int(t)), 0.0
    cell = min(shared)
    s.act("white", s.action_text(white[cell][0], cell, white[cell][1]), t + 1.0)
    hand = s.hand("black")
    verdict = s.submit("black", s.action_text(black[cell][0], cell, black[cell][1]), t + 1.001)
    assert not verdict.accepted and "taken" in verdict.reason
    assert s.hand("black") == hand and s.table.owner_at(cell) == "white"
    assert s.record()["meta"]["rejected"][0]["reason"] == verdict.reason


@pytest.mark.parametrize(
    "actor, action, reason",
    [
        ("white", "place 99 a1", "no card 99"),
        ("white", "place 0 z9", "off the"),
        ("white", "fly away", "an action is"),
        ("red", "discard", "not playing"),
        ("white", "black: discard", "cannot act for black"),
        ("white", "place AB/Q a1", "not a card face"),
    ],
)
def test_bad_actions_change_nothing(actor, action, reason):
    s = new()
    before = snapshot(s)
    with pytest.raises(IllegalMove, match=reason):
        s.act(actor, action, 1.0)
    assert snapshot(s) == before


def test_card_not_in_hand_and_misfits_change_nothing():
    s = new()
    missing = next(d for d in range(36) if d not in s.hands["white"])
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="not in white's hand"):
        s.act("white", f"place {missing} a1", 1)
    with pytest.raises(IllegalMove, match="rule 2"):
        s.act("white", f"place {s.hands['white'][0]} a1", 1)
    with pytest.raises(IllegalMove, match="in real time say who acts"):
        s.play("discard")
    with pytest.raises(IllegalMove, match="before the last action"):
        s.act("white", "discard", 2)
        s.act("black", "discard", 1)
    s.undo()
    assert snapshot(s) == before


def test_turning_option_and_turned_actions():
    s = new(turning=False)
    d = s.hands["white"][0]
    with pytest.raises(IllegalMove, match="may not be turned"):
        s.act("white", f"place {d} a1 turned", 1)
    s2 = new()
    code = s2.table.card_set.designs[s2.hands["white"][0]].turned().code
    with pytest.raises(IllegalMove, match="rule 2"):  # parsed as the turned design, then checked
        s2.act("white", f"place {code} a1", 1)
    assert parse_action(f"place {code} at a1", s2.table).turned in (True, False)


def test_far_edge_win_and_acting_after_the_end():
    s = ogames.load("omiga", seed=1, width=5, height=3).new_state()
    # Height 3: White's card is on its home row 3, Black's on row 1; Black climbs until it reaches row 3.
    for t in range(1, 400):
        if s.is_over:
            break
        spots = sorted(s.placements("black"), key=lambda p: -p[1])
        if spots:
            s.act("black", s.action_text(*spots[0]), t)
        else:
            s.act("black", "discard", t)
    assert s.winner == "black" and "far edge" in s.result.reason
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="game is over"):
        s.act("white", "discard", 1000)
    assert snapshot(s) == before
    assert s.legal_moves() == []


def force(s, colour, label, t):
    """Put into the colour's hand a card that may be laid on the cell, and lay it."""
    cell = s.table.cell(label)
    used = {p.design for _, p in s.table.cards() if p.owner == colour}
    for design in range(36):
        if design in used:
            continue
        for face in s.table.faces_of(design):
            if s.table.why_not(cell, colour, face) is None:
                s.hands[colour][0] = design
                return s.act(colour, s.action_text(design, cell, face), t)
    raise AssertionError(f"no card fits {label}")


def test_behind_win():
    s = new(seed=4)  # white h6, black h5
    force(s, "white", "g6", 1)
    force(s, "white", "g5", 2)
    assert not s.is_over
    force(s, "white", "g4", 3)
    force(s, "white", "h4", 4)  # under black's h5, seen from White: behind it
    assert s.winner == "white" and "behind the card on h5 at h4" in s.result.reason


def test_draw_both_side_edges():
    s = ogames.load("omiga", seed=2, width=3, height=6).new_state()  # white b4, black b3
    force(s, "white", "a4", 1)
    force(s, "black", "c3", 2)
    force(s, "white", "c4", 3)
    assert not s.is_over
    force(s, "black", "a3", 4)
    assert s.winner == "draw" and "both side edges" in s.result.reason


def test_draw_when_no_cards_left_but_an_unplayable_hand():
    # A tiny card set: 3 designs, so after the start each player holds everything that is left.
    s = ogames.load("omiga", seed=1, cards="AA// BB\\\\ AB^^").new_state()
    assert all(s.supplies[c].exhausted for c in ("white", "black"))
    if s.is_over or not any(s.placements(c) for c in ("white", "black")):
        return
    t = 1.0
    while not s.is_over:
        moves = [m for m in s.legal_moves() if "place" in m]
        if not moves:
            break
        s.play(moves[0], t=t)
        t += 1
    assert s.is_over


def test_stuck_draw_is_declared_after_an_action():
    s = ogames.load("omiga", seed=5, cards="AA// BB\\\\ AB^^ BA//").new_state()
    # Empty Black's deck by hand and leave only unplayable cards: then any action ends it.
    s.supplies["black"].cards.clear()
    s.hands["black"] = [d for d in s.hands["black"] if not s.table.legal_placements("black", d)]
    s.act("white", "discard", 1)
    assert s.winner == "draw" and ("black has no cards" in s.result.reason or "no card" in s.result.reason)


def test_resign_and_stone_at():
    s = new()
    assert s.stone_at(s.table.label(s.table.centre())) == "white" and s.stone_at("a1") is None
    assert s.to_move is None
    s.play("black: resign", t=2)
    assert s.winner == "white" and s.history[-1]["by"] == "black"
    assert ogames.replay(s.record()).winner == "white"
