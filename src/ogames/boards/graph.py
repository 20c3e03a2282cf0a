"""A board is a graph of cells: labels, neighbours, drawing coordinates and named cell sets.

Every game board (hex patches, the polar odd-sided board, the Onyx lattice, the Omiga grid) is
one of these. Cells are numbered 0 … n−1 in a fixed order; the numbers index the flat arrays
that compiled kernels use, the labels are what people and records see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ogames.errors import UnknownLabel, shown
from ogames.wording import say

MAX_LABEL = 24  # characters: longer text is never a cell label (labels are like c3, c4-2, b1*, aa12)
# How a board's cells lie (`Board.geometry`), what a drawing of it follows: hexagonal cells of a
# hex patch, the polar odd-sided board (drawn as its dual), the Onyx lattice of points, a grid.
HEX = "hex"
POLAR = "polar"
LATTICE = "lattice"
GRID = "grid"



def not_a_cell(label: object) -> str:
    """Why a label names no cell of a board."""
    return say("not-a-cell", "{label} is not a cell of this board", label=shown(label))

@dataclass(frozen=True, eq=False)
class Board:
    """An immutable cell graph with canonical labels."""

    kind: str
    labels: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    coords: tuple[tuple[float, float], ...]
    cell_sets: Mapping[str, frozenset[int]] = field(default_factory=dict)
    # How to read a label that is not already canonical (e.g. "C03" → "c3"); None: lower-case only.
    normalise: Callable[[str], str] | None = None
    geometry: str = HEX  # HEX, POLAR, LATTICE or GRID: how its cells lie (`kind` names the shape)

    def __post_init__(self) -> None:
        n = len(self.labels)
        if len(self.neighbours) != n or len(self.coords) != n:
            raise ValueError("labels, neighbours and coords must have one entry per cell")
        if len(set(self.labels)) != n:
            raise ValueError("cell labels must be unique")
        for cell, nbrs in enumerate(self.neighbours):
            for other in nbrs:
                if cell not in self.neighbours[other]:
                    raise ValueError(f"adjacency of {self.labels[cell]} and {self.labels[other]} is one-sided")

    def __deepcopy__(self, memo: dict) -> Board:
        # Immutable: copies of game states share their board instead of copying its arrays.
        return self

    def __len__(self) -> int:
        return len(self.labels)

    def __repr__(self) -> str:
        return f"Board({self.kind!r}, {len(self)} cells)"

    @cached_property
    def _index(self) -> dict[str, int]:
        return {label: i for i, label in enumerate(self.labels)}

    def index(self, label: str) -> int:
        """The cell number of a label (case-insensitive); UnknownLabel if it is not on the board."""
        if not isinstance(label, str):
            raise UnknownLabel(say("label-not-text", "a cell label must be text, not {kind}", kind=type(label).__name__))
        key = label.strip().lower()
        if len(key) > MAX_LABEL:  # no board has such labels: refuse before reading them
            raise UnknownLabel(not_a_cell(label))
        if self.normalise is not None:
            try:
                key = self.normalise(key)
            except ValueError:
                pass
        try:
            return self._index[key]
        except KeyError:
            raise UnknownLabel(not_a_cell(label)) from None

    def has(self, label: str) -> bool:
        """Whether a label names a cell of this board."""
        try:
            self.index(label)
        except UnknownLabel:
            return False
        return True

    def cells(self, name: str) -> frozenset[int]:
        """A named cell set ("perimeter", "corners", "side0", …)."""
        try:
            return self.cell_sets[name]
        except KeyError:
            known = ", ".join(sorted(self.cell_sets))
            raise KeyError(f"this {self.kind} board has no cell set {name!r} (known: {known})") from None

    def degree(self, cell: int) -> int:
        """Number of neighbours of a cell."""
        return len(self.neighbours[cell])

    @cached_property
    def max_degree(self) -> int:
        """The largest number of neighbours any cell has."""
        return max((len(n) for n in self.neighbours), default=0)

    @cached_property
    def neighbour_table(self) -> np.ndarray:
        """Neighbours as an (n, max_degree) int32 array padded with −1, for compiled kernels."""
        table = np.full((len(self), max(self.max_degree, 1)), -1, dtype=np.int32)
        for cell, nbrs in enumerate(self.neighbours):
            table[cell, : len(nbrs)] = nbrs
        table.setflags(write=False)
        return table

    @cached_property
    def neighbour_csr(self) -> tuple[np.ndarray, np.ndarray]:
        """Neighbours in compressed form: (offsets of length n+1, flat indices), both int32."""
        offsets = np.zeros(len(self) + 1, dtype=np.int32)
        offsets[1:] = np.cumsum([len(n) for n in self.neighbours])
        flat = np.fromiter((o for nbrs in self.neighbours for o in nbrs), dtype=np.int32, count=int(offsets[-1]))
        offsets.setflags(write=False)
        flat.setflags(write=False)
        return offsets, flat

    def mask(self, cells: Iterable[int]) -> np.ndarray:
        """A boolean array over the cells, true on the given ones."""
        out = np.zeros(len(self), dtype=np.bool_)
        out[list(cells)] = True
        return out

    def edges(self) -> set[frozenset[int]]:
        """Every adjacency as an unordered pair of cell numbers."""
        return {frozenset((a, b)) for a, nbrs in enumerate(self.neighbours) for b in nbrs}


def build_board(
    kind: str,
    labels: Sequence[str],
    adjacency: Callable[[int], Iterable[int]],
    coords: Sequence[tuple[float, float]],
    cell_sets: Mapping[str, Iterable[int]],
    normalise: Callable[[str], str] | None = None,
    geometry: str = HEX,
) -> Board:
    """Assemble a Board from per-cell functions, sorting each neighbour list."""
    neighbours = tuple(tuple(sorted(set(adjacency(i)))) for i in range(len(labels)))
    return Board(
        kind=kind,
        labels=tuple(labels),
        neighbours=neighbours,
        coords=tuple((float(x), float(y)) for x, y in coords),
        cell_sets={name: frozenset(cells) for name, cells in cell_sets.items()},
        normalise=normalise,
        geometry=geometry,
    )
