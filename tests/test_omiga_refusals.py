"""Omiga refuses what cannot be played at `load`, with a clear BadOption; declares a draw that
holds on the start in every mode; 2v2 rounds always start and three scoreless rounds draw the
match; options apply to their variants only, with one default each; random playouts of the
real-time modes go through the authority."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import ogames
from ogames.cli.app import app
from ogames.errors import BadOption, BadRecord, IllegalMove
from ogames.rules.omiga.base_variant import colour_rng, lay_start
from ogames.rules.omiga.cards import STANDARD, CardSet
from ogames.rules.omiga.deck import Supply
from ogames.rules.omiga.game import unplayable
from ogames.rules.omiga.table import Table
from ogames.rules.omiga.teams import SCORELESS_ROUNDS
from ogames.rules.omiga.zen.forms import DEFAULT_FORM, form_named
from ogames.rules.omiga.zen.state import ZenState

CODES = [face.code for face in STANDARD.designs]


# ----- load refuses what cannot be played ---------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cards": "AB/^"}, "nobody could ever lay a card"),
        ({"variant": "kids", "cards": "AB/^"}, "nobody could ever lay a card"),
        ({"variant": "toddler", "cards": "AB/^"}, "nobody could ever lay a card"),
        ({"variant": "2v2", "cards": "AA// BB\\\\"}, "nobody could ever lay a card"),
        ({"cards": "AA// AB/^"}, "no card fits below AB/^"),
        ({"variant": "2v2", "cards": "AA// AB/^"}, "no card fits below AB/^"),
        ({"variant": "toddler", "players": 6, "width": 5}, "toddler gives each player a column"),
        ({"variant": "toddler", "players": 4, "width": 3}, "the table is 3 wide"),
        ({"variant": "zen", "form": "unicorn"}, "unknown zen form 'unicorn'"),
        ({"variant": "zen", "form": ""}, "unknown zen form"),
    ],
)
def test_load_refuses_what_cannot_be_played(options, message):
    with pytest.raises(BadOption, match=re.escape(message)):
        ogames.load("omiga", seed=1, **options)


def test_a_start_card_set_refused_for_the_base_game_is_fine_where_nobody_lays_below_a_first_card():
    # AB/^ has a point below it that no card takes: the base game and 2v2 could not start with it
    # as White's first card; kids and toddler start at the home edges and may use the set.
    assert unplayable(CardSet(tuple(map(_face, ["AA//", "AB/^"]))), "base")
    for variant in ("kids", "toddler"):
        state = ogames.load("omiga", variant=variant, seed=1, cards="AA// AB/^").new_state()
        assert len(state.table) >= 2


def _face(code):
    from ogames.rules.omiga.cards import Face

    return Face.from_code(code)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(CODES), min_size=1, max_size=6), st.booleans(), st.integers(0, 10**6))
def test_every_start_of_an_accepted_card_set_succeeds(codes, turning, seed):
    """What `load` accepts for the base game and 2v2 starts every game and every round: so no 2v2
    action can fail half-way inside a new round's start."""
    cards = " ".join(sorted(codes))
    try:
        game = ogames.load("omiga", variant="2v2", seed=seed, cards=cards, turning=turning)
    except BadOption as exc:
        assert "nobody could ever lay" in str(exc) or "could not start" in str(exc)
        return
    for round_number in range(1, 8):
        table = Table(15, 10, game.card_set)
        supplies = {c: Supply(len(game.card_set), colour_rng(seed, c, round_number)) for c in ("white", "black")}
        lay_start(table, supplies, colour_rng(seed, "start", round_number))
        assert len(table) == 2


@settings(max_examples=15, deadline=None)
@given(st.sets(st.sampled_from(CODES), min_size=2, max_size=5), st.integers(0, 10**6))
def test_every_legal_2v2_action_is_accepted_whole(codes, seed):
    """Random legal actions through small card sets (rounds end often): none raises, the match ends
    (a win or three scoreless rounds), and its record replays."""
    try:
        state = ogames.load("omiga", variant="2v2", seed=seed, cards=" ".join(sorted(codes)), target=2).new_state()
    except BadOption:
        return
    rng = random.Random(seed)
    for _ in range(3000):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()), t=state.clock + 1)
    if state.is_over:
        again = ogames.replay(json.loads(json.dumps(state.record())))
        assert again.result == state.result and again.round_log == state.round_log


# ----- a draw that holds on the start -------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"variant": "base", "cards": "AA// BB//", "seed": 0}, "white has no cards left but the hand and none can be placed"),
        ({"variant": "kids", "cards": "AA// BB/\\", "seed": 3}, "white has run out of cards: none of them can be placed"),
        (
            {"variant": "kids", "pace": "turns", "cards": "AA// BB/\\", "seed": 3},
            "white has run out of cards: none of them can be placed",
        ),
        ({"variant": "toddler", "cards": "AA// BB\\/", "seed": 2}, "no player can place any card they still own"),
        ({"variant": "2v2", "cards": "AA// BB//", "seed": 0}, f"{SCORELESS_ROUNDS} scoreless rounds in a row"),
    ],
)
def test_a_draw_that_holds_on_the_start_is_declared_in_every_mode(options, reason):
    state = ogames.load("omiga", **options).new_state()
    assert state.is_over and state.winner == "draw" and reason in state.result.reason
    assert state.history == [] and state.legal_moves() == []
    assert ogames.replay(json.loads(json.dumps(state.record()))).result == state.result
    real_time = {"base": "white: discard", "kids": "white: discard", "2v2": "white1: discard"}
    move = "discard" if "pace" in options else real_time.get(options["variant"], "discard")
    with pytest.raises(IllegalMove, match="game is over"):
        state.play(move)


