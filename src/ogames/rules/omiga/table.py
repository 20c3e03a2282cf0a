"""The Omiga table (RULES.md §5): a W × H grid of cards, the placement rules, win and draw tests.

Shared by every Omiga mode (base, 2v2, kids, toddler, zen). Stable API:

- `Table(width, height, card_set, owners, home_rows)`: `owners` names whoever lays cards
  (default "white", "black"); `home_rows[i]` is owner i's home edge (default: White row H−1,
  Black row 0, as in RULES.md; rows grow upwards, `a1` is the bottom-left cell).
- `table.cell(label_or_number)`, `table.label(cell)`, `table.at(cell)` → `Placed` or None.
- `table.place(cell, owner, design, face)` / `table.remove(cell)`: no rule checks (states check).
- Rule predicates, each separate so variants can combine them:
  `fits(cell, face)` (rule 1, every orthogonal neighbour of any owner),
  `fits_own(cell, face, owner)` (only neighbours of the same owner must fit: toddler),
  `touches_own(cell, owner)` (rule 2), `touches_opponent(cell, owner)` (rule 3, orthogonal or
  diagonal), `touches_any(cell)` (zen: joins the layout orthogonally).
- `PlacementRules` picks the combination (`BASE_RULES`, `KIDS_RULES`, `TODDLER_RULES`, `ZEN_RULES`);
  `table.why_not(cell, owner, face, rules)` → None or the reason in words;
  `table.legal_placements(owner, card, rules, blocked)` → [(cell, Face)] via the numba kernel,
  `legal_placements_reference` the same through the predicates (tests compare them).
- Kernels: `table.arrays(blocked)` → the `TableArrays` bundle every compiled rule takes (shared
  arrays), `deck_arrays(card_set)` → the designs as a `DeckArrays` bundle (see `kernels/omiga.py`).
- Ends: `reaches_far_edge(cell, owner)`, `is_behind(cell, owner)`, `win_reason(cell, owner)`,
  `on_side_edges(owner)`, `sides_closed(owners)`.
Owners may be given as names or indices everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ogames.boards.graph import Board
from ogames.boards.grid import square_grid
from ogames.errors import UnknownLabel
from ogames.kernels.omiga import FIT_ALL, FIT_NONE, FIT_OWN, HUE_CODE, SEAM_CODE, DeckArrays, TableArrays, legal_cells
from ogames.rules.omiga.cards import STANDARD, CardSet, Face, fits_above, fits_beside
from ogames.wording import say

_FIT_MODES = {"all": FIT_ALL, "own": FIT_OWN, "none": FIT_NONE}



def misfit_words(side: str, cell: str) -> str:
    """Why a card may not go beside a neighbour on `side` (on `cell`) that it does not match."""
    if side == "left":
        return say("misfit-left", "the card does not match the card to its left, on {cell}", cell=cell)
    if side == "right":
        return say("misfit-right", "the card does not match the card to its right, on {cell}", cell=cell)
    if side == "below":
        return say("misfit-below", "the card does not match the card below it, on {cell}", cell=cell)
    return say("misfit-above", "the card does not match the card above it, on {cell}", cell=cell)


def far_edge(colour: str, cell: str) -> str:
    """The win by a card on the far edge, in words."""
    return say("far-edge", "{colour} reached the far edge at {cell}", colour=colour, cell=cell)

@dataclass(frozen=True)
class PlacementRules:
    """Which placement rules apply: what must fit (`all`, `own`, `none`), rule 2, rule 3, joining."""

    fit: str = "all"
    own: bool = True
    opponent: bool = True
    touch: bool = False

    def __post_init__(self) -> None:
        if self.fit not in _FIT_MODES:
            raise ValueError(f"fit must be one of {', '.join(_FIT_MODES)}, not {self.fit!r}")


BASE_RULES = PlacementRules()
KIDS_RULES = PlacementRules(opponent=False)
TODDLER_RULES = PlacementRules(fit="own", opponent=False)
ZEN_RULES = PlacementRules(own=False, opponent=False, touch=True)


@dataclass(frozen=True)
class Placed:
    """A card on the table: its owner's name, its design number and the face it shows."""

    owner: str
    design: int
    face: Face


def face_codes(face: Face) -> tuple[int, int, int, int]:
    """A face as the kernel's small integers (left, right, top, bottom)."""
    return HUE_CODE[face.left], HUE_CODE[face.right], SEAM_CODE[face.top], SEAM_CODE[face.bottom]


