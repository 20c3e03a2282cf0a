"""Omiga's move list and zen hint as the page gets them (web/omiga/view.py): a move says what was
done with the card drawn as it lies, never its number; a zen hint names the hand card, the cell and
whether it is turned, so the page can light them."""

from __future__ import annotations

import random
import re

import pytest

import ogames
from ogames.players.omiga.zen_greedy import greedy_move
from ogames.web.omiga import view


def move_view(state, n: int, entry: dict) -> dict:
    """A move-list line as the page gets it (`view.move_view`'s model as JSON)."""
    return view.move_view(state, n, entry).model_dump(mode="json")


def hint_view(state, hint: str | None) -> dict | None:
    """A zen hint as the page gets it (the fields that apply)."""
    shown = view.hint_view(state, hint)
    return None if shown is None else shown.model_dump(mode="json", exclude_unset=True)


def played(options: dict, moves: int = 40, seed: int = 1):
    """A seeded game of random legal moves (any mode), with its states' history."""
    rng = random.Random(seed)
    state = ogames.load("omiga", seed=seed, **options).new_state()
    for t in range(moves):
        legal = state.legal_moves()
        if state.is_over or not legal:
            break
        state.play(rng.choice(legal), t=float(t))
    return state


def drawn_face(svg: str) -> tuple[str, str]:
    """(face code, owner) of a card drawing."""
    match = re.search(r'data-face="([^"]+)" data-owner="([^"]+)"', svg)
    assert match, svg[:200]
    return match.group(1).replace("&#x27;", "'"), match.group(2)


@pytest.mark.parametrize("options", [{}, {"variant": "2v2"}, {"variant": "kids"}, {"variant": "kids", "pace": "turns"},
                                     {"variant": "toddler"}, {"variant": "zen"}])
def test_each_laid_card_is_drawn_as_it_lies_on_its_cell_and_no_move_says_a_card_number(options):
    state = played(options)
    kinds = set()
    for n, entry in enumerate(state.history, start=1):
        shown = move_view(state, n, entry)
        kinds.add(shown["kind"])
        assert shown["n"] == n and shown["move"] == entry["move"] and shown["kind"] == entry["move"].split()[0]
        # The page prints only the template's words, the colour, the cell and the card's drawing.
        assert shown["cell"] is None or state.table.board.has(shown["cell"])
        assert shown["colour"] is None or shown["colour"] in state.table.owners
        this_round = "round" not in entry or entry["round"] == state.round  # (2v2: an earlier round's table is gone)
        if shown["kind"] in ("place", "start") and this_round:
            placed = state.table.at(state.table.cell(shown["cell"]))
            code, owner = drawn_face(shown["card"])
            assert (code, owner) == (placed.face.code, placed.owner) == (code, shown["colour"])
            assert shown["turned"] == entry["move"].endswith("turned")
    assert "place" in kinds


def test_a_discard_a_draw_and_the_end_of_a_zen_round_are_told_without_a_card():
    state = played({"variant": "zen"}, moves=80, seed=2)
    shown = {entry["move"].split()[0]: move_view(state, n, entry) for n, entry in enumerate(state.history, start=1)}
    assert shown["draw"]["colour"] in ("white", "black") and shown["draw"]["card"] is None
    assert shown["end"]["card"] is None and shown["end"]["cell"] is None
    assert shown["start"]["cell"] == state.table.label(state.start_cell)
    base = played({}, moves=60, seed=4)
    discard = next(move_view(base, n, e) for n, e in enumerate(base.history, 1) if e["move"] == "discard")
    assert discard["kind"] == "discard" and discard["card"] is None


def test_the_zen_hint_names_the_hand_card_the_cell_and_the_turn_of_its_move():
    seen = set()
    for seed in range(6):
        state = ogames.load("omiga", variant="zen", form="fly", seed=seed).new_state()
        while not state.is_over:
            move = greedy_move(state)
            hint = hint_view(state, move)
            assert hint is not None and hint["action"] == move and hint["kind"] == move.split()[0]
            if hint["kind"] == "place":
                assert set(hint) == {"action", "kind", "card", "cell", "turned"}
                _, design = state.hand[hint["card"]]
                printed = state.cards.designs[design]
                spots = {(state.table.label(cell), face != printed) for cell, face in state.placements(hint["card"])}
                assert (hint["cell"], hint["turned"]) in spots and move.endswith("turned") == hint["turned"]
                seen.add(hint["turned"])
            else:
                assert set(hint) == {"action", "kind"}
            state.play(move, t=0.0)
    assert seen == {True, False}  # both kinds of placement were hinted
    assert hint_view(state, None) is None
