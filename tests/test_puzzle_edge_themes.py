"""The edge themes of puzzles (ogames/teach/puzzles/edges.py): edge templates and ladders, each
on constructed positions of the Game of Y (Odd-Y's triangle of side 13), found where the pattern
is and not where one piece of it is missing. The template search, which skips moves that cannot
matter, is checked against a plain search of every move on random fillings of the ziggurat's
area; the shipped puzzles carry exactly the themes the detectors find."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.rules.stones import StoneState
from ogames.teach.puzzles import edges, position_of, read
from ogames.teach.puzzles.themes import themes

# On the triangle of side 13, cell "d2" is (x=3, y=1): side0 is y = 0 (cells "a1" … "m1"), so
# d2 is on row 2 and d3 on row 3 of side0, and both are far from the other two sides.
FILLER = ["a7", "b7", "a6", "b6"]  # cells far from side0, for a turn spent elsewhere


def position(black: list[str], white: list[str]) -> StoneState:
    """Black's and White's stones placed through the rules (the shorter list padded with far
    cells), Black to move."""
    state = ogames.load("oddy", sides=3, size=13, board="triangle", pie=False).new_state()
    assert isinstance(state, StoneState)
    spare = [cell for cell in FILLER if cell not in black + white]
    black, white = list(black), list(white)
    while len(white) < len(black):
        white.append(spare.pop())
    while len(black) < len(white):
        black.append(spare.pop())
    for b, w in zip(black, white, strict=True):
        state.play(b, t=0.0)
        state.play(w, t=0.0)
    return state


def placed(state: StoneState, move: str) -> tuple[StoneState, int]:
    after = state.clone()
    after.play(move, t=0.0)
    return after, state.board.index(move)


# ----- edge templates -----------------------------------------------------------------------
def test_a_second_row_stone_with_both_side_cells_empty_is_a_template() -> None:
    after, cell = placed(position([], []), "d2")
    assert edges.template_side(after, cell) == "side0"


def test_a_second_row_stone_with_one_side_cell_taken_is_no_template() -> None:
    after, cell = placed(position([], ["e1"]), "d2")
    assert edges.template_side(after, cell) is None


def test_the_ziggurat_is_a_template_on_the_third_row() -> None:
    after, cell = placed(position([], []), "d3")
    assert edges.template_side(after, cell) == "side0"


def test_the_ziggurat_holds_against_one_intrusion_beside_it_but_not_below_it() -> None:
    # c1 is in only the left ziggurat (d3 c3 | c2 d2 e2 | c1 d1 e1 f1): the right one is whole.
    after, cell = placed(position([], ["c1"]), "d3")
    assert edges.template_side(after, cell) == "side0"
    # d2, a row-2 neighbour of the stone, is in both ziggurats: with it taken first, the
    # defender moves again and cuts.
    after, cell = placed(position([], ["d2"]), "d3")
    assert edges.template_side(after, cell) is None


def test_a_fourth_row_stone_and_a_stone_already_on_the_side_claim_nothing() -> None:
    after, cell = placed(position([], []), "d4")
    assert edges.template_side(after, cell) is None
    after, cell = placed(position(["d1"], []), "d2")  # its group touches side0 already
    assert edges.template_side(after, cell) is None


def test_own_stones_in_the_area_are_not_counted_on() -> None:
    # e1 taken by White leaves d2 one side cell; Black's c1 beside it would join it, but a
    # template is the stone and empty cells only.
    after, cell = placed(position(["b2"], ["e1"]), "d2")
    assert edges.template_side(after, cell) is None


def _plain(board_neighbours: tuple[tuple[int, ...], ...], start: int, side: frozenset[int],
           empty: tuple[int, ...]) -> bool:
    """Every move of both players tried, the defender first: whether the start always reaches the side."""

    def reaches(passable: frozenset[int]) -> bool:
        seen, frontier = {start}, [start]
        while frontier:
            cell = frontier.pop()
            if cell in side:
                return True
            for other in board_neighbours[cell]:
                if other in passable and other not in seen:
                    seen.add(other)
                    frontier.append(other)
        return False

    @cache
    def wins(taken: frozenset[int], blocked: frozenset[int], attacker: bool) -> bool:
        free = [c for c in empty if c not in taken and c not in blocked]
        if reaches(taken | {start}):
            return True
        if not free:
            return False
        if attacker:
            return any(wins(taken | {c}, blocked, False) for c in free)
        return all(wins(taken, blocked | {c}, True) for c in free)

    return wins(frozenset(), frozenset(), False)


ZIGGURAT_STONE = "d3"


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_template_search_agrees_with_a_plain_search_of_every_move(data: st.DataObject) -> None:
    state = position([], [])
    board = state.board
    cell = board.index(ZIGGURAT_STONE)
    row = edges.rows(board, "side0")
    area = edges.template_area(board, cell, row)
    contents = data.draw(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=len(area), max_size=len(area)))
    after, _ = placed(state, ZIGGURAT_STONE)
    for c, value in zip(area, contents, strict=True):
        after.stones[c] = value
    if edges.group(after, cell) & board.cells("side0"):
        return  # the stone touches the side already: no template is asked of it
    empty = tuple(c for c in area if after.stones[c] == 0)
    expected = _plain(board.neighbours, cell, board.cells("side0"), empty)
    assert (edges.template_side(after, cell) == "side0") == expected


# ----- ladders ------------------------------------------------------------------------------
# Black's c2 is held off side0 by White's c1 and d1; each push along row 2 leaves Black's group
# one side cell, and White takes it.
LADDER = position(["c2"], ["c1", "d1"])


def test_two_pushes_along_the_second_row_answered_on_the_side_are_a_ladder() -> None:
    assert edges.ladder(LADDER, ["d2", "e1", "e2", "f1", "f2"])
    assert "ladder" in themes(LADDER, ["d2", "e1", "e2", "f1", "f2"])


def test_one_push_is_no_ladder() -> None:
    assert not edges.ladder(LADDER, ["d2", "e1", "a5"])


def test_a_push_answered_elsewhere_is_no_ladder() -> None:
    # White does not take e1: the next push then leaves two side cells open, no forced answer.
    assert not edges.ladder(LADDER, ["d2", "a5", "e2", "f1", "f2"])


def test_pushes_that_are_not_next_to_each_other_are_no_ladder() -> None:
    state = position(["c2", "f2"], ["c1", "d1", "f1", "g1"])
    # d2 pushes (e1 answers); g2 then pushes from f2's group (h1 its one cell), not from d2.
    assert not edges.ladder(state, ["d2", "e1", "g2", "h1", "a5"])


def test_the_defenders_pushes_are_not_the_winners_ladder() -> None:
    # The same pushes, made by White (the side not to move at the puzzle's position).
    state = position(["c1", "d1"], ["c2"])
    state.turn = 1 - state.turn  # (a constructed position: White to move first)
    assert edges.ladder(state, ["d2", "e1", "e2", "f1", "f2"])
    mirrored = position(["c1", "d1", "a5"], ["c2"])  # Black to move, White pushes second
    assert not edges.ladder(mirrored, ["b5", "d2", "e1", "e2", "f1", "f2"])


def label(x: int, y: int) -> str:
    """The triangle's label of the cell (x, y): side0 is y = 0."""
    return f"{'abcdefghijklm'[x]}{y + 1}"


