"""Layer 1: hex patches, the polar board, labels and the flat neighbour arrays."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ogames.boards import (
    GRID,
    HEX,
    LATTICE,
    POLAR,
    convex_patch,
    explicit_cells,
    format_label,
    hexagon,
    irregular_hexagon,
    parse_label,
    polar,
    rhombus,
    triangle,
)
from ogames.boards.grid import diagonal_neighbours, square_grid
from ogames.boards.hexes import HEX_DIRECTIONS, column_letters, column_number
from ogames.boards.onyx import onyx_board
from ogames.boards.polar import polar_position
from ogames.errors import UnknownLabel


def axial_cells(board):
    return {parse_label(label) for label in board.labels}


# ----- labels ---------------------------------------------------------------------------------
def test_label_examples_follow_rules():
    assert format_label(0, 0) == "a1"
    assert format_label(2, 2) == "c3"
    assert format_label(25, 0) == "z1"
    assert format_label(26, 4) == "aa5"
    assert format_label(27, 9) == "ab10"
    assert parse_label("AB10") == (27, 9)
    assert parse_label(" c03 ") == (2, 2)


@given(st.integers(0, 2000), st.integers(0, 2000))
def test_hex_labels_round_trip(x, y):
    assert parse_label(format_label(x, y)) == (x, y)
    assert column_number(column_letters(x)) == x


@given(st.text(max_size=6))
def test_label_parser_never_crashes_unexpectedly(text):
    try:
        x, y = parse_label(text)
    except UnknownLabel:
        return
    assert parse_label(format_label(x, y)) == (x, y)
    # The canonical form is the input lower-cased, trimmed, without leading zeros in the row.
    assert format_label(x, y) == re.sub(r"(?<=[a-z])0+", "", text.strip().lower())


@pytest.mark.parametrize("bad", ["", "3c", "c", "c0", "c-1", "é3", "c3x", None, 7])
def test_bad_hex_labels_are_rejected(bad):
    with pytest.raises(UnknownLabel):
        parse_label(bad)


def test_board_lookup_is_case_insensitive_and_rejects_foreign_cells():
    board = triangle(5)
    assert board.index("C3") == board.index("c3") == board.index("c03")
    with pytest.raises(UnknownLabel, match="not a cell"):
        board.index("e5")  # x + y = 8 > 4: outside the triangle
    with pytest.raises(UnknownLabel):
        board.index("zz1")


# ----- hex patches ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_triangle_is_openspiel_y_board(n):
    board = triangle(n)
    assert axial_cells(board) == {(x, y) for x in range(n) for y in range(n) if x + y <= n - 1}
    assert len(board) == n * (n + 1) // 2
    if n >= 2:
        sides = [board.cells(f"side{k}") for k in range(3)]
        coords = [{parse_label(board.labels[c]) for c in side} for side in sides]
        assert coords[0] == {(x, 0) for x in range(n)}
        assert coords[1] == {(x, n - 1 - x) for x in range(n)}
        assert coords[2] == {(0, y) for y in range(n)}
        assert {board.labels[c] for c in board.cells("corners")} == {"a1", format_label(n - 1, 0), format_label(0, n - 1)}


def test_neighbours_are_the_six_axial_directions():
    board = hexagon(4)
    centre = board.index("d4")
    assert sorted(board.labels[c] for c in board.neighbours[centre]) == sorted(
        format_label(3 + dx, 3 + dy) for dx, dy in HEX_DIRECTIONS
    )
    assert sorted(board.labels[c] for c in board.neighbours[board.index("a4")]) == ["a5", "b3", "b4"]


@pytest.mark.parametrize("n", [2, 3, 5, 7])
def test_hexagon_shape_centre_and_perimeter(n):
    board = hexagon(n)
    assert len(board) == 3 * n * (n - 1) + 1
    assert axial_cells(board) == {
        (x, y) for x in range(2 * n - 1) for y in range(2 * n - 1) if n - 1 <= x + y <= 3 * n - 3
    }
    assert [board.labels[c] for c in board.cells("centre")] == [format_label(n - 1, n - 1)]
    assert len(board.cells("perimeter")) == 6 * (n - 1)
    assert len(board.cells("corners")) == 6
    assert all(len(board.cells(f"side{k}")) == n for k in range(6))


@pytest.mark.parametrize(("a", "b"), [(5, 6), (2, 3), (4, 4), (3, 6)])
def test_irregular_hexagon_sides_alternate(a, b):
    board = irregular_hexagon(a, b)
    lengths = [len(board.cells(f"side{k}")) for k in range(6)]
    assert lengths == [a, b, a, b, a, b]
    assert len(board.cells("perimeter")) == 3 * (a + b) - 6
    assert len(board.cells("corners")) == 6


def test_regular_case_of_irregular_hexagon_is_the_hexagon():
    assert axial_cells(irregular_hexagon(4, 4)) == axial_cells(hexagon(4))


def test_rhombus_and_explicit_cells():
    board = rhombus(3, 4)
    assert axial_cells(board) == {(x, y) for x in range(3) for y in range(4)}
    assert len(board.cells("corners")) == 4
    custom = explicit_cells(["a1", "b1", "A2", "c5"])
    assert custom.labels == ("a1", "b1", "a2", "c5")
    assert custom.degree(custom.index("c5")) == 0
    with pytest.raises(ValueError, match="twice"):
        explicit_cells(["a1", "A1"])


@pytest.mark.parametrize("args", [(0,), (-1,), (2.5,), (True,)])
def test_bad_sizes_are_rejected(args):
    with pytest.raises(ValueError):
        triangle(*args)


def test_empty_patch_is_rejected():
    with pytest.raises(ValueError, match="empty"):
        convex_patch(2, 2, 5, 4)


@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 10), st.integers(0, 10))
def test_convex_patch_adjacency_is_axial(X, Y, S0, S1):
    try:
        board = convex_patch(X, Y, S0, S1)
    except ValueError:
        assert not any(S0 <= x + y <= S1 for x in range(X + 1) for y in range(Y + 1))
        return
    cells = axial_cells(board)
    for i, label in enumerate(board.labels):
        x, y = parse_label(label)
        expected = {(x + dx, y + dy) for dx, dy in HEX_DIRECTIONS} & cells
        assert {parse_label(board.labels[j]) for j in board.neighbours[i]} == expected


# ----- flat arrays ----------------------------------------------------------------------------
@pytest.mark.parametrize("board", [triangle(6), hexagon(4), polar(5, 4), irregular_hexagon(5, 6)], ids=repr)
def test_flat_neighbour_arrays_match_lists(board):
    table = board.neighbour_table
    offsets, flat = board.neighbour_csr
    for cell, nbrs in enumerate(board.neighbours):
        row = [int(v) for v in table[cell] if v >= 0]
        assert row == list(nbrs)
        assert all(v == -1 for v in table[cell][len(nbrs):])
        assert list(flat[offsets[cell] : offsets[cell + 1]]) == list(nbrs)
    assert not table.flags.writeable


# ----- polar board ----------------------------------------------------------------------------
@pytest.mark.parametrize(("m", "n"), [(3, 2), (3, 5), (5, 4), (7, 3), (9, 6), (6, 5)])
def test_polar_size_and_sides(m, n):
    board = polar(m, n)
    assert len(board) == m * n * (n - 1) // 2 + 1
    for s in range(m):
        side = board.cells(f"side{s}")
        assert len(side) == n
        # Corner cells belong to both of their sides.
        ends = {f"{chr(97 + s)}{n - 1}-0", f"{chr(97 + (s + 1) % m)}{n - 1}-0"}
        assert board.cells("corners") & side == {board.index(label) for label in ends}


def test_polar_label_example_and_edges():
    board = polar(5, 6)
    assert polar_position("c4-2") == (4, 2 * 4 + 2)
    assert board.labels[board.index("C4-2")] == "c4-2"
    assert board.labels[0] == "o"
    # (r, p)–(r, p+1); inner (r−1, s(r−1)+i) and, as i > 0, (r−1, s(r−1)+i−1).
    assert set(board.labels[c] for c in board.neighbours[board.index("c4-2")]) == {
        "c4-1", "c4-3", "c3-2", "c3-1", "c5-2", "c5-3"
    }
    assert {board.labels[c] for c in board.neighbours[board.index("o")]} == {"a1-0", "b1-0", "c1-0", "d1-0", "e1-0"}
    for bad in ("c4-4", "f1-0", "a0-0", "a6-0", "o1"):
        with pytest.raises(UnknownLabel):
            board.index(bad)


@pytest.mark.parametrize("n", [2, 3, 4, 6, 9])
def test_polar_board_with_six_sides_is_the_hexagon(n):
    """RULES §2: for m = 6 the polar board is exactly the hexagon of side n (an explicit isomorphism)."""
    hexa, pol = hexagon(n), polar(6, n)
    centre = (n - 1, n - 1)
    d = HEX_DIRECTIONS

    def image(label: str) -> tuple[int, int]:
        r, p = polar_position(label)
        if r == 0:
            return centre
        s, i = divmod(p, r)
        return (centre[0] + r * d[s][0] + i * d[(s + 2) % 6][0], centre[1] + r * d[s][1] + i * d[(s + 2) % 6][1])

    mapping = {k: hexa.index(format_label(*image(label))) for k, label in enumerate(pol.labels)}
    assert sorted(mapping.values()) == list(range(len(hexa)))
    assert {frozenset(mapping[c] for c in edge) for edge in pol.edges()} == hexa.edges()


def test_polar_drawing_puts_corners_on_the_circle():
    board = polar(5, 3)
    x, y = board.coords[board.index("a2-0")]
    assert abs(x) < 1e-9 and abs(y - 2) < 1e-9  # corner 0 at 90°


# ----- square grid ----------------------------------------------------------------------------
def test_square_grid_neighbours():
    grid = square_grid(4, 3)
    assert len(grid) == 12
    assert {grid.labels[c] for c in grid.neighbours[grid.index("b2")]} == {"a2", "c2", "b1", "b3"}
    assert {grid.labels[c] for c in diagonal_neighbours(grid, grid.index("a1"))} == {"b2"}
    assert {grid.labels[c] for c in grid.cells("top")} == {"a3", "b3", "c3", "d3"}
    with pytest.raises(ValueError):
        square_grid(0, 3)


def test_each_builder_says_how_its_cells_lie_whatever_shape_it_names() -> None:
    hexes = [triangle(3), hexagon(2), rhombus(2, 3), irregular_hexagon(2, 3), explicit_cells(["a1", "b1", "a2"])]
    assert {board.geometry for board in hexes} == {HEX} and len({board.kind for board in hexes}) == len(hexes)
    assert polar(5, 3).geometry == POLAR and polar(3, 3).geometry == POLAR
    assert onyx_board().geometry == LATTICE
    assert square_grid(4, 3).geometry == GRID
