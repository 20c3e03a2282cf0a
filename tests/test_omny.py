"""Omny (RULES.md §1): boards and stars of every variant, wins with and without komi, races,
the pie rule, komi choice, options and their validation, and bad input."""

from __future__ import annotations

import json
import re

import pytest

import ogames
from ogames import BadOption, IllegalMove
from ogames.rules.omny import Omny, OmnyState


def setup(game: Omny, black: list[str], white: list[str], to_move: str = "black") -> OmnyState:
    """A hand-built position: the stones put straight on the board, `to_move` to play next."""
    state = game.new_state()
    assert state.komi is not None, "hand-built positions need komi fixed by the options"
    for label in black:
        state.stones[state.board.index(label)] = 1
    for label in white:
        state.stones[state.board.index(label)] = 2
    state.turn = 0 if to_move == "black" else 1
    state.placements = len(black) + len(white)
    return state


def finish(game: Omny, black: list[str], white: list[str], last: str, to_move: str = "black") -> OmnyState:
    """Set up a position and play one more stone through the rules."""
    state = setup(game, black, white, to_move)
    state.play(last)
    return state


def snapshot(state: OmnyState) -> tuple:
    """Everything a move could change."""
    return (
        state.stones.tobytes(),
        state.turn,
        state.placements,
        state.swapped,
        dict(state.owner),
        [dict(e) for e in state.history],
        state.result,
        state.twice_komi,
        state.winning_group,
    )


# ----- boards and star cells -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "cells", "stars"),
    [
        ({}, 28, 3),  # y, default size 7: the three corners
        ({"variant": "y", "size": 5}, 15, 3),
        ({"variant": "sunder"}, 61, 61),  # hexagon 5, every cell
        ({"variant": "sunder", "size": 3}, 19, 19),
        ({"variant": "gyre"}, 61, 25),  # perimeter 24 + centre
        ({"variant": "gyre", "size": 3}, 19, 13),
        ({"variant": "free-y"}, 75, 27),  # sides 5, 6: perimeter 3·(5 + 6 − 2)
        ({"variant": "free-y", "sides": (2, 3)}, 12, 9),
        ({"variant": "custom"}, 61, 61),  # hexagon 5, all stars
        ({"variant": "custom", "shape": "triangle", "size": 4, "stars": "centre"}, 10, 1),
        ({"variant": "custom", "shape": "rhombus", "size": 3, "stars": "corners"}, 9, 4),
        ({"variant": "custom", "shape": "irregular", "sides": (2, 3), "stars": "perimeter"}, 12, 9),
        ({"variant": "custom", "shape": "hexagon", "size": 3, "stars": "perimeter+centre"}, 19, 13),
        ({"variant": "custom", "cells": "a1 b1 a2 b2 c2", "stars": ["A1", "c2"]}, 5, 2),
    ],
)
def test_board_and_star_count(options: dict, cells: int, stars: int) -> None:
    game = ogames.load("omny", **options)
    assert len(game.board) == cells
    assert game.total_stars == stars


def test_named_star_sets() -> None:
    assert ogames.load("omny", variant="y", size=5).star_labels == ["a1", "e1", "a5"]
    gyre = ogames.load("omny", variant="gyre", size=3)
    assert "c3" in gyre.star_labels and len(gyre.star_labels) == 13
    custom = ogames.load("omny", variant="custom", shape="rhombus", size=3, stars="corners")
    assert custom.star_labels == ["a1", "c1", "a3", "c3"]
    explicit = ogames.load("omny", variant="custom", shape="triangle", size=3, stars="C1,a1")
    assert explicit.options["stars"] == ("a1", "c1")
    assert explicit.star_labels == ["a1", "c1"]


def test_defaults_are_filled_and_json_ready() -> None:
    game = ogames.load("omny")
    assert game.options == {
        "variant": "y",
        "size": 7,
        "sides": None,
        "shape": None,
        "cells": None,
        "stars": None,
        "komi": 0,
        "pie": False,
        "komi_choice": False,
    }
    free = ogames.load("omny", variant="free-y")
    assert free.options["sides"] == (5, 6)
    custom = ogames.load("omny", variant="custom", cells="b1 a2 b2", stars="a2 b2")
    json.dumps(custom.jsonable_options())
    assert custom.options["cells"] == ("b1", "a2", "b2")
    assert ogames.load("omny", **custom.jsonable_options()).options == custom.options