@settings(max_examples=40, deadline=None)
@given(start=st.integers(1, 6), pushes=st.integers(1, 4), broken=st.one_of(st.none(), st.integers(0, 3)))
def test_a_ladder_is_found_exactly_when_two_pushes_in_a_row_are_answered(start: int, pushes: int, broken: int | None) -> None:
    # Black's stone at (start − 1, 1) held off side0 by White on (start − 1, 0) and (start, 0);
    # Black pushes along row 2, White answers on the one open side cell, except the reply
    # `broken` (if any), played far away instead: from there on no push is forced.
    state = position([label(start - 1, 1)], [label(start - 1, 0), label(start, 0)])
    far = iter(["a13", "b12", "a12", "b11", "a11"])
    line = []
    for i in range(pushes):
        line += [label(start + i, 1), next(far) if i == broken else label(start + i + 1, 0)]
    line.append(next(far))
    run = pushes if broken is None or broken >= pushes else broken
    assert edges.ladder(state, line) == (run >= 2)


# ----- the shipped set ----------------------------------------------------------------------
def test_every_shipped_puzzle_carries_the_themes_the_detectors_find() -> None:
    wrong = {}
    for puzzle in read():
        found = themes(position_of(puzzle), puzzle.solution)
        if tuple(found) != puzzle.themes:
            wrong[puzzle.id] = (puzzle.themes, found)
    assert not wrong, list(wrong.items())[:5]


def test_the_shipped_set_has_edge_templates_and_ladders() -> None:
    counts = {theme: sum(theme in p.themes for p in read()) for theme in ("edge-template", "ladder")}
    assert counts["edge-template"] > 0 and counts["ladder"] > 0, counts