def test_zen_checks_its_end_on_the_start_too():
    state = ogames.load("omiga", variant="zen", seed=1).new_state()
    assert not state.is_over and state.legal_moves()  # full decks: nothing has ended


# ----- 2v2: three scoreless rounds in a row ---------------------------------------------------------
def test_three_scoreless_rounds_in_a_row_draw_the_match():
    state = ogames.load("omiga", variant="2v2", seed=0, cards="AA// BB//").new_state()
    assert state.round == SCORELESS_ROUNDS and [r["white"] + r["black"] for r in state.round_log] == [0, 0, 0]
    assert state.result.reason == "3 scoreless rounds in a row (0 to 0 after 3 rounds)"
    assert state.rewards() == [0.5] * 4


def test_a_scoring_round_starts_the_count_again():
    # White-box: end rounds by hand, as the rules do when both ends freeze.
    state = ogames.load("omiga", variant="2v2", seed=3).new_state()
    state._end_round()  # scoreless
    state._end_round()  # scoreless
    assert state.scoreless == 2 and not state.is_over
    state.round_points["black"] = 1
    state._end_round()  # black scores: the count starts again
    assert state.scoreless == 0 and not state.is_over and state.points["black"] == 1
    state._end_round()
    state._end_round()
    assert not state.is_over
    state._end_round()
    assert state.winner == "draw" and state.round == 6
    assert state.result.reason == "3 scoreless rounds in a row (0 to 1 after 6 rounds)"


# ----- options apply to their variants only; one default each ----------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variant": "zen", "width": 15}, "option width=15 does not apply to omiga variant=zen"),
        ({"variant": "zen", "height": 5}, "option height=5 does not apply to omiga variant=zen"),
        ({"variant": "zen", "cards": "standard"}, "option cards='standard' does not apply to omiga variant=zen"),
        ({"variant": "base", "form": "fly"}, "option form='fly' does not apply to omiga variant=base"),
        ({"variant": "kids", "target": 3}, "option target=3 does not apply to omiga variant=kids"),
        ({"variant": "base", "target": 7}, "option target=7 does not apply to omiga variant=base"),
        ({"variant": "2v2", "pace": "turns"}, "option pace='turns' does not apply to omiga variant=2v2"),
        ({"variant": "toddler", "pace": "realtime"}, "does not apply to omiga variant=toddler"),
    ],
)
def test_an_option_that_does_not_apply_is_refused(options, message):
    with pytest.raises(BadOption, match=re.escape(message)):
        ogames.load("omiga", seed=1, **options)


def test_options_settle_to_their_variants_defaults_and_records_replay():
    base = ogames.load("omiga", seed=1).options
    assert (base["width"], base["height"], base["cards"], base["target"], base["form"], base["pace"]) == (
        15, 10, "standard", None, None, None
    )
    assert ogames.load("omiga", variant="2v2", seed=1).options["target"] == 7
    assert ogames.load("omiga", variant="kids", seed=1).options["pace"] == "realtime"
    zen = ogames.load("omiga", variant="zen", seed=1).options
    assert (zen["width"], zen["height"], zen["cards"], zen["form"]) == (None, None, None, DEFAULT_FORM)
    for variant in ("base", "2v2", "kids", "toddler", "zen"):
        state = ogames.load("omiga", variant=variant, seed=2).new_state()
        assert ogames.replay(json.loads(json.dumps(state.record()))).game.options == state.game.options


def test_one_zen_form_default_everywhere():
    assert DEFAULT_FORM == "fly" and form_named("muha").key == "fly"  # «Муха»: its Latin spelling names it too
    assert ogames.load("omiga", variant="zen", seed=1).new_state().form.key == DEFAULT_FORM
    assert ogames.load("omiga", variant="zen", seed=1, form="Муха").options["form"] == "fly"  # stored by key
    describe = {o["name"]: o for o in ogames.load("omiga").describe()["options"]}
    assert DEFAULT_FORM in describe["form"]["help"] and describe["form"]["applies_to"] == ["zen"]

    class Bare:  # a game without options
        colours = ("white",)
        name = "omiga"

        def __init__(self):
            self.options = {}

    assert ZenState(Bare()).form.key == DEFAULT_FORM
    assert "[default: fly]" in CliRunner().invoke(app, ["omiga", "zen", "--help"]).output


def test_a_record_with_an_option_its_variant_does_not_use_is_a_bad_record():
    record = ogames.load("omiga", variant="zen", seed=1).new_state().record()
    record["options"]["width"] = 15
    with pytest.raises(BadRecord, match="width=15 does not apply"):
        ogames.replay(record)


# ----- random playouts of the real-time modes --------------------------------------------------------
@pytest.mark.parametrize("variant", ["base", "2v2", "kids"])
def test_random_playout_of_a_real_time_state_plays_through_the_authority(variant):
    state = ogames.load("omiga", variant=variant, seed=4, **({"target": 1} if variant == "2v2" else {})).new_state()
    before = state.record()
    rewards = state.random_playout(random.Random(5))
    assert len(rewards) == len(state.players) and sum(rewards) in (1.0, 2.0)
    assert state.record() == before  # played on a copy


def test_random_playout_says_clearly_when_nobody_can_act():
    state = ogames.load("omiga", seed=4).new_state()
    state.hands = {"white": [], "black": []}
    state.supplies["white"].cards.clear()
    state.supplies["black"].cards.clear()
    with pytest.raises(RuntimeError, match="no actor has a legal action"):
        state.random_playout(random.Random(1))