def test_listed_in_games() -> None:
    (omny,) = [g for g in ogames.games() if g["name"] == "omny"]
    assert omny["variants"] == ["sunder", "y", "gyre", "free-y", "custom"]
    assert [o["name"] for o in omny["options"]] == [
        "variant", "size", "sides", "shape", "cells", "stars", "komi", "pie", "komi_choice",
    ]  # fmt: skip


# ----- option validation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variant": "hex"}, "variant"),
        ({"size": 1}, "at least 2"),
        ({"size": 31}, "at most 30"),
        ({"size": "big"}, "whole number"),
        ({"variant": "free-y", "size": 5}, "size=5 does not apply"),
        ({"variant": "y", "sides": (2, 3)}, "sides=[2, 3] does not apply to omny variant=y"),
        ({"variant": "y", "shape": "triangle"}, "shape='triangle' does not apply"),
        ({"variant": "sunder", "cells": "a1 b1"}, "cells=['a1', 'b1'] does not apply to omny variant=sunder"),
        ({"variant": "gyre", "stars": "all"}, "stars='all' does not apply"),
        ({"variant": "free-y", "sides": (5, 5)}, "odd number of perimeter"),
        ({"variant": "free-y", "sides": (3,)}, "two side lengths"),
        ({"variant": "free-y", "sides": (1, 2)}, "two side lengths"),
        ({"variant": "free-y", "sides": (2, 31)}, "two side lengths"),
        ({"variant": "custom", "shape": "triangle", "cells": "a1 b1"}, "shape='triangle' does not apply"),
        ({"variant": "custom", "shape": "irregular", "size": 4}, "size=4 does not apply"),
        ({"variant": "custom", "shape": "hexagon", "sides": (2, 3)}, "sides=(2, 3) does not apply"),
        ({"variant": "custom", "shape": "circle"}, "shape"),
        ({"variant": "custom", "cells": "a1 b1", "size": 3}, "size=3 does not apply"),
        ({"variant": "custom", "cells": "a1 zz"}, "option cells"),
        ({"variant": "custom", "cells": "a1 a1 b1"}, "twice"),
        ({"variant": "custom", "cells": "a1 c1"}, "connected"),
        ({"variant": "custom", "cells": "a1"}, "two cells"),
        ({"variant": "custom", "stars": "corner"}, "stars"),
        ({"variant": "custom", "stars": "perimeter+cornrs"}, "stars"),
        ({"variant": "custom", "stars": ""}, "stars"),
        ({"variant": "custom", "stars": 5}, "stars"),
        ({"variant": "custom", "shape": "triangle", "size": 3, "stars": "a1 q9"}, "'q9' is not a cell"),
        ({"variant": "custom", "shape": "triangle", "size": 3, "stars": "a1 A1"}, "named twice"),
        ({"variant": "custom", "shape": "triangle", "size": 5, "stars": "centre"}, "no single centre"),
        ({"variant": "custom", "shape": "rhombus", "size": 4, "stars": "perimeter+centre"}, "no single centre"),
        ({"variant": "custom", "stars": []}, "stars"),
        ({"komi": -1}, "at least 0"),
        ({"komi": 1.25}, "plus 0.5"),
        ({"komi": "x"}, "plus 0.5"),
        ({"komi": 2}, "at most half the star cells, 1.5"),
        ({"variant": "sunder", "size": 2, "komi": 4}, "at most half the star cells, 3.5"),
        ({"komi": 1, "komi_choice": True}, "komi_choice"),
        ({"pie": "maybe"}, "on or off"),
        ({"colour": "red"}, "no option"),
    ],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(BadOption, match=re.escape(message)):
        ogames.load("omny", **options)


def test_accepted_option_spellings() -> None:
    assert ogames.load("omny", variant="Free-Y", sides="4,5").options["sides"] == (4, 5)
    assert ogames.load("omny", komi="1.5").options["komi"] == 1.5
    assert ogames.load("omny", variant="sunder", size=3, komi=9.5).options["komi"] == 9.5  # exactly S/2
    spelled = ogames.load("omny", variant="custom", shape="triangle", size=4, stars="Center+corners")
    assert spelled.options["stars"] == "centre+corners"
    assert ogames.load("omny", pie="on", komi_choice="yes").options["pie"] is True


