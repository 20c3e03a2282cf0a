"""Omiga toddler («Карапуз»), RULES.md §5: areas, own-colour fitting, rounds, shared wins, bad input."""

from __future__ import annotations

import pytest

from ogames.errors import BadOption, IllegalMove
from ogames.rules import load
from ogames.rules.omiga.cards import STANDARD, Face
from omiga_turns_helpers import snapshot, toddler


@pytest.mark.parametrize("players", [2, 3, 6])
def test_toddler_areas_start_on_one_edge(players):
    state = toddler(players)
    assert state.colours == ("white", "black", "red", "blue", "green", "yellow")[:players]
    bottom = [state.table.owner_at(state.table.number(c, 0)) for c in range(state.table.width)]
    assert sorted(c for c in bottom if c) == sorted(state.colours)
    assert all(state.table.far_row(c) == state.table.height - 1 for c in state.colours)


def test_toddler_player_count_is_checked():
    with pytest.raises(BadOption, match="players=7"):
        load("omiga", variant="toddler", players=7)
    with pytest.raises(BadOption):
        load("omiga", variant="toddler", players=1)


def _give(state, colour: str, face: Face) -> int:
    """Put the design showing `face` into the colour's hand, swapping it with the card held (the supply stays whole)."""
    design = STANDARD.designs.index(face)
    supply, hand = state.supplies[colour], state.hands[colour]
    if design in supply.cards:
        supply.cards[supply.cards.index(design)] = hand[0]
    hand[0] = design
    return design


def _relay(state, cell: int, colour: str, face: Face) -> None:
    """Replace a start card on the table by the card showing `face` (its design swapped into the supply)."""
    old = state.table.at(cell)
    design = STANDARD.designs.index(face)
    supply = state.supplies[colour]
    if design in supply.cards:
        supply.cards[supply.cards.index(design)] = old.design
    state.table.remove(cell)
    state.table.place(cell, colour, design, face)


def test_toddler_cards_of_other_players_need_not_fit_but_own_cards_must():
    # Width 3: white's area starts at a1, black's at c1; b1 lies between a white and a black card.
    state = toddler(2, 3, width=3)
    a1, b1, c1 = (state.table.number(col, 0) for col in range(3))
    _relay(state, a1, "white", Face.from_code("AA//"))  # white's right hue is A
    _relay(state, c1, "black", Face.from_code("BB//"))  # black's left hue is B
    state.turn = 1  # black to move; white's turn in this round is taken as passed

    # BB\\ on b1: its left hue B does not fit white's A, its right hue B fits black's B.
    fits_own_only = Face.from_code("BB\\\\")
    _give(state, "black", fits_own_only)
    assert not state.table.fits(b1, fits_own_only)  # rule 1 with every owner would refuse it
    assert "does not match the card to its left, on a1" in state.table.misfit(b1, fits_own_only)
    assert state.table.misfit(b1, fits_own_only, "black") is None
    assert "place b1" in state.legal_moves()

    # AA\\ (its turned face is the same) fits white's card but not black's own: refused, nothing changes.
    _give(state, "black", Face.from_code("AA\\\\"))
    assert state.table.misfit(b1, Face.from_code("AA\\\\")) is not None
    assert state.table.misfit(b1, Face.from_code("AA\\\\"), "white") is None
    assert not any(m.startswith("place b1") for m in state.legal_moves())
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=r"does not match the card to its right, on c1 \(rule 1\)"):
        state.play("place b1")
    assert snapshot(state) == before

    # The card that fits only its own neighbour is really laid.
    _give(state, "black", fits_own_only)
    state.play("place b1", t=0.0)
    assert state.table.at(b1).owner == "black" and state.table.at(b1).face == fits_own_only


def test_toddler_round_everyone_draws_then_acts_in_seat_order():
    state = toddler(3, 4)
    assert all(len(h) == 1 for h in state.hands.values())
    order = []
    for _ in range(3):
        order.append(state.to_move)
        state.play(state.legal_moves()[0], t=0.0)
    assert order == ["white", "black", "red"] and state.round == 2
    assert all(len(h) == 1 for h in state.hands.values())


def _race(state):
    """Everyone plays the move that climbs highest."""
    while not state.is_over:
        moves = state.legal_moves()
        state.play(max(moves, key=lambda m: int(m.split()[1][1:]) if m.startswith("place") else -1), t=0.0)
    return state


def test_toddler_ties_within_a_round_share_the_win():
    shared = None
    for seed in range(60):
        state = _race(toddler(2, seed, height=3))
        assert state.winners, state.result
        if len(state.winners) == 2:
            shared = state
            break
    assert shared is not None
    assert shared.winner == "white+black" and "share" in shared.result.reason
    assert shared.rewards() == [0.5, 0.5]


def test_toddler_single_winner_is_a_colour_and_the_round_is_finished():
    state = _race(toddler(3, 11, height=4))
    assert state.winners and all(c in state.colours for c in state.winners)
    if len(state.winners) == 1:
        assert state.winner == state.winners[0]
        assert state.rewards()[state.colours.index(state.winner)] == 1.0
    assert state.ply % 3 == 0  # the game ends only at the end of a round


def test_toddler_resign_gives_the_others_a_shared_win():
    state = toddler(3, 2)
    state.resign("black")
    assert state.winners == ["white", "red"] and state.rewards() == [0.5, 0.0, 0.5]


def test_toddler_bad_move_changes_nothing():
    state = toddler(2, 5)
    before = snapshot(state)
    for move in ("place a9", "place zz1", "discard", "fly"):
        with pytest.raises(IllegalMove):
            state.play(move)
        assert snapshot(state) == before


def test_toddler_player_who_laid_every_card_sits_out_and_the_game_goes_on():
    """Regression: with seed 1 Black lays its 36th card in round 35; it then holds no card and must
    be skipped, not asked to move."""
    import random

    state = load("omiga", variant="toddler", seed=1, players=2).new_state()
    rng = random.Random(1)
    while not state.is_over and state.ply < 200:
        mover = state.to_move
        assert state.hands[mover], f"{mover} is asked to move without a card (round {state.round})"
        state.play(rng.choice(state.legal_moves()), t=0.0)
    out = [c for c in state.colours if not state.hands[c] and not state.supplies[c].cards and not state.supplies[c].discards]
    assert out, "the seed no longer reaches a player with no cards left; pick another"
    assert state.is_over
