"""The Onyx point lattice (RULES.md §4, Board): points, labels, adjacency, sides and squares."""

from __future__ import annotations

from collections import Counter

import pytest

from ogames.boards.graph import Board
from ogames.boards.onyx import CELLS, SIZE, is_square, onyx_board, onyx_lattice, point, point_label
from ogames.errors import UnknownLabel

B = onyx_board()
L = onyx_lattice()


def idx(label: str) -> int:
    return B.index(label)


def adjacent(a: str, b: str) -> bool:
    return idx(b) in B.neighbours[idx(a)]


def test_counts() -> None:
    assert isinstance(B, Board)
    assert len(B) == 204
    assert len(B.cells("midpoints")) == 60
    assert len(B.cells("points")) == 144
    assert sum(is_square(c, r) for c in range(CELLS) for r in range(CELLS)) == 60


def test_labels_and_order() -> None:
    assert B.labels[0] == "a1" and B.labels[11] == "l1" and B.labels[143] == "l12"
    assert B.labels[point(3, 4)] == "d5"
    assert B.labels[144] == "b1*"  # the first square is cell (1, 0)
    mids = [B.labels[c] for c in sorted(B.cells("midpoints"))]
    assert all(m.endswith("*") for m in mids)
    assert "a1*" not in B.labels and "b2*" not in B.labels and "a2*" in B.labels
    for m in mids:  # each midpoint is named after the South-West corner of a square cell
        col, row = ord(m[0]) - ord("a"), int(m[1:-1]) - 1
        assert is_square(col, row)


@pytest.mark.parametrize("text", ["B1*", " b1* ", "b01*", "B01*"])
def test_labels_case_insensitive(text: str) -> None:
    assert B.labels[idx(text)] == "b1*"


@pytest.mark.parametrize("text", ["m1", "a0", "a13", "b2*", "a1**", "*b1", "", "11", "l12*"])
def test_unknown_labels(text: str) -> None:
    with pytest.raises(UnknownLabel, match="not a cell"):
        B.index(text)


def test_degrees() -> None:
    degrees = Counter(B.degree(c) for c in range(len(B)))
    # 100 interior points: 4 lattice edges, 2 midpoints, 1 diagonal; midpoints: their 4 corners.
    assert degrees == Counter({7: 100, 4: 80, 5: 20, 3: 2, 2: 2})
    assert all(B.degree(m) == 4 for m in B.cells("midpoints"))
    assert all(B.degree(idx(label)) == 7 for label in ("b2", "f6", "k11"))
    assert {label: B.degree(idx(label)) for label in ("a1", "l1", "a12", "l12")} == {"a1": 3, "l1": 2, "a12": 2, "l12": 3}


def test_specific_adjacencies() -> None:
    assert adjacent("a1", "b1") and adjacent("a1", "a2")  # lattice edges
    assert adjacent("a1", "b2")  # even row: SW–NE diagonal of cell (0, 0)
    assert adjacent("b3", "c2")  # odd row: NW–SE diagonal of cell (1, 1)
    assert adjacent("k11", "l12")
    assert sorted(B.labels[c] for c in B.neighbours[idx("b1*")]) == ["b1", "b2", "c1", "c2"]
    assert set(B.labels[c] for c in B.neighbours[idx("f6")]) == {"e5", "f5", "e6", "g6", "f7", "f5*", "e6*"}


def test_non_adjacencies() -> None:
    assert not adjacent("b1", "c2") and not adjacent("c1", "b2")  # opposite corners of square b1*
    assert not adjacent("b2", "c3")  # the other diagonal of triangle cell (1, 1)
    assert not adjacent("a2", "b1")  # the other diagonal of cell (0, 0)
    assert not adjacent("b1*", "a2*") and not adjacent("b1*", "d1")
    assert not any(B.labels[o].endswith("*") for m in B.cells("midpoints") for o in B.neighbours[m])
    assert not adjacent("a1", "c1")