# ----- wins ------------------------------------------------------------------------------------


Y5 = {"variant": "y", "size": 5}
ROW = ["a1", "b1", "c1", "d1"]  # with e1: the bottom row, touching all three sides
ABOVE = ["a2", "b2", "c2", "d2"]


def test_y_win_without_komi_names_the_group() -> None:
    game = ogames.load("omny", **Y5)
    before = setup(game, ROW, ABOVE)
    assert not before.group_satisfies("a1")  # e1 and a5 still share a region
    state = finish(game, ROW, ABOVE, "e1")
    assert state.winner == "black"
    assert state.winning_group == ["a1", "b1", "c1", "d1", "e1"]
    assert "a1 b1 c1 d1 e1" in state.result.reason
    assert state.history[-1]["group"] == ["a1", "b1", "c1", "d1", "e1"]
    assert state.to_move is None and state.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        state.play("a3")


def test_y_komi_raises_blacks_bar_and_lowers_whites() -> None:
    game = ogames.load("omny", **Y5, komi=1)  # S + 2k = 5: Black needs every star in the group
    state = finish(game, ROW, ABOVE, "e1")
    assert state.result is None and state.winning_group is None
    white = finish(game, ["c3"], [], "a5", to_move="white")  # one corner leaves 2 ≤ S/2 + k
    assert white.winner == "white" and white.winning_group == ["a5"]


def test_y_win_through_the_api_on_a_default_board() -> None:
    state = ogames.load("omny").new_state()
    for move in ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "e2", "f1", "f2"]:
        state.play(move)
    assert state.result is None
    state.play("g1")
    assert state.winner == "black" and state.winning_group == ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]


SUNDER3_ROW = ["a3", "b3", "c3", "d3"]  # with e3: splits 19 stars 7 | 5 | 7


@pytest.mark.parametrize(("komi", "wins"), [(0, True), (2.5, True), (3, False)])
def test_sunder_line_across_the_board(komi: float, wins: bool) -> None:
    game = ogames.load("omny", variant="sunder", size=3, komi=komi)
    state = finish(game, SUNDER3_ROW, ["c1", "d1", "e1", "c5"], "e3")
    assert (state.winner == "black") is wins  # regions of 7 stars: 14 ≤ 19 − 2k
    if wins:
        assert state.winning_group == ["a3", "b3", "c3", "d3", "e3"]


def test_sunder_white_wins_with_komi() -> None:
    game = ogames.load("omny", variant="sunder", size=3, komi=3)
    # White's bar is S + 2k = 25: regions of up to 12 stars.  d1–d3 leaves one region of 16;
    # d4 completes a column from side to side, leaving regions of 12 and 3.
    state = finish(game, ["a3", "b3"], ["d1", "d2", "d3"], "d4", to_move="white")
    assert state.winner == "white" and state.winning_group == ["d1", "d2", "d3", "d4"]


def ring(game: Omny) -> list[str]:
    return sorted(game.board.labels[c] for c in game.board.cells("perimeter"))


def test_sunder_ring_touching_every_side_does_not_win() -> None:
    # The whole perimeter of a side-4 hexagon encloses 19 of the 37 stars: 2·19 > 37.
    game = ogames.load("omny", variant="sunder", size=4)
    cells = ring(game)
    assert len(cells) == 18
    last = cells.pop()
    state = finish(game, cells, ["d4", "c4"], last)
    group = {game.board.index(label) for label in [*cells, last]}
    assert all(group & game.board.cells(f"side{i}") for i in range(6))
    assert state.result is None and state.winning_group is None
    assert not state.group_satisfies(last)
    # A ring with a gap (17 cells) is no better: the gap joins the 19 inner stars, 2·20 > 37.
    gapped = finish(game, cells[1:], ["d4"], last)
    assert gapped.result is None


def test_sunder_big_ring_wins_on_a_small_board() -> None:
    # On a side-3 hexagon the ring leaves 7 of 19 stars inside: 14 ≤ 19.
    game = ogames.load("omny", variant="sunder", size=3)
    cells = ring(game)
    last = cells.pop()
    state = finish(game, cells, ["c3"], last)
    assert state.winner == "black" and len(state.winning_group) == 12


