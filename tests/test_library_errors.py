"""The library raises only its own errors for what a caller gives it: any options to `ogames.load`
(and the state they make), any settings to `ogames.player`, a player asked to move where it cannot.
Each is an `OgamesError` (and a `ValueError`, as the errors have always been)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ogames
from ogames.players import _SETTINGS, KINDS, TURN_KINDS

GAMES = [g["name"] for g in ogames.games()]
OPTIONS = {g["name"]: g["options"] for g in ogames.games()}

# Text that means something somewhere: numbers, flags, card codes, labels, lists, edge cases.
WORDS = ["", " ", "0", "1", "-1", "2", "3", "5", "1.5", "1e999", "nan", "inf", "on", "off", "standard", "AB/^ BA\\v",
         "AB/^", "a1,a2,b1", "3,4", "5x6", "e5", "sunder", "kids", "toddler", "zen", "polar", "club", "expert", "x" * 700]
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(WORDS),
    st.lists(st.one_of(st.integers(-3, 60), st.sampled_from(WORDS)), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.binary(max_size=4),
    st.builds(object),
)


def near_values(option: dict[str, Any]) -> list[Any]:
    """Values near what an option takes: its default and choices, numbers at and around its range,
    the flag words, blank or short text."""
    near: list[Any] = [option["default"], *option.get("choices", [])]
    for bound in (option.get("minimum"), option.get("maximum")):
        if bound is not None:
            near += [int(bound) - 1, int(bound), int(bound) + 1, str(int(bound))]
    near += {
        "bool": [True, False, "on", "off", 2],
        "half": [0, 0.5, 2.5, "3.5", 0.25],
        "text": ["", " ", ",", "standard", "1"],
        "labels": ["", ",", "a1", ["a1", "a1"], "a1 b2 c3"],
        "ints": ["", "5", "5,6", [5, 6, 7], "0,0"],
    }.get(option["kind"], [])
    return near


@st.composite
def option_value(draw: st.DrawFn, option: dict[str, Any]) -> Any:
    """Mostly a value near what the option takes (so that the other options of a call often pass
    and the odd one is reached), else any value at all."""
    if draw(st.integers(0, 3)) == 0:
        return draw(ANY_VALUE)
    return draw(st.sampled_from(near_values(option)))


@st.composite
def options_of(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """Some of a game's options with any values, and now and then one it does not have."""
    known = OPTIONS.get(name, [])
    chosen = draw(st.lists(st.sampled_from(known), unique_by=lambda o: o["name"], max_size=4)) if known else []
    options = {o["name"]: draw(option_value(o)) for o in chosen}
    if draw(st.integers(0, 4)) == 0:
        options[draw(st.sampled_from(["colour", "Size", "seed ", "boardsize"]))] = draw(ANY_VALUE)
    return options


@st.composite
def player_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    kind = draw(st.sampled_from([*KINDS, "alphazero", "MCTS", "mcts:iterations=5", "uct:think=x", "random:seed"]))
    known = sorted(_SETTINGS.get(kind.partition(":")[0].lower(), {}))
    keys = draw(st.lists(st.sampled_from(known), unique=True, max_size=4)) if known else []
    chosen = {key: draw(ANY_VALUE) for key in keys}
    if draw(st.booleans()):
        chosen[draw(st.sampled_from(["depth", "Think", "speed"]))] = draw(ANY_VALUE)
    return kind, chosen


@pytest.mark.parametrize("name", [*GAMES, "chess"])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_options_give_a_game_or_an_ogames_error(name: str, data: st.DataObject) -> None:
    options = data.draw(options_of(name))
    try:
        game = ogames.load(name, **options)
        game.new_state()
    except ogames.OgamesError as exc:
        assert isinstance(exc, ValueError) and str(exc)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(player_calls())
def test_any_settings_give_a_player_or_an_ogames_error(call: tuple[str, dict[str, Any]]) -> None:
    kind, chosen = call
    try:
        ogames.player(kind, **chosen)
    except ogames.OgamesError as exc:
        assert isinstance(exc, ValueError) and str(exc)


def test_an_empty_card_set_is_a_bad_option() -> None:
    for cards in ("", "  ", ","):
        with pytest.raises(ogames.BadOption, match="at least one design"):
            ogames.load("omiga", cards=cards)


def _over() -> ogames.State:
    state = ogames.load("oddy", size=3).new_state()
    state.play("resign")
    return state


# (what the state is, a fresh one, the kinds that cannot move in it, what the message says)
STATES = [
    ("real-time Omiga", lambda: ogames.load("omiga", seed=1).new_state(), ("mcts", "uct", "solver"), "real-time"),
    ("a game that is over", _over, ("random", "mcts", "uct", "solver"), "no (legal )?move"),
]


@pytest.mark.parametrize("kind", [k for k in TURN_KINDS if k != "human"])
@pytest.mark.parametrize(("what", "make", "refusing", "message"), STATES, ids=[s[0] for s in STATES])
def test_a_player_asked_to_move_where_it_cannot_raises_cannot_play(kind, what, make, refusing, message) -> None:
    state = make()
    before = state.record()
    player = ogames.player(kind, iterations=8, seed=1) if kind != "random" else ogames.player(kind, seed=1)
    if kind not in refusing:
        player.choose(state)
        return
    with pytest.raises(ogames.CannotPlay, match=message):
        player.choose(state)
    assert state.record() == before


def test_a_person_without_a_way_to_ask_cannot_play() -> None:
    with pytest.raises(ogames.CannotPlay, match="ask"):
        ogames.player("human").choose(ogames.load("omny", size=3).new_state())
