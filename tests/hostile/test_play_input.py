"""Hostile input to `State.play` and `State.resign`, for every game and Omiga mode: a bad move or a
bad time is refused with IllegalMove naming what was wrong, before anything changes; messages
never echo more than a few dozen characters of what was given."""

from __future__ import annotations

import math

import pytest
from hostile_helpers import GAMES, MODE_IDS, MODES, ongoing, played, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import MESSAGE_LIMIT, IllegalMove
from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.protocol import MAX_MOVE

BAD_TIMES = [
    ("abc", "not a number of seconds"),
    (float("nan"), "is not a time"),
    (float("inf"), "is not a time"),
    (-math.inf, "is not a time"),
    (True, "not a number of seconds"),
    (False, "not a number of seconds"),
    (10**400, "is not a time"),
    (1e300, "is not a time"),
    (-0.5, "is not a time"),
    ([1.0], "not a number of seconds"),
    (1 + 2j, "not a number of seconds"),
]


def a_legal_move(state: ogames.State) -> str:
    return state.legal_moves()[0]


@pytest.fixture(params=MODES, ids=MODE_IDS)
def state(request) -> ogames.State:
    _, name, options = request.param
    return ongoing(name, options, moves=5)


@pytest.mark.parametrize(("t", "message"), BAD_TIMES, ids=[repr(t)[:12] for t, _ in BAD_TIMES])
def test_a_legal_move_with_a_bad_time_changes_nothing(state, t, message):
    """`play("c3", t="abc")` once placed the stone and then raised; NaN and inf were accepted."""
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=message) as caught:
        state.play(a_legal_move(state), t=t)
    assert "time t=" in str(caught.value)
    assert snapshot(state) == before


@pytest.mark.parametrize(("t", "message"), BAD_TIMES[:6], ids=[repr(t)[:12] for t, _ in BAD_TIMES[:6]])
def test_resigning_with_a_bad_time_changes_nothing(state, t, message):
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=message):
        if isinstance(state, RealtimeState):
            state.play(f"{state.actors[0]}: resign", t=t)
        else:
            state.play("resign", t=t)
    with pytest.raises(IllegalMove, match=message):
        state.resign(state.game.colours[0], t=t)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (None, "a move must be text"),
        (3, "a move must be text"),
        (b"c3", "a move must be text"),
        (["c3"], "a move must be text"),
        ("x" * 100_000, f"at most {MAX_MOVE} characters"),
        ("", None),
        ("   ", None),
        ("zz99", None),
        ("\x00", None),
        ("[bold]a1[/]", None),
        ("komi=1e999999999", None),
        ("place 99999999999999999999 a1", None),
    ],
    ids=["none", "int", "bytes", "list", "100kB", "empty", "blank", "off-board", "nul", "markup", "komi-exp", "big-card"],
)
def test_junk_moves_are_refused_and_change_nothing(state, move, message):
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=message) as caught:
        state.play(move)
    assert len(str(caught.value)) <= MESSAGE_LIMIT
    assert snapshot(state) == before


def test_a_huge_move_is_quoted_once_and_briefly():
    state = ogames.load("omny").new_state()
    move = "q" * 100_000
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    text = str(caught.value)
    assert len(text) < 200 and text.count("q" * 40) == 1 and "100000 characters" in text
    # Also where the rules, not the length check, refuse it (Omega reads the words itself).
    omega = ogames.load("omega").new_state()
    with pytest.raises(IllegalMove) as caught:
        omega.play(" ".join(["a1"] * 30_000))
    assert len(str(caught.value)) < 300


def test_a_label_of_any_length_is_refused_quickly_and_briefly():
    state = ogames.load("omny").new_state()
    with pytest.raises(ogames.UnknownLabel) as caught:
        state.stone_at("z" * 1_000_000 + "1")
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("colour", ["purple", None, 5, ["black"], "b" * 10_000])
def test_resigning_an_unknown_colour_changes_nothing(colour):
    state = played("omny", {"variant": "y", "size": 5}, moves=3)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="is not a colour in this game") as caught:
        state.resign(colour if colour is not None else "nobody")
    assert len(str(caught.value)) < 200
    assert snapshot(state) == before


def test_nothing_may_be_played_after_the_end(state):
    while not state.is_over:
        state.play(a_legal_move(state), t=state.ply + 1.0)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play("resign" if not isinstance(state, RealtimeState) else f"{state.actors[0]}: discard", t=1e9)
    with pytest.raises(IllegalMove, match="the game is over"):
        state.resign(state.game.colours[0])
    assert snapshot(state) == before


def test_good_times_are_kept_to_the_millisecond():
    state = ogames.load("omny").new_state()
    state.play("a1", t=0)
    state.play("b1", t=12.34567)
    assert [e["t"] for e in state.history] == [0.0, 12.346]


def test_real_time_submit_refuses_a_bad_clock_without_logging_it():
    state = played("omiga", {"seed": 5, "width": 7, "height": 5}, moves=3)
    before = snapshot(state)
    for t in ("soon", float("nan"), 10**400, True):
        with pytest.raises(IllegalMove, match="time t="):
            state.submit("white", "discard", t)
    assert snapshot(state) == before
    with pytest.raises(IllegalMove, match="actions arrive in order"):
        state.play("white: discard", t=0.0)
    assert snapshot(state) == before


_JUNK = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["a1", "c3", "swap", "resign", "komi=2", "discard", "place a1", "white: discard", "b1*", "o", "c2-1"]),
    st.binary(max_size=8),
    st.integers(),
    st.floats(),
    st.none(),
    st.lists(st.integers(), max_size=2),
)
_TIMES = st.one_of(st.none(), st.floats(), st.integers(-(10**30), 10**30), st.text(max_size=5), st.booleans())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), move=_JUNK, t=_TIMES, prefix=st.sampled_from(["", "white: ", "black: ", "WHITE:"]))
def test_random_junk_is_played_whole_or_refused_with_nothing_changed(game, move, t, prefix):
    """Whatever is passed: either the move is made (one more history entry, a good time) or
    IllegalMove is raised and the state is exactly as before — never another exception."""
    _, name, options = game
    state = ongoing(name, options, moves=4)
    text = prefix + move if isinstance(move, str) else move
    before, ply = snapshot(state), state.ply
    try:
        state.play(text, t=t)
    except IllegalMove as exc:
        assert len(str(exc)) <= MESSAGE_LIMIT
        assert snapshot(state) == before
        return
    assert state.ply == ply + 1 or (name == "omega" and state.ply == ply)  # Omega extends a turn's entry
    stamp = state.history[-1].get("t")
    assert isinstance(stamp, float) and math.isfinite(stamp)