GYRE_Y = ["c1", "c2", "c3", "d3", "b4", "a5"]  # with e3: centre joined to three alternate corners


@pytest.mark.parametrize(("komi", "wins"), [(0, True), (3.5, True), (4, False)])
def test_gyre_group_touching_every_side(komi: float, wins: bool) -> None:
    # Each of the three regions holds 3 perimeter stars: a win iff 6 ≤ 13 − 2k.  Without komi a
    # gyre group touching every side always wins (a region holds at most 2n − 2 of 6n − 5 stars),
    # so a large komi is what makes such a group fall short.
    game = ogames.load("omny", variant="gyre", size=3, komi=komi)
    state = finish(game, GYRE_Y, ["b2", "d4"], "e3")
    group = {game.board.index(label) for label in [*GYRE_Y, "e3"]}
    assert all(group & game.board.cells(f"side{i}") for i in range(6))
    assert (state.winner == "black") is wins
    assert state.group_satisfies("e3") is wins


def test_gyre_same_group_wins_for_white_with_komi() -> None:
    game = ogames.load("omny", variant="gyre", size=3, komi=4)  # White's bar: 13 + 8 = 21
    state = finish(game, ["b2", "d4", "a3"], GYRE_Y, "e3", to_move="white")
    assert state.winner == "white"


FREE_Y = {"variant": "free-y", "sides": (2, 3)}  # 12 cells, 9 perimeter stars


@pytest.mark.parametrize(("komi", "wins"), [(0, True), (0.5, True), (1, False)])
def test_free_y_column(komi: float, wins: bool) -> None:
    # The column c1–c4 holds 2 stars and leaves regions of 3 and 4: a win iff 8 ≤ 9 − 2k.
    game = ogames.load("omny", **FREE_Y, komi=komi)
    state = finish(game, ["c1", "c2", "c3"], ["b3", "d2"], "c4")
    assert (state.winner == "black") is wins


def test_free_y_white_wins_with_komi() -> None:
    game = ogames.load("omny", **FREE_Y, komi=1)  # White's bar 11: regions of up to 5 stars
    state = finish(game, ["a3"], ["c1", "c2"], "c3", to_move="white")
    assert state.result is None  # c4 still joins east and west: one region of 8 stars
    state = finish(game, ["a3"], ["c1", "c2", "c3"], "c4", to_move="white")
    assert state.winner == "white" and state.winning_group == ["c1", "c2", "c3", "c4"]


def test_custom_triangle_with_perimeter_stars() -> None:
    game = ogames.load("omny", variant="custom", shape="triangle", size=4, stars="perimeter")  # 9 stars
    # b1 b2 b3 (x = 1, bottom side to hypotenuse) leaves regions a1–a4 (4 stars) and c1 d1 c2 (3).
    before = finish(game, ["b1"], ["d1"], "b2")
    assert before.result is None  # a1–a4 still join c1 d1 c2 round b3: 7 stars
    state = finish(game, ["b1", "b2"], ["d1"], "b3")
    assert state.winner == "black" and state.winning_group == ["b1", "b2", "b3"]


def test_custom_centre_star_alone() -> None:
    game = ogames.load("omny", variant="custom", shape="triangle", size=4, stars="centre")  # S = 1: b2
    state = finish(game, [], [], "b2")  # the star inside the group counts for no region
    assert state.winner == "black" and state.winning_group == ["b2"]
    game = ogames.load("omny", variant="custom", shape="triangle", size=4, stars="centre", komi=0.5)
    state = finish(game, [], [], "a1")  # Black's bar is S − 2k = 0: the star must be in the group
    assert state.result is None
    state.play("d1")  # White's bar is 2: a region may hold the one star
    assert state.winner == "white" and state.winning_group == ["d1"]


def test_custom_explicit_cells_and_stars() -> None:
    game = ogames.load("omny", variant="custom", cells="a1 b1 c1 a2 b2", stars="a1 c1 a2")
    state = finish(game, [], ["a2"], "b1")  # b1 cuts a1 (with a2) from c1: 2 and 1 of 3 stars
    assert state.result is None  # 2·2 > 3
    state = finish(game, ["a1"], ["c1"], "b1")  # group a1 b1: b2 still joins a2 and c1 (2 stars)
    assert state.result is None
    state = finish(game, ["a1", "b2"], ["c1"], "b1")  # group a1 b1 b2: regions {a2}, {c1}
    assert state.winner == "black" and state.winning_group == ["a1", "b1", "b2"]


