"""Option specs: coercion, validation messages and descriptions shared by every game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ogames.errors import BadOption
from ogames.rules.options import Option, OptionSet

SPECS = OptionSet(
    (
        Option("size", "int", 5, "board side", minimum=2, maximum=19),
        Option("pie", "bool", False, "pie rule"),
        Option("variant", "choice", "y", "board", choices=("sunder", "y", "free-y")),
        Option("komi", "half", 0, "komi", minimum=0),
        Option("cells", "labels", None, "explicit cells"),
        Option("sides", "ints", (5, 6), "side lengths"),
    )
)


def test_defaults_fill_in():
    assert SPECS.parse("g", {}) == {"size": 5, "pie": False, "variant": "y", "komi": 0, "cells": None, "sides": (5, 6)}


def test_text_values_from_the_command_line_are_coerced():
    got = SPECS.parse("g", {"size": "7", "pie": "on", "variant": "FREE-Y", "komi": "3.5", "cells": "a1, b2", "sides": "4,5"})
    assert got == {"size": 7, "pie": True, "variant": "free-y", "komi": 3.5, "cells": ("a1", "b2"), "sides": (4, 5)}
    assert SPECS.parse("g", {"komi": "2"})["komi"] == 2
    assert isinstance(SPECS.parse("g", {"komi": 2.0})["komi"], int)


@pytest.mark.parametrize(
    ("given_options", "message"),
    [
        ({"siz": 5}, "did you mean size"),
        ({"colour": 5}, "known: size"),
        ({"size": 1}, "at least 2"),
        ({"size": 20}, "at most 19"),
        ({"size": "five"}, "whole number"),
        ({"size": True}, "whole number"),
        ({"size": 5.5}, "whole number"),
        ({"pie": "maybe"}, "on or off"),
        ({"variant": "hex"}, "choose one of sunder, y, free-y"),
        ({"komi": 0.25}, "plus 0.5"),
        ({"komi": "abc"}, "plus 0.5"),
        ({"komi": -1}, "at least 0"),
        ({"cells": []}, "list of cell labels"),
        ({"sides": "a,b"}, "whole number"),
    ],
)
def test_bad_options_name_the_option_and_reason(given_options, message):
    with pytest.raises(BadOption, match=message):
        SPECS.parse("g", given_options)


@given(st.integers(-100, 100).map(lambda k: k / 2))
def test_half_values_round_trip(value):
    option = Option("komi", "half", 0, "komi")
    got = option.coerce(str(value))
    assert got == value
    assert option.coerce(got) == got


def test_describe_is_json_ready():
    described = SPECS.describe()
    assert [d["name"] for d in described] == ["size", "pie", "variant", "komi", "cells", "sides"]
    assert described[2]["choices"] == ["sunder", "y", "free-y"]
    assert described[0]["minimum"] == 2 and described[0]["maximum"] == 19


def test_an_option_for_some_variants_is_refused_for_the_others():
    specs = OptionSet(
        (
            Option("variant", "choice", "a", "variant", choices=("a", "b")),
            Option("depth", "int", None, "only for b", minimum=1, applies_to=("b",)),
        )
    )
    assert specs.parse("g", {"variant": "b", "depth": "3"})["depth"] == 3
    assert specs.parse("g", {"variant": "a"})["depth"] is None  # not given: fine
    assert specs.parse("g", {"variant": "a", "depth": None})["depth"] is None  # as records store it
    with pytest.raises(BadOption, match="option depth=3 does not apply to g variant=a"):
        specs.parse("g", {"depth": 3})
    assert specs.describe()[1]["applies_to"] == ["b"]
