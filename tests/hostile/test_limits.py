"""Size limits: every game refuses boards, cell lists and option text beyond generous caps with a
BadOption naming the cap (and says the cap in its option help); the caps themselves load; error
messages never grow with the input."""

from __future__ import annotations

import time

import pytest

import ogames
from ogames.boards.hexes import format_label
from ogames.errors import MESSAGE_LIMIT, SHOWN, BadOption, IllegalMove, UnknownLabel, shown
from ogames.rules.omny import MAX_CELLS
from ogames.rules.options import MAX_ITEMS, MAX_TEXT


def rhombus_labels(columns: int, rows: int) -> list[str]:
    return [format_label(x, y) for y in range(rows) for x in range(columns)]


@pytest.mark.parametrize(
    ("game", "options", "fragment"),
    [
        ("omny", {"size": 31}, "size=31 is not valid: it must be at most 30"),
        ("omny", {"variant": "free-y", "sides": "5,31"}, "from 2 to 30"),
        ("omny", {"variant": "custom", "shape": "rhombus", "size": 10**9}, "at most 30"),
        ("omny", {"variant": "custom", "cells": rhombus_labels(300, 300)}, f"at most {MAX_CELLS} entries"),
        ("omny", {"variant": "custom", "cells": " ".join(rhombus_labels(300, 300))}, "at most 24000 characters"),
        ("omny", {"variant": "custom", "cells": rhombus_labels(55, 55)}, f"at most {MAX_CELLS} entries"),
        ("omny", {"variant": "custom", "stars": ["a1"] * 3001}, f"at most {MAX_CELLS} entries"),
        ("omny", {"komi": "1e999999999"}, "written like 3 or 3.5"),
        ("omny", {"komi": float("inf")}, "a whole number or a whole number plus 0.5"),
        ("omny", {"variant": "y" * 1000}, f"at most {MAX_TEXT} characters"),
        ("oddy", {"sides": 27}, "at most 25"),
        ("oddy", {"sides": 5, "size": 31}, "at most 30"),
        ("omega", {"size": 13}, "at most 12"),
        ("omega", {"size": 3}, "at least 4"),
        ("omega", {"players": 5}, "at most 4"),
        ("omiga", {"width": 53}, "at most 52"),
        ("omiga", {"height": 10**100}, "at most 52"),
        ("omiga", {"seed": 2**53}, "at most 9007199254740991"),
        ("omiga", {"variant": "zen", "form": "f" * 41}, "at most 40 characters"),
        ("omiga", {"cards": "AB/^ " * 200}, "at most 600 characters"),
        ("onyx", {"pie": "x" * 10_000}, f"at most {MAX_TEXT} characters"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None,
)
def test_beyond_the_caps_is_a_bad_option_naming_the_cap(game, options, fragment):
    start = time.perf_counter()
    with pytest.raises(BadOption, match=fragment.replace("(", r"\(").replace("+", r"\+")) as caught:
        ogames.load(game, **options)
    assert len(str(caught.value)) <= 300
    assert time.perf_counter() - start < 5  # refused before anything large is built


def test_the_caps_themselves_load_and_play():
    big = ogames.load("omny", variant="custom", cells=rhombus_labels(50, 60))
    assert len(big.board) == MAX_CELLS
    state = big.new_state()
    state.play("a1")
    assert ogames.load("omny", variant="sunder", size=30).new_state().legal_moves()
    assert len(ogames.load("oddy", sides=25, size=30).board) == 25 * 30 * 29 // 2 + 1
    assert ogames.load("omega", size=12, players=4).new_state().legal_moves()
    assert ogames.load("omiga", width=52, height=52, seed=2**53 - 1).new_state().legal_moves()


def test_option_help_says_the_caps():
    helps = {(g["name"], o["name"]): o for g in ogames.games() for o in g["options"]}
    assert "2 to 30" in helps["omny", "size"]["help"] and helps["omny", "size"]["maximum"] == 30
    assert f"{MAX_CELLS} connected cells" in helps["omny", "cells"]["help"]
    assert "each 2 to 30" in helps["omny", "sides"]["help"]
    assert "3 to 25" in helps["oddy", "sides"]["help"] and "2 to 30" in helps["oddy", "size"]["help"]
    assert "4 to 12" in helps["omega", "size"]["help"]
    assert "3 to 52" in helps["omiga", "width"]["help"] and "3 to 52" in helps["omiga", "height"]["help"]
    assert "2^53" in helps["omiga", "seed"]["help"] and "600 characters" in helps["omiga", "cards"]["help"]


def test_lists_are_bounded_for_every_list_option():
    with pytest.raises(BadOption, match=f"at most {MAX_ITEMS} entries"):
        ogames.load("omny", variant="free-y", sides=list(range(2, 2 + MAX_ITEMS + 1)))


# ----- messages do not grow with the input -------------------------------------------------------------


@pytest.mark.parametrize("size", [100, 100_000, 1_000_000])
def test_messages_stay_short_whatever_is_given(size):
    text = "q" * size
    state = ogames.load("omny").new_state()
    for call, error in [
        (lambda: state.play(text), IllegalMove),
        (lambda: state.stone_at(text), UnknownLabel),
        (lambda: ogames.load("omny", variant=text), BadOption),
        (lambda: ogames.load("omny", **{text: 1}), BadOption),
        (lambda: ogames.load(text), BadOption),
        (lambda: ogames.load("omega").new_state().play(text), IllegalMove),
        (lambda: ogames.load("omiga", seed=1).new_state().play(text), IllegalMove),
        (lambda: ogames.replay(text), ogames.BadRecord),
    ]:
        with pytest.raises(error) as caught:
            call()
        message = str(caught.value)
        assert len(message) <= MESSAGE_LIMIT and message.count("q" * (SHOWN + 1)) == 0
    assert state.ply == 0


def test_shown_quotes_briefly():
    assert shown("c3") == "'c3'"
    assert shown("x" * 100) == f"{'x' * SHOWN!r}… (100 characters)"
    assert shown(list(range(1000))).endswith("… (list of 1000)")
    assert shown(10**5000) == "<int>"  # too many digits even to write