def test_custom_rhombus_corners_with_komi() -> None:
    game = ogames.load("omny", variant="custom", shape="rhombus", size=3, stars="corners", komi=0.5)  # S = 4
    # Black's bar 3: at most 1 star per region.  The anti-diagonal a3 b2 c1 holds two corners and
    # separates a1 from c3.
    state = finish(game, ["a3", "b2"], ["a1", "a2"], "c1")
    assert state.winner == "black"
    assert finish(game, ["c3"], ["a3", "b2"], "c1", to_move="white").winner == "white"


# ----- races -----------------------------------------------------------------------------------


def test_race_when_s_plus_2k_is_even_first_to_satisfy_wins() -> None:
    from ogames.kernels.omny import satisfied_colours_reference

    game = ogames.load("omny", variant="custom", shape="rhombus", size=2)  # 4 cells, all stars: S = 4
    state = game.new_state()
    for move in ["a1", "b2"]:
        state.play(move)
    assert state.result is None
    state.play("b1")  # black a1 b1: region {a2, b2} has 2 stars, 4 ≤ 4
    assert state.winner == "black" and state.winning_group == ["a1", "b1"]
    # On the full board White would satisfy the condition too (a race, not a draw).
    full = [1, 1, 2, 2]
    assert satisfied_colours_reference(full, game.board.neighbours, game.star_mask, 4, 4) == {0, 1}


def test_race_with_half_komi_white_first() -> None:
    game = ogames.load("omny", **Y5, komi=0.5)  # S + 2k = 4
    state = game.new_state()
    state.play("c2")
    state.play("a1")  # a white corner stone leaves 2 stars per region at most: 4 ≤ 3 + 1
    assert state.winner == "white" and state.winning_group == ["a1"]


def test_only_the_movers_new_group_is_tested() -> None:
    # A black group that satisfies the condition is not noticed when White moves (it cannot arise
    # then anyway: a group's regions depend only on its own cells).
    game = ogames.load("omny", **Y5)
    state = setup(game, [*ROW, "e1"], ["a2"], to_move="white")
    state.play("b2")
    assert state.result is None


# ----- pie rule --------------------------------------------------------------------------------


def test_pie_swaps_seats_not_stones() -> None:
    state = ogames.load("omny", **Y5, pie=True).new_state(["ann", "bob"])
    assert "swap" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="White's first move"):
        state.play("swap")
    state.play("c2")
    assert "swap" in state.legal_moves()
    state.play("SWAP")
    assert state.stone_at("c2") == "black"
    assert state.seats == {"black": "bob", "white": "ann"}
    assert state.to_move == "white" and state.mover == 0  # ann now plays White, and moves
    assert "swap" not in state.legal_moves()
    state.play("a1")
    with pytest.raises(IllegalMove, match="swap"):
        state.play("swap")
    assert state.record()["seats"] == {"black": "bob", "white": "ann"}


def test_no_swap_without_pie() -> None:
    state = ogames.load("omny", **Y5).new_state()
    state.play("c2")
    assert "swap" not in state.legal_moves()
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="pie rule is off"):
        state.play("swap")
    assert snapshot(state) == before


def test_pie_declined_then_no_swap_later() -> None:
    state = ogames.load("omny", **Y5, pie=True).new_state()
    state.play("c2")
    state.play("b2")
    state.play("a3")
    with pytest.raises(IllegalMove, match="White's first move"):
        state.play("swap")


# ----- komi choice -----------------------------------------------------------------------------


def test_komi_choice_lists_every_value_and_blocks_stones() -> None:
    state = ogames.load("omny", **Y5, komi_choice=True).new_state()
    assert state.komi is None
    assert state.legal_moves() == ["komi=0", "komi=0.5", "komi=1", "komi=1.5"]
    for move, reason in [("c2", "choose komi"), ("swap", "choose komi"), ("komi=2", "from 0 to half the star cells: 1.5"),
                         ("komi=-0.5", "from 0 to half the star cells"), ("komi=0.25", "plus 0.5"), ("komi=x", "plus 0.5"),
                         ("komi", "komi=K"), ("komi=", "komi=K")]:  # fmt: skip
        before = snapshot(state)
        with pytest.raises(IllegalMove, match=reason):
            state.play(move)
        assert snapshot(state) == before


