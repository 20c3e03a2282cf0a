"""Square grids: the Omiga card table (W columns × H rows).

Cell (col, row) is labelled like a hex cell, column letter then row number: (0, 0) is `a1`.
Neighbours are the orthogonal ones; `diagonal_neighbours` gives the four diagonal ones, which
some rules (Omiga's rule 3) also look at.
"""

from __future__ import annotations

from ogames.boards.graph import GRID, Board, build_board
from ogames.boards.hexes import format_label, parse_label

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def square_grid(width: int, height: int, kind: str = "grid") -> Board:
    """A width × height grid, cell number = row · width + col, sides named left/right/bottom/top."""
    for name, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 52:
            raise ValueError(f"grid {name} must be a whole number from 1 to 52, not {value!r}")

    def number(col: int, row: int) -> int:
        return row * width + col

    def adjacency(cell: int) -> list[int]:
        row, col = divmod(cell, width)
        return [number(col + dc, row + dr) for dc, dr in ORTHOGONAL if 0 <= col + dc < width and 0 <= row + dr < height]

    cells = [(col, row) for row in range(height) for col in range(width)]
    sets = {
        "all": range(len(cells)),
        "left": [number(0, r) for r in range(height)],
        "right": [number(width - 1, r) for r in range(height)],
        "bottom": [number(c, 0) for c in range(width)],
        "top": [number(c, height - 1) for c in range(width)],
    }
    return build_board(
        kind,
        [format_label(c, r) for c, r in cells],
        adjacency,
        [(float(c), float(r)) for c, r in cells],
        sets,
        normalise=lambda label: format_label(*parse_label(label)),
        geometry=GRID,
    )


def grid_position(board: Board, cell: int) -> tuple[int, int]:
    """(col, row) of a cell of a square grid."""
    return parse_label(board.labels[cell])


def diagonal_neighbours(board: Board, cell: int) -> list[int]:
    """The up to four diagonal neighbours of a grid cell."""
    col, row = grid_position(board, cell)
    out = []
    for dc, dr in DIAGONAL:
        if col + dc < 0 or row + dr < 0:
            continue
        label = format_label(col + dc, row + dr)
        if board.has(label):
            out.append(board.index(label))
    return out
