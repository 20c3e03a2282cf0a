"""Rule invariants of Omny on random play: exactly one winner on full boards (S + 2k odd),
monotone win condition, undo, records that round-trip, and tampered records rejected."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from conformance.cases import variants_of
from ogames import BadRecord
from ogames.kernels.omny import satisfied_colours_reference
from ogames.rules.omny import Omny, OmnyState

CONFIGS = [
    {"variant": "y", "size": 4},
    {"variant": "y", "size": 6},
    {"variant": "sunder", "size": 3},
    {"variant": "gyre", "size": 3},
    {"variant": "gyre", "size": 4},
    {"variant": "free-y", "sides": (2, 3)},
    {"variant": "free-y", "sides": (4, 3)},
    {"variant": "custom", "shape": "triangle", "size": 4, "stars": "perimeter+centre"},
    {"variant": "custom", "shape": "rhombus", "size": 3, "stars": "corners"},
    {"variant": "custom", "shape": "irregular", "sides": (2, 4), "stars": "all"},
    {"variant": "custom", "cells": "a1 b1 c1 a2 b2 c2 d2 b3 c3", "stars": "a1 c1 d2 b3 c2"},
]
BASE = [ogames.load("omny", **options) for options in CONFIGS]


def test_the_boards_include_every_omny_variant() -> None:
    assert {options["variant"] for options in CONFIGS} == set(variants_of("omny"))


@st.composite
def games(draw: st.DrawFn, odd: bool = False) -> Omny:
    """One of the configurations with a komi; with `odd`, S + 2k is odd (no races)."""
    base = BASE[draw(st.integers(0, len(BASE) - 1))]
    total = base.total_stars
    choices = [t for t in range(total + 1) if not odd or (total + t) % 2 == 1]
    twice = draw(st.sampled_from(choices))
    return ogames.load("omny", **{**base.options, "komi": twice / 2})


def bounds(game: Omny) -> tuple[int, int]:
    twice = int(2 * game.options["komi"])
    return game.total_stars - twice, game.total_stars + twice


@settings(max_examples=150, deadline=None)
@given(games(odd=True), st.randoms(use_true_random=False))
def test_full_board_has_exactly_one_satisfied_colour(game: Omny, rng) -> None:
    n = len(game.board)
    stones = [rng.choice((1, 2)) for _ in range(n)]
    assert len(satisfied_colours_reference(stones, game.board.neighbours, game.star_mask, *bounds(game))) == 1


@settings(max_examples=60, deadline=None)
@given(games(), st.data())
def test_win_condition_is_monotone_and_the_rules_stop_at_the_first(game: Omny, data: st.DataObject) -> None:
    order = data.draw(st.permutations(range(len(game.board))))
    stones = [0] * len(game.board)
    seen: set[int] = set()
    first = None
    for ply, cell in enumerate(order):
        stones[cell] = 1 + ply % 2
        now = satisfied_colours_reference(stones, game.board.neighbours, game.star_mask, *bounds(game))
        assert seen <= now  # once a colour has a satisfying group, it keeps one
        if first is None and now - seen:
            first = (ply, ply % 2)
            assert now - seen == {ply % 2}  # only the mover can newly satisfy the condition
        seen = now
    assert seen, "a full board always satisfies someone"
    state = game.new_state()
    for cell in order:
        if state.is_over:
            break
        state.play(game.board.labels[cell])
    assert first is not None and state.ply == first[0] + 1 and state.winner == game.colours[first[1]]


def random_game(game: Omny, rng, stop: int | None = None) -> OmnyState:
    """A random game through the API (komi choice and swaps included), possibly cut short."""
    state = game.new_state(["ann", "bob"])
    while not state.is_over and (stop is None or state.ply < stop):
        state.play(rng.choice(state.legal_moves()), t=1000.0 + state.ply)
    return state


def exact(state: OmnyState) -> tuple:
    return (
        state.stones.tobytes(),
        state.turn,
        state.to_move,
        state.placements,
        state.swapped,
        dict(state.owner),
        state.seats,
        [dict(e) for e in state.history],
        state.result,
        state.komi,
        state.winning_group,
    )


rule_options = st.fixed_dictionaries({"pie": st.booleans(), "komi_choice": st.booleans()})


def with_rules(game: Omny, rules: dict) -> Omny:
    komi = 0 if rules["komi_choice"] else game.options["komi"]
    return ogames.load("omny", **{**game.options, **rules, "komi": komi})


@settings(max_examples=40, deadline=None)
@given(games(), rule_options, st.randoms(use_true_random=False))
def test_undo_restores_the_previous_state(game: Omny, rules: dict, rng) -> None:
    state = random_game(with_rules(game, rules), rng)
    snapshots = []
    replayed = state.game.new_state(state.players)
    for entry in state.history:
        snapshots.append(exact(replayed))
        replayed.replay_entry(entry)
    assert exact(replayed) == exact(state)
    while state.history:
        state.undo()
        assert exact(state) == snapshots[state.ply]


@settings(max_examples=40, deadline=None)
@given(games(), rule_options, st.randoms(use_true_random=False), st.booleans())
def test_record_round_trips(game: Omny, rules: dict, rng, finish: bool) -> None:
    state = random_game(with_rules(game, rules), rng, stop=None if finish else rng.randrange(0, 6))
    record = json.loads(json.dumps(state.record()))
    again = ogames.replay(record)
    assert exact(again) == exact(state)
    assert again.game.options == state.game.options
    assert again.record() == state.record()


OTHER = {"black": "white", "white": "black"}


def finished(options: dict, seed: int) -> dict:
    import random

    return random_game(ogames.load("omny", **options), random.Random(seed)).record()


def tamper_move(record: dict) -> None:
    last = record["moves"][-1]
    empty = next(m for m in ["a1", "b1", "c1", "a2", "b2", "a3", "d1", "c2", "b3", "a4"] if m != last["move"])
    last["move"] = empty


@pytest.mark.parametrize(
    ("options", "tamper", "message"),
    [
        ({"variant": "y", "size": 4}, lambda r: r["moves"][0].update(move="z9"), "z9"),
        ({"variant": "y", "size": 4}, lambda r: r["moves"][1].update(move=r["moves"][0]["move"]), "occupied"),
        ({"variant": "y", "size": 4}, tamper_move, "move"),
        ({"variant": "y", "size": 4}, lambda r: r["moves"][0].update(by="white"), "record says white moved"),
        ({"variant": "y", "size": 4}, lambda r: r["result"].update(winner=OTHER[r["result"]["winner"]]), "result"),
        ({"variant": "y", "size": 4}, lambda r: r["result"].update(reason="on time"), "result"),
        ({"variant": "y", "size": 4}, lambda r: r.update(result=None), "result"),
        ({"variant": "y", "size": 4}, lambda r: r["moves"][-1].update(group=["a1"]), "group"),
        ({"variant": "y", "size": 4}, lambda r: r["moves"].pop(), "result"),
        ({"variant": "y", "size": 4}, lambda r: r["options"].update(komi=7), "komi"),
        ({"variant": "y", "size": 4}, lambda r: r["options"].update(shape="triangle"), "shape"),
        ({"variant": "y", "size": 4, "pie": True}, lambda r: r["moves"].insert(2, {"move": "swap", "by": "black"}), "swap"),
        ({"variant": "y", "size": 4, "pie": True}, lambda r: r.update(seats={c: r["seats"][OTHER[c]] for c in OTHER}), "seats"),
        ({"variant": "y", "size": 4, "komi_choice": True}, lambda r: r["moves"][0].update(move="komi=9"), "komi"),
        ({"variant": "y", "size": 4, "komi_choice": True}, lambda r: r["moves"].pop(0), "black's turn"),
        ({"variant": "y", "size": 4, "komi_choice": True}, lambda r: r["moves"][0].update(move="a1"), "choose komi"),
        ({"variant": "y", "size": 4, "komi_choice": True}, lambda r: r["moves"][0].update(by="white"), "record says white"),
    ],
)  # fmt: skip
def test_tampered_records_are_rejected(options: dict, tamper, message: str) -> None:
    record = finished(options, seed=3)
    ogames.replay(copy.deepcopy(record))  # the honest record is fine
    tamper(record)
    with pytest.raises(BadRecord, match=message):
        ogames.replay(record)


def test_a_record_of_a_komi_choice_game_carries_the_komi() -> None:
    state = ogames.load("omny", variant="y", size=4, komi_choice=True).new_state()
    state.play("komi=1.5")
    state.play("swap")
    record = state.record()
    assert record["moves"][0]["move"] == "komi=1.5" and record["moves"][1]["move"] == "swap"
    again = ogames.replay(record)
    assert again.komi == 1.5 and again.seats == state.seats and again.to_move == "white"