def test_komi_choice_then_white_swaps() -> None:
    state = ogames.load("omny", **Y5, komi_choice=True).new_state(["ann", "bob"])
    state.play("Komi = 1.0")
    assert state.history[-1]["move"] == "komi=1" and state.history[-1]["by"] == "black"
    assert state.komi == 1 and state.to_move == "white" and state.mover == 1
    assert "swap" in state.legal_moves() and "komi=1" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="already chosen"):
        state.play("komi=0.5")
    state.play("swap")
    # bob took Black (and its komi); ann, who chose komi, now places the first stone, as White.
    assert state.seats == {"black": "bob", "white": "ann"}
    assert state.to_move == "white" and state.mover == 0
    state.play("a5")  # with komi 1, one white corner stone wins (2 ≤ 3/2 + 1)
    assert state.winner == "white" and state.rewards() == [1.0, 0.0]


def test_komi_choice_then_white_plays_on() -> None:
    state = ogames.load("omny", **Y5, komi_choice=True).new_state(["ann", "bob"])
    state.play("komi=0")
    state.play("c2")  # White places the first stone
    assert state.stone_at("c2") == "white" and state.to_move == "black"
    assert "swap" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="reply to Black's komi"):
        state.play("swap")
    with pytest.raises(IllegalMove, match="already chosen"):
        state.play("komi=1")
    assert state.seats == {"black": "ann", "white": "bob"}


def test_komi_choice_is_used_by_the_win_test() -> None:
    state = ogames.load("omny", **Y5, komi_choice=True).new_state()
    state.play("komi=0.5")
    state.play("a1")  # white corner: 2·2 ≤ 3 + 1
    assert state.winner == "white"


def test_komi_choice_with_pie() -> None:
    state = ogames.load("omny", **Y5, komi_choice=True, pie=True).new_state(["ann", "bob"])
    state.play("komi=0.5")
    assert state.to_move == "black" and state.komi == 0.5  # Black also places a stone this turn
    assert "swap" not in state.legal_moves() and all(not m.startswith("komi") for m in state.legal_moves())
    for move, reason in [("swap", "White's first move"), ("komi=1", "already chosen")]:
        before = snapshot(state)
        with pytest.raises(IllegalMove, match=reason):
            state.play(move)
        assert snapshot(state) == before
    state.play("c2")
    assert state.to_move == "white" and "swap" in state.legal_moves()
    state.play("swap")
    assert state.seats == {"black": "bob", "white": "ann"} and state.stone_at("c2") == "black"
    assert state.to_move == "white"
    assert [e["by"] for e in state.history] == ["black", "black", "white"]


def test_komi_choice_with_pie_declined() -> None:
    state = ogames.load("omny", **Y5, komi_choice=True, pie=True).new_state()
    for move in ["komi=0", "c2", "b2"]:
        state.play(move)
    with pytest.raises(IllegalMove, match="White's first move"):
        state.play("swap")


def test_komi_move_without_komi_choice_is_illegal() -> None:
    state = ogames.load("omny", **Y5, komi=1).new_state()
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="fixed at 1"):
        state.play("komi=1")
    assert snapshot(state) == before
    assert state.komi == 1


def test_resign_during_komi_choice() -> None:
    state = ogames.load("omny", **Y5, komi_choice=True).new_state()
    state.resign()
    assert state.winner == "white"


# ----- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(("move", "reason"), [("z9", "not a cell"), ("c2", "occupied"), ("", "not a"), ("a0", "not")])
def test_bad_moves_change_nothing(move: str, reason: str) -> None:
    state = ogames.load("omny", **Y5).new_state()
    state.play("c2")
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=reason):
        state.play(move)
    assert snapshot(state) == before


def test_non_text_move() -> None:
    state = ogames.load("omny", **Y5).new_state()
    with pytest.raises(IllegalMove, match="text"):
        state.play(3)  # type: ignore[arg-type]


def test_labels_are_case_insensitive_and_canonical() -> None:
    state = ogames.load("omny", **Y5).new_state()
    state.play(" C02 ")
    assert state.history[-1]["move"] == "c2" and state.stone_at("C2") == "black"
