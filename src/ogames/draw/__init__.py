"""Drawings shared by the faces: the boards of every game as SVG (`ogames.draw.svg`)."""

from ogames.draw.svg import (
    TableParts,
    board_frame,
    board_svg,
    card_svg,
    form_svg,
    last_move_cells,
    legend,
    legend_svg,
    stone_svg,
    table_drawing,
)

__all__ = ["TableParts", "board_frame", "board_svg", "card_svg", "form_svg", "last_move_cells", "legend", "legend_svg",
           "stone_svg", "table_drawing"]
