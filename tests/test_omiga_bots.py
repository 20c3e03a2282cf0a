"""Omiga bots and matches on the simulated clock; records of bot games replay exactly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadRecord
from ogames.rules.omiga.bots import REACTION, Bot, reaction_seconds
from ogames.rules.omiga.match import play_game, run_match


def test_reaction_scale_and_specs():
    assert reaction_seconds("toddler") > reaction_seconds("club") > reaction_seconds("machine")
    assert list(REACTION.values()) == sorted(REACTION.values(), reverse=True)
    assert Bot.make("random@0.5") == Bot("random", 0.5)
    assert Bot.make("racer@expert").reaction == REACTION["expert"]
    with pytest.raises(ValueError, match="unknown reaction"):
        Bot.make("racer@sloth")
    with pytest.raises(ValueError, match="unknown strategy"):
        Bot.make("cheat@1")


def test_fast_bot_beats_slow_bot_clearly():
    report = run_match(Bot.make("racer@expert"), Bot.make("racer@toddler"), games=20, seed=11)
    assert report.games == 20
    assert report.wins[0] >= 16 and report.wins[0] > 3 * report.wins[1]


@pytest.mark.xfail(reason="not yet: at equal speed threats appear and are taken within one reaction, so one-ply blocking "
                   "comes too late; the racer needs two-ply anticipation", strict=False)
def test_strategic_bot_beats_random_bot_at_equal_speed():
    report = run_match(Bot.make("racer@1"), Bot.make("random@1"), games=80, seed=100)
    assert report.wins[0] > report.wins[1] + 10, report.wins


def test_match_is_reproducible():
    a = run_match(Bot.make("racer@1"), Bot.make("random@1.5"), games=3, seed=5)
    b = run_match(Bot.make("racer@1"), Bot.make("random@1.5"), games=3, seed=5)
    assert a.records == b.records and a.wins == b.wins


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["base", "2v2"]), fast=st.sampled_from(list(REACTION)))
def test_bot_game_records_replay_exactly(seed, variant, fast):
    state = ogames.load("omiga", variant=variant, seed=seed, target=2).new_state()
    bots = {a: Bot.make(f"racer@{fast}") if i % 2 == 0 else Bot.make("random@1") for i, a in enumerate(state.actors)}
    play_game(state, bots, seed, max_time=300)
    record = json.loads(json.dumps(state.record()))
    again = ogames.replay(record)
    assert again.history == state.history and again.result == state.result
    assert again.table.faces == state.table.faces and again.hands == state.hands
    assert again.record()["moves"] == record["moves"]


def test_tampered_record_is_rejected():
    state = ogames.load("omiga", seed=8).new_state()
    play_game(state, {a: Bot.make("racer@1") for a in state.actors}, 8)
    record = state.record()
    record["moves"][0]["by"] = "black" if record["moves"][0]["by"] == "white" else "white"
    with pytest.raises(BadRecord, match="move 1"):
        ogames.replay(record)
