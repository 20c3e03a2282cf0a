"""The board games' contract (`BoardState`, `BoardGame`, `BoardFacts` in `ogames.rules.protocol`):
every variant of every board game offers it, and what it says agrees with the position and with
the rule book (RULES.md): the winning cells are the winner's stones (a connected group in the
connection games), Omny's region counts follow the definition of a region, Omega's group sizes
multiply to its scores, Onyx's captures are the stones the last move removed."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conformance.cases import CASES, make

import ogames
from ogames.boards.graph import Board
from ogames.rules.omiga.contract import TableState, is_table_state
from ogames.rules.omny import OmnyState
from ogames.rules.protocol import (
    BoardFacts,
    BoardGame,
    BoardState,
    OmegaFacts,
    OmnyFacts,
    OnyxFacts,
    RegionCount,
    State,
    is_board_game,
    is_board_state,
)

BOARD_CASES = [case_id for case_id, name, _ in CASES if name != "omiga"]
FACTS = {"omny": OmnyFacts, "oddy": BoardFacts, "omega": OmegaFacts, "onyx": OnyxFacts}


def test_every_board_game_has_a_case_and_omiga_lays_cards_on_a_table_instead() -> None:
    names = {name for _, name, _ in CASES}
    assert set(ogames.rules.REGISTRY) - {"omiga"} <= names
    for case_id, name, _ in CASES:
        state = make(case_id).new_state()
        board_game = name != "omiga"
        assert isinstance(state, BoardState) == board_game == is_board_state(state), case_id
        assert isinstance(state.game, BoardGame) == board_game == is_board_game(state.game), case_id
        assert isinstance(state, TableState) == (not board_game) == is_table_state(state), case_id
        assert is_board_state(state.clone()) == board_game  # remembered per class, asked again


def positions(case_id: str, seed: int, samples: int = 6) -> list[State]:
    """A random game of a case: a few positions along it and its end (some games end by a
    resignation, so that the contract's "no winning cells after resigning" is seen too)."""
    rng = random.Random(seed)
    state = make(case_id).new_state()
    seen: list[State] = [state.clone()]
    resign_at = rng.randrange(4, 40) if rng.random() < 0.2 else None
    while not state.is_over:
        if state.ply == resign_at:
            state.resign()
            break
        state.play(rng.choice(state.legal_moves()), t=0.0)
        if rng.random() < samples / 40:
            seen.append(state.clone())
    seen.append(state)
    return seen


def components(board: Board, cells: set[int]) -> list[set[int]]:
    """The connected parts of a set of cells (plain breadth-first search)."""
    parts, left = [], set(cells)
    while left:
        start = left.pop()
        part, todo = {start}, [start]
        while todo:
            for other in board.neighbours[todo.pop()]:
                if other in left:
                    left.remove(other)
                    part.add(other)
                    todo.append(other)
        parts.append(part)
    return parts


def check_common(state: State) -> None:
    """What every board state offers, and how it agrees with `stone_at` and the result."""
    assert isinstance(state, BoardState)
    game = state.game
    assert isinstance(game, BoardGame)
    board = state.board
    assert board is game.board
    assert state.stones.dtype == np.int8 and state.stones.shape == (len(board),)
    for cell, label in enumerate(board.labels):
        value = int(state.stones[cell])
        assert state.stone_at(label) == (None if value == 0 else game.colours[value - 1])
    facts = state.facts()
    assert type(facts) is FACTS[game.name]
    assert list(facts.winning) == state.winning_cells() == sorted(state.winning_cells())
    assert json.loads(json.dumps(facts.jsonable())) == facts.jsonable()
    assert all(0 <= c < len(board) for c in game.star_cells)
    result = state.result
    resigned = bool(state.history) and state.history[-1]["move"] == "resign"
    if result is None or result.winner == "draw" or resigned:
        assert facts.winning == ()
        return
    winning = {board.index(label) for label in facts.winning}
    assert winning, "a game won on the board shows where"
    assert all(state.stone_at(board.labels[c]) == result.winner for c in winning)
    if game.name == "omega":  # the winner's stones, all of them
        assert winning == {c for c in range(len(board)) if state.stone_at(board.labels[c]) == result.winner}
    else:  # one group, holding the last stone
        assert len(components(board, winning)) == 1
        assert board.index(state.history[-1]["move"]) in winning
        same = {c for c in range(len(board)) if state.stone_at(board.labels[c]) == result.winner}
        assert any(part == winning for part in components(board, same)), "the whole group, not a part of it"


def region_counts(state: OmnyState) -> list[RegionCount]:
    """RULES.md §1 read plainly: a group's regions are the connected parts of the board without
    the group's cells; a colour's `best` is the fewest star cells of the largest region of any of
    its groups; a region may hold at most S/2 − k stars for Black, S/2 + k for White."""
    game = state.game
    board, stars, total = game.board, game.star_cells, len(game.star_cells)
    komi = state.komi
    assert komi is not None
    everything = set(range(len(board)))
    out = []
    for turn, colour in enumerate(game.colours):
        own = {c for c in everything if state.stone_at(board.labels[c]) == colour}
        largest = [max((len(region & stars) for region in components(board, everything - group)), default=0)
                   for group in components(board, own)]
        limit = math.floor(total / 2 - komi if turn == 0 else total / 2 + komi)
        out.append(RegionCount(colour, min(largest) if largest else None, limit, total))
    return out


@pytest.mark.parametrize("case_id", BOARD_CASES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_board_state_keeps_the_contract(case_id: str, seed: int) -> None:
    for state in positions(case_id, seed):
        check_common(state)


@pytest.mark.parametrize("case_id", [c for c in BOARD_CASES if c.startswith("omny")])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_omny_regions_follow_the_rule_book(case_id: str, seed: int) -> None:
    for state in positions(case_id, seed):
        assert isinstance(state, OmnyState)
        facts = state.facts()
        if facts.komi is None:  # Black has yet to choose komi: nothing to count against
            assert facts.regions == () and state.legal_moves()[0] == "komi=0"
            continue
        assert list(facts.regions) == region_counts(state)
        # A group whose largest region holds at most the limit has won (RULES.md: only the group of
        # the stone just placed can newly get there): none while the game goes on, the winner's at the end.
        near = [item.colour for item in facts.regions if item.best is not None and item.best <= item.limit]
        resigned = state.history[-1]["move"] == "resign" if state.history else False
        if not resigned:
            assert near == ([] if state.result is None else [state.winner])


@pytest.mark.parametrize("case_id", [c for c in BOARD_CASES if c.startswith("omega")])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_omega_groups_multiply_to_the_scores(case_id: str, seed: int) -> None:
    for state in positions(case_id, seed):
        facts = state.facts()
        assert isinstance(facts, OmegaFacts)
        board = state.board
        for colour, sizes in facts.groups.items():
            stones = {c for c in range(len(board)) if state.stone_at(board.labels[c]) == colour}
            assert sorted(sizes, reverse=True) == list(sizes) == sorted(map(len, components(board, stones)), reverse=True)
            assert math.prod(sizes) == state.scores[colour]
        if state.is_over:
            assert facts.placing is None
        else:
            assert facts.placing is not None and facts.placing.of == len(state.game.colours)
            assert state.game.colours[facts.placing.index - 1] == state.to_move


@pytest.mark.parametrize("case_id", [c for c in BOARD_CASES if c.startswith("onyx")])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_onyx_facts_are_the_captures_and_the_connecting_group(case_id: str, seed: int) -> None:
    for state in positions(case_id, seed):
        facts = state.facts()
        assert isinstance(facts, OnyxFacts)
        last = state.history[-1] if state.history else {}
        assert list(facts.captures) == list(last.get("captures", []))
        assert all(state.stone_at(label) is None for label in facts.captures)
        took = {c: sum(len(e.get("captures", [])) for e in state.history if e["by"] == c) for c in ("black", "white")}
        assert dict(facts.captured) == {"black": took["white"], "white": took["black"]}
        if facts.winning:  # Black joins west and east (columns a, l), White south and north (rows 1, 12)
            points = [label for label in facts.winning if not label.endswith("*")]
            if state.winner == "black":
                assert {label[0] for label in points} >= {"a", "l"}
            else:
                assert {label[1:] for label in points} >= {"1", "12"}


def test_taking_back_the_winning_move_takes_back_its_facts() -> None:
    for case_id in BOARD_CASES:
        state = positions(case_id, seed=3)[-1]
        if not state.winning_cells():
            continue
        state.undo()
        assert state.result is None and state.winning_cells() == [] and state.facts().winning == ()


def test_facts_as_json_keep_the_shape_the_faces_send() -> None:
    omny = ogames.load("omny", variant="y", size=3, komi_choice=True).new_state()
    assert omny.facts().jsonable() == {"winning": [], "captures": [], "komi": None, "regions": []}
    omny.play("komi=1")
    assert omny.facts().jsonable()["regions"] == [
        {"colour": "black", "best": None, "limit": 0, "stars": 3},
        {"colour": "white", "best": None, "limit": 2, "stars": 3},
    ]
    omega = ogames.load("omega", players=3, size=4).new_state().play("d1").play("d4")
    assert omega.facts().jsonable() == {"winning": [], "captures": [], "groups": {"white": [1], "black": [1], "red": []},
                                        "placing": {"index": 3, "of": 3}}