@lru_cache(maxsize=16)
def deck_arrays(card_set: CardSet) -> DeckArrays:
    """The kernels' bundle of a card set: each design's faces as codes `(n, 2, 4)` and how many it has."""
    n = len(card_set)
    faces = np.zeros((n, 2, 4), dtype=np.int8)
    counts = np.zeros(n, dtype=np.int64)
    for d in range(n):
        options = card_set.faces(d)
        counts[d] = len(options)
        for k, face in enumerate(options):
            faces[d, k] = face_codes(face)
    return DeckArrays(faces, counts)


class Table:
    """The card grid with flat arrays for the kernel and Face objects for people and predicates."""

    def __init__(
        self,
        width: int = 15,
        height: int = 10,
        card_set: CardSet = STANDARD,
        owners: Sequence[str] = ("white", "black"),
        home_rows: Sequence[int] | None = None,
    ):
        self.board: Board = square_grid(width, height, kind="omiga table")
        self.width, self.height = width, height
        self.card_set = card_set
        self.owners = tuple(owners)
        if home_rows is None:
            home_rows = [height - 1 if name == "white" else 0 for name in self.owners]
        if len(home_rows) != len(self.owners) or any(r not in (0, height - 1) for r in home_rows):
            raise ValueError("each owner needs a home row, the table's bottom (0) or top (height − 1) row")
        self.home_rows = tuple(home_rows)
        self._forward = np.array([1 if r == 0 else -1 for r in self.home_rows], dtype=np.int64)
        self._deck = deck_arrays(card_set)  # looked up once: hashing a card set costs more than the kernel call
        n = width * height
        self.owner = np.full(n, -1, dtype=np.int8)
        self.design = np.full(n, -1, dtype=np.int16)
        self.hues = np.zeros((n, 2), dtype=np.int8)
        self.seams = np.zeros((n, 2), dtype=np.int8)
        self.faces: dict[int, Face] = {}
        self._no_block = np.zeros(n, dtype=np.bool_)  # read only: the kernels' "nothing is blocked"

    # ----- cells and owners ------------------------------------------------------------------
    def cell(self, where: str | int) -> int:
        """The cell number of a label or number; UnknownLabel if it is not on the table."""
        if isinstance(where, str):
            return self.board.index(where)
        if isinstance(where, bool) or not isinstance(where, (int, np.integer)):
            raise UnknownLabel(f"a cell label must be text, not {type(where).__name__}")  # as the board says
        if not 0 <= where < self.width * self.height:
            raise UnknownLabel(f"cell {where} is not on the {self.width} × {self.height} table")
        return int(where)

    def label(self, cell: int) -> str:
        """The label of a cell number, e.g. `h5`."""
        return self.board.labels[cell]

    def position(self, cell: int) -> tuple[int, int]:
        """(col, row) of a cell; row 0 is the bottom row."""
        return cell % self.width, cell // self.width

    def number(self, col: int, row: int) -> int | None:
        """The cell at (col, row), or None off the table."""
        if 0 <= col < self.width and 0 <= row < self.height:
            return row * self.width + col
        return None

    def index_of(self, owner: str | int) -> int:
        """An owner's index from its name or index."""
        if isinstance(owner, str):
            try:
                return self.owners.index(owner)
            except ValueError:
                raise ValueError(f"{owner!r} lays no cards here (owners: {', '.join(self.owners)})") from None
        if not 0 <= owner < len(self.owners):
            raise ValueError(f"there is no owner number {owner}")
        return int(owner)

    def at(self, cell: int) -> Placed | None:
        """The card on a cell, or None."""
        o = int(self.owner[cell])
        if o < 0:
            return None
        return Placed(self.owners[o], int(self.design[cell]), self.faces[cell])

    def owner_at(self, cell: int) -> str | None:
        """The owner's name of the card on a cell, or None."""
        o = int(self.owner[cell])
        return None if o < 0 else self.owners[o]

    def cards(self) -> Iterable[tuple[int, Placed]]:
        """Every (cell, card) on the table, by cell number."""
        for cell in sorted(self.faces):
            yield cell, self.at(cell)  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self.faces)

    # ----- changing the table (no checks) --------------------------------------------------
    def place(self, cell: int, owner: str | int, design: int, face: Face) -> None:
        """Lay a card without checking any rule (states check first)."""
        left, right, top, bottom = face_codes(face)
        self.owner[cell] = self.index_of(owner)
        self.design[cell] = design
        self.hues[cell] = (left, right)
        self.seams[cell] = (top, bottom)
        self.faces[cell] = face

    def remove(self, cell: int) -> None:
        """Take a card off the table (for search and tests)."""
        self.owner[cell] = -1
        self.design[cell] = -1
        self.faces.pop(cell, None)

    def copy(self) -> Table:
        """An independent copy."""
        other = Table.__new__(Table)
        other.__dict__.update(self.__dict__)
        for name in ("owner", "design", "hues", "seams"):
            setattr(other, name, getattr(self, name).copy())
        other.faces = dict(self.faces)
        return other

    # ----- the placement rules, one predicate each ------------------------------------------
    def _orthogonal(self, cell: int) -> list[tuple[str, int]]:
        col, row = self.position(cell)
        out = []
        for side, dc, dr in (("left", -1, 0), ("right", 1, 0), ("below", 0, -1), ("above", 0, 1)):
            other = self.number(col + dc, row + dr)
            if other is not None:
                out.append((side, other))
        return out

    def _diagonal(self, cell: int) -> list[int]:
        col, row = self.position(cell)
        return [c for dc in (-1, 1) for dr in (-1, 1) if (c := self.number(col + dc, row + dr)) is not None]

    def _fits_neighbour(self, side: str, face: Face, other: Face) -> bool:
        if side == "left":
            return fits_beside(other, face)
        if side == "right":
            return fits_beside(face, other)
        if side == "below":
            return fits_above(other, face)
        return fits_above(face, other)

    def misfit(self, cell: int, face: Face, owner: str | int | None = None) -> str | None:
        """The first orthogonal neighbour the face does not fit (only `owner`'s if given), or None."""
        me = None if owner is None else self.index_of(owner)
        for side, other in self._orthogonal(cell):
            o = int(self.owner[other])
            if o < 0 or (me is not None and o != me):
                continue
            if not self._fits_neighbour(side, face, self.faces[other]):
                return misfit_words(side, self.label(other))
        return None

    def fits(self, cell: int, face: Face) -> bool:
        """Rule 1: the face fits every orthogonal neighbour, whoever owns it."""
        return self.misfit(cell, face) is None

    def fits_own(self, cell: int, face: Face, owner: str | int) -> bool:
        """The face fits every orthogonal neighbour of the same owner (toddler)."""
        return self.misfit(cell, face, owner) is None

    def touches_own(self, cell: int, owner: str | int) -> bool:
        """Rule 2: an orthogonal neighbour holds a card of the same owner."""
        me = self.index_of(owner)
        return any(int(self.owner[o]) == me for _, o in self._orthogonal(cell))

    def touches_opponent(self, cell: int, owner: str | int) -> bool:
        """Rule 3: an orthogonal or diagonal neighbour holds another owner's card."""
        me = self.index_of(owner)
        around = [o for _, o in self._orthogonal(cell)] + self._diagonal(cell)
        return any(int(self.owner[o]) >= 0 and int(self.owner[o]) != me for o in around)

    def touches_any(self, cell: int) -> bool:
        """An orthogonal neighbour holds a card (zen: every card joins the layout)."""
        return any(int(self.owner[o]) >= 0 for _, o in self._orthogonal(cell))

    def why_not(self, cell: int, owner: str | int, face: Face, rules: PlacementRules = BASE_RULES) -> str | None:
        """None if the face may be laid on the cell for the owner under the rules, else why not."""
        if int(self.owner[cell]) >= 0:
            return say("cell-taken", "{cell} is taken", cell=self.label(cell))
        if rules.touch and not self.touches_any(cell):
            return say("not-joined", "{cell} does not join the cards on the table", cell=self.label(cell))
        if rules.own and not self.touches_own(cell, owner):
            return say("rule-2", "{cell} does not touch a card of your own colour (rule 2)", cell=self.label(cell))
        if rules.opponent and not self.touches_opponent(cell, owner):
            return say("rule-3", "{cell} does not touch an opponent's card (rule 3)", cell=self.label(cell))
        if rules.fit != "none":
            problem = self.misfit(cell, face, owner if rules.fit == "own" else None)
            if problem:
                return say("rule-1", "{problem} (rule 1)", problem=problem)
        return None

    # ----- all legal placements ------------------------------------------------------------
    def arrays(self, blocked: np.ndarray | None = None) -> TableArrays:
        """The table as the kernels' bundle; its arrays are the table's own, so later changes show."""
        return TableArrays(
            self.owner, self.hues, self.seams, self._no_block if blocked is None else blocked, self._forward,
            self.width, self.height,
        )

    def faces_of(self, card: int | Face) -> tuple[Face, ...]:
        """The faces a card may show: a design number's faces from the card set, or a face and its turn."""
        if isinstance(card, Face):
            turned = card.turned()
            return (card,) if not self.card_set.turning or turned == card else (card, turned)
        return self.card_set.faces(card)

    def legal_placements(
        self, owner: str | int, card: int | Face, rules: PlacementRules = BASE_RULES, blocked: np.ndarray | None = None
    ) -> list[tuple[int, Face]]:
        """Every (cell, face) where the owner may lay the card (numba kernel; cells in order)."""
        faces = self.faces_of(card)
        if isinstance(card, Face):
            codes = np.array([face_codes(f) for f in faces], dtype=np.int8)
        else:
            codes = self._deck.faces[card, : self._deck.n_faces[card]]
        me = self.index_of(owner)
        flags = (_FIT_MODES[rules.fit], rules.own, rules.opponent, rules.touch)
        # The kernel's scratch space is made per call, never kept on the table: a table is part of a
        # state, and a question about a state (a refused discard asks where the card fits) must not
        # change a byte of it.
        found = np.empty((self.width * self.height * len(codes), 2), dtype=np.int32)
        count = legal_cells(self.arrays(blocked), me, codes, *flags, found)
        return [(cell, faces[k]) for cell, k in found[:count].tolist()]

    def legal_placements_reference(
        self, owner: str | int, card: int | Face, rules: PlacementRules = BASE_RULES, blocked: np.ndarray | None = None
    ) -> list[tuple[int, Face]]:
        """The same as `legal_placements`, through the rule predicates (the reference)."""
        out = []
        for cell in range(self.width * self.height):
            if blocked is not None and blocked[cell]:
                continue
            for face in self.faces_of(card):
                if self.why_not(cell, owner, face, rules) is None:
                    out.append((cell, face))
        return out

    # ----- ends of the game ----------------------------------------------------------------
    def forward(self, owner: str | int) -> int:
        """+1 if the owner plays upwards (home row 0), −1 if downwards."""
        return 1 if self.home_rows[self.index_of(owner)] == 0 else -1

    def far_row(self, owner: str | int) -> int:
        """The row opposite the owner's home edge (the opponent's home edge in two-player games)."""
        return self.height - 1 if self.forward(owner) == 1 else 0

    def reaches_far_edge(self, cell: int, owner: str | int) -> bool:
        """Whether a card on the cell lies on the edge opposite the owner's home edge."""
        return self.position(cell)[1] == self.far_row(owner)

    def is_behind(self, cell: int, owner: str | int) -> bool:
        """Whether the cell is behind another owner's card: the cell on the owner's home side of it holds one."""
        me = self.index_of(owner)
        col, row = self.position(cell)
        home_side = self.number(col, row - self.forward(me))
        return home_side is not None and int(self.owner[home_side]) >= 0 and int(self.owner[home_side]) != me

    def win_reason(self, cell: int, owner: str | int) -> str | None:
        """Why a card of the owner on the cell wins (far edge or behind an opponent card), or None."""
        name = self.owners[self.index_of(owner)]
        if self.reaches_far_edge(cell, owner):
            return far_edge(name, self.label(cell))
        if self.is_behind(cell, owner):
            col, row = self.position(cell)
            below = self.number(col, row - self.forward(owner))
            return say("got-behind", "{colour} got behind the card on {behind} at {cell}", colour=name,
                       behind=self.label(below), cell=self.label(cell))  # type: ignore[arg-type]
        return None

    def on_side_edges(self, owner: str | int) -> tuple[bool, bool]:
        """Whether the owner has a card in the leftmost column, and in the rightmost column."""
        me = self.index_of(owner)
        grid = self.owner.reshape(self.height, self.width)
        return bool((grid[:, 0] == me).any()), bool((grid[:, -1] == me).any())

    def sides_closed(self, owners: Iterable[str | int] | None = None) -> bool:
        """The draw test: every owner has cards on both the left and the right table edges."""
        owners = self.owners if owners is None else owners
        return all(all(self.on_side_edges(o)) for o in owners)

    def edge_reached_by_all(self, side: str, owners: Iterable[str | int] | None = None) -> bool:
        """Whether every owner has a card on the `left` or `right` table edge (2v2 freezing)."""
        owners = self.owners if owners is None else owners
        k = 0 if side == "left" else 1
        return all(self.on_side_edges(o)[k] for o in owners)

    def centre(self) -> int:
        """The centre cell (column W // 2, row H // 2) where the first card goes."""
        return self.width // 2 + (self.height // 2) * self.width
