"""Omiga cards (RULES.md §5): the project's reconstruction of the 36 designs, configurable.

A design has a left and a right semicircle, each of hue A or B, and a top and a bottom seam.
Seams are written in absolute direction as seen on the table: `/` and `\\` (diagonals), `^` and
`v` (a point or notch whose tip is up or down). Turning a card 180° swaps left with right and top
with bottom; a diagonal stays what it is, `^` becomes `v` and back.

Fitting, for two cards side by side on the table:
- horizontally, the left card's right hue equals the right card's left hue (one whole circle);
- vertically, the lower card's top seam equals the upper card's bottom seam: the same diagonal
  continues, or a point goes into a notch of the same direction.
Row numbers grow upwards: a card in row r + 1 lies above one in row r.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

HUES = ("A", "B")
UNTURNED_SEAMS = ("/", "\\", "^")
_TURN = {"/": "/", "\\": "\\", "^": "v", "v": "^"}


@dataclass(frozen=True, order=True)
class Face:
    """A card as it lies on the table: hues left/right, seams top/bottom."""

    left: str
    right: str
    top: str
    bottom: str

    def turned(self) -> Face:
        """The same card turned 180°."""
        return Face(self.right, self.left, _TURN[self.bottom], _TURN[self.top])

    @property
    def code(self) -> str:
        """Four characters, left right top bottom, e.g. `AB/^`."""
        return f"{self.left}{self.right}{self.top}{self.bottom}"

    @classmethod
    def from_code(cls, code: str) -> Face:
        """The face written as four characters (left, right, top, bottom)."""
        if not isinstance(code, str) or len(code) != 4:
            raise ValueError(f"a card face is four characters like 'AB/^', not {code!r}")
        left, right, top, bottom = code[0].upper(), code[1].upper(), code[2].lower(), code[3].lower()
        if left not in HUES or right not in HUES or top not in _TURN or bottom not in _TURN:
            raise ValueError(f"{code!r} is not a card face: hues are A or B, seams are / \\ ^ v")
        return cls(left, right, top, bottom)


def fits_beside(left: Face, right: Face) -> bool:
    """Whether `right` may lie directly right of `left`."""
    return left.right == right.left


def fits_above(lower: Face, upper: Face) -> bool:
    """Whether `upper` may lie directly above `lower`."""
    return lower.top == upper.bottom


@dataclass(frozen=True)
class CardSet:
    """The designs every deck holds (both colours have the same ones) and whether cards may turn."""

    designs: tuple[Face, ...]
    turning: bool = True

    def __post_init__(self) -> None:
        if not self.designs:
            raise ValueError("a card set needs at least one design")

    def __len__(self) -> int:
        return len(self.designs)

    def faces(self, design: int) -> tuple[Face, ...]:
        """The ways design number `design` may be laid: as printed, and turned when allowed."""
        face = self.designs[design]
        if not self.turning or face.turned() == face:
            return (face,)
        return (face, face.turned())


def standard_designs() -> tuple[Face, ...]:
    """The 2 · 2 · 3 · 3 = 36 designs of the project's reconstruction, in a fixed order."""
    return tuple(Face(*sides) for sides in product(HUES, HUES, UNTURNED_SEAMS, UNTURNED_SEAMS))


STANDARD = CardSet(standard_designs())