def test_diagonal_orientation_by_row_parity() -> None:
    for r in range(CELLS):
        for c in range(CELLS):
            sw, se, ne, nw = point(c, r), point(c + 1, r), point(c + 1, r + 1), point(c, r + 1)
            rising, falling = ne in B.neighbours[sw], se in B.neighbours[nw]
            if is_square(c, r):
                assert not rising and not falling, (c, r)
            elif r % 2 == 0:
                assert rising and not falling, (c, r)
            else:
                assert falling and not rising, (c, r)


def test_every_edge_is_a_lattice_edge_diagonal_or_spoke() -> None:
    count = Counter()
    for edge in B.edges():
        a, b = sorted(edge)
        if b >= SIZE * SIZE:
            count["spoke"] += 1
            assert a in L.square_corners[b]
            continue
        (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
        kind = "lattice" if abs(ra - rb) + abs(ca - cb) == 1 else "diagonal"
        count[kind] += 1
    assert count == {"lattice": 2 * SIZE * CELLS, "diagonal": 121 - 60, "spoke": 240}


def test_sides_and_corners() -> None:
    for name, labels in {
        "west": [f"a{r}" for r in range(1, 13)],
        "east": [f"l{r}" for r in range(1, 13)],
        "south": [point_label(c, 0) for c in range(SIZE)],
        "north": [point_label(c, SIZE - 1) for c in range(SIZE)],
    }.items():
        assert {B.labels[c] for c in B.cells(name)} == set(labels)
    both = {"a1": ("west", "south"), "l1": ("east", "south"), "a12": ("west", "north"), "l12": ("east", "north")}
    for corner, sides in both.items():
        assert all(idx(corner) in B.cells(s) for s in sides)
    assert {B.labels[c] for c in B.cells("corners")} == {"a1", "l1", "a12", "l12"}
    bits = L.side_bits
    assert bits[idx("a1")] == 1 | 4 and bits[idx("l12")] == 2 | 8 and bits[idx("f6")] == 0 and bits[idx("b1*")] == 0


def test_squares_lookup() -> None:
    assert len(L.square_corners) == 60
    b1 = {s.midpoint: s for s in L.corner_of[idx("b1")]}
    assert set(b1) == {idx("b1*")}
    sq = b1[idx("b1*")]
    assert sq.opposite == idx("c2") and set(sq.others) == {idx("c1"), idx("b2")}
    assert {B.labels[s.midpoint] for s in L.corner_of[idx("b2")]} == {"b1*", "a2*"}
    assert L.corner_of[idx("b1*")] == () and L.corner_of[idx("a1")] == ()
    for mid, corners in L.square_corners.items():
        assert set(B.neighbours[mid]) == set(corners)
        for k, corner in enumerate(corners):
            view = next(s for s in L.corner_of[corner] if s.midpoint == mid)
            assert view.opposite == corners[(k + 2) % 4]
            assert set(view.others) | {corner, view.opposite} == set(corners)
            assert view.opposite not in B.neighbours[corner]  # opposite corners are not adjacent
            assert all(o in B.neighbours[corner] for o in view.others)
    # Interior points are corners of exactly two squares.
    for r in range(1, CELLS):
        for c in range(1, CELLS):
            assert len(L.corner_of[point(c, r)]) == 2
    table = L.square_table
    assert table.shape == (204, 2, 4) and not table.flags.writeable
    for cell, views in enumerate(L.corner_of):
        for k, view in enumerate(views):
            assert list(table[cell, k]) == [view.midpoint, view.opposite, *view.others]
        assert (table[cell, len(views) :] == -1).all()


def test_coordinates() -> None:
    assert B.coords[idx("a1")] == (0.0, 0.0)
    assert B.coords[idx("l12")] == (11.0, 11.0)
    assert B.coords[idx("b1*")] == (1.5, 0.5)
    for mid, corners in L.square_corners.items():
        cx = sum(B.coords[c][0] for c in corners) / 4
        cy = sum(B.coords[c][1] for c in corners) / 4
        assert B.coords[mid] == (cx, cy)
