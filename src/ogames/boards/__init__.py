"""Layer 1: boards as graphs of labelled cells."""

from ogames.boards.graph import GRID, HEX, LATTICE, POLAR, Board, build_board
from ogames.boards.hexes import (
    convex_patch,
    explicit_cells,
    format_label,
    hex_board,
    hexagon,
    irregular_hexagon,
    parse_label,
    rhombus,
    triangle,
)
from ogames.boards.polar import polar

__all__ = [
    "GRID",
    "HEX",
    "LATTICE",
    "POLAR",
    "Board",
    "build_board",
    "convex_patch",
    "explicit_cells",
    "format_label",
    "hex_board",
    "hexagon",
    "irregular_hexagon",
    "parse_label",
    "polar",
    "rhombus",
    "triangle",
]
