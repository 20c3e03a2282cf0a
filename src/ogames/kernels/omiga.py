"""Omiga's rules over flat arrays, compiled once: every kernel (legal placements, the bots' threat
counting and rollouts) calls these predicates, and each has a plain-Python twin `<name>_reference`.

The table reaches a kernel as one `TableArrays` bundle (built by `Table.arrays()`), the designs as
one `DeckArrays` bundle (built by `deck_arrays(card_set)`, both in `rules/omiga/table.py`):
- `owner[c]`: −1 empty, else the owner index of the card on c (cell = row · width + col, rows grow
  upwards);
- `hues[c] = (left, right)`, `seams[c] = (top, bottom)` as small codes (see `HUE_CODE`, `SEAM_CODE`);
- `blocked[c]`: true where nothing may be laid (a frozen end in 2v2);
- `forward[o]`: +1 when owner o plays upwards (home row 0), −1 when downwards (home row H − 1);
- `faces[d, k] = (left, right, top, bottom)`: face k of design d, `n_faces[d]` of them (1 or 2).
A face is any 4 codes (left, right, top, bottom).

Rules are flags: `fit_mode` `FIT_ALL` = the card fits every orthogonal neighbour (rule 1),
`FIT_OWN` = only neighbours of its own owner (toddler), `FIT_NONE` = none; `need_own` (rule 2),
`need_opp` (rule 3), `need_touch` (any orthogonal card: zen). The ends of the game: a card wins on
the far edge or behind an opponent card (`wins_at`); the table is closed, a draw, when every owner
has cards on both side edges (`sides_closed`).

The plain `Table` (rules/omiga/table.py) states the same rules with Face objects; the tests check
the two against each other.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

HUE_CODE = {"A": 0, "B": 1}
SEAM_CODE = {"/": 0, "\\": 1, "^": 2, "v": 3}

FIT_ALL, FIT_OWN, FIT_NONE = 0, 1, 2

# The predicates, and the kernels' helpers that only read and write arrays they are given, compile
# without the runtime's reference counting (numba's `_nrt=False`; they must not allocate). Taking a
# field of a bundle (`t.owner`) counts a reference, and with counting these run 4× slower inside
# the kernels' loops; without it they beat the former flat-argument versions.
njit_noalloc = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt is private: numba's stubs do not list it


class TableArrays(NamedTuple):
    """The table as kernels see it (see the module doc). The arrays are shared, not copied."""

    owner: np.ndarray
    hues: np.ndarray
    seams: np.ndarray
    blocked: np.ndarray
    forward: np.ndarray
    width: int
    height: int

    def copy(self) -> TableArrays:
        """A bundle with its own owner, hues and seams (for kernels that lay cards on it)."""
        return self._replace(owner=self.owner.copy(), hues=self.hues.copy(), seams=self.seams.copy())


class DeckArrays(NamedTuple):
    """The card set's designs as kernel codes: `faces[d, k]` (left, right, top, bottom), `n_faces[d]`."""

    faces: np.ndarray
    n_faces: np.ndarray


# ----- rule 1: fitting -------------------------------------------------------------------------
@njit_noalloc
def fits(t: TableArrays, cell: int, me: int, face: np.ndarray, fit_mode: int) -> bool:
    """Rule 1: `face` fits the orthogonal neighbours of `cell` (all, only `me`'s, or none: `fit_mode`)."""
    if fit_mode == FIT_NONE:
        return True
    width = t.width
    col = cell % width
    row = cell // width
    owner = t.owner
    if col > 0:
        o = owner[cell - 1]
        if o >= 0 and (fit_mode == FIT_ALL or o == me) and t.hues[cell - 1, 1] != face[0]:
            return False
    if col < width - 1:
        o = owner[cell + 1]
        if o >= 0 and (fit_mode == FIT_ALL or o == me) and t.hues[cell + 1, 0] != face[1]:
            return False
    if row > 0:
        o = owner[cell - width]
        if o >= 0 and (fit_mode == FIT_ALL or o == me) and t.seams[cell - width, 0] != face[3]:
            return False
    if row < t.height - 1:
        o = owner[cell + width]
        if o >= 0 and (fit_mode == FIT_ALL or o == me) and t.seams[cell + width, 1] != face[2]:
            return False
    return True


def fits_reference(t: TableArrays, cell: int, me: int, face, fit_mode: int) -> bool:
    """Rule 1 the obvious way: each orthogonal card that counts shares the edge's hue or seam."""
    col, row = cell % t.width, cell // t.width
    # (step, the neighbour's code array, its side facing us, our side facing it)
    sides = ((-1, 0, t.hues, 1, 0), (1, 0, t.hues, 0, 1), (0, -1, t.seams, 0, 3), (0, 1, t.seams, 1, 2))
    for dc, dr, codes, theirs, mine in sides:
        c, r = col + dc, row + dr
        if not (0 <= c < t.width and 0 <= r < t.height):
            continue
        other = r * t.width + c
        o = int(t.owner[other])
        if o < 0 or fit_mode == FIT_NONE or (fit_mode == FIT_OWN and o != me):
            continue
        if codes[other][theirs] != face[mine]:
            return False
    return True


# ----- rules 2 and 3: contact ------------------------------------------------------------------
@njit_noalloc
def orthogonal_contacts(t: TableArrays, cell: int, me: int) -> tuple[bool, bool]:
    """Whether the cell's orthogonal neighbours hold a card of `me` (rule 2) and of another owner."""
    width, height = t.width, t.height
    col, row = cell % width, cell // width
    own = False
    opp = False
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        c2, r2 = col + dc, row + dr
        if 0 <= c2 < width and 0 <= r2 < height:
            o = t.owner[r2 * width + c2]
            if o == me:
                own = True
            elif o >= 0:
                opp = True
    return own, opp


@njit_noalloc
def diagonal_opponent(t: TableArrays, cell: int, me: int) -> bool:
    """Whether a diagonal neighbour holds another owner's card (rule 3 also counts diagonals)."""
    width, height = t.width, t.height
    col, row = cell % width, cell // width
    for dc, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        c2, r2 = col + dc, row + dr
        if 0 <= c2 < width and 0 <= r2 < height:
            o = t.owner[r2 * width + c2]
            if o >= 0 and o != me:
                return True
    return False


@njit_noalloc
def touches_opponent(t: TableArrays, cell: int, me: int) -> bool:
    """Rule 3: an orthogonal or diagonal neighbour holds another owner's card."""
    return orthogonal_contacts(t, cell, me)[1] or diagonal_opponent(t, cell, me)


def _around_reference(t: TableArrays, cell: int, diagonal: bool) -> list[int]:
    """The owners on the cell's orthogonal (or diagonal) neighbours, −1 for empty ones."""
    col, row = cell % t.width, cell // t.width
    steps = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if diagonal else ((1, 0), (-1, 0), (0, 1), (0, -1))
    cells = [(col + a, row + b) for a, b in steps]
    return [int(t.owner[r * t.width + c]) for c, r in cells if 0 <= c < t.width and 0 <= r < t.height]


def orthogonal_contacts_reference(t: TableArrays, cell: int, me: int) -> tuple[bool, bool]:
    """The same as `orthogonal_contacts` from the list of orthogonal owners."""
    orth = _around_reference(t, cell, diagonal=False)
    return me in orth, any(o >= 0 and o != me for o in orth)


def diagonal_opponent_reference(t: TableArrays, cell: int, me: int) -> bool:
    """The same as `diagonal_opponent` from the list of diagonal owners."""
    return any(o >= 0 and o != me for o in _around_reference(t, cell, diagonal=True))


def touches_opponent_reference(t: TableArrays, cell: int, me: int) -> bool:
    """Rule 3 over all eight neighbours."""
    around = _around_reference(t, cell, diagonal=False) + _around_reference(t, cell, diagonal=True)
    return any(o >= 0 and o != me for o in around)


# ----- a legal cell: empty, open, and the contact rules ------------------------------------------
@njit_noalloc
def legal_cell(t: TableArrays, cell: int, me: int, need_own: bool, need_opp: bool, need_touch: bool) -> bool:
    """Whether `me` may lay a card on the cell, fitting aside: empty, not blocked, and rules 2, 3, joining."""
    if t.owner[cell] >= 0 or t.blocked[cell]:
        return False
    own, opp = orthogonal_contacts(t, cell, me)
    if need_touch and not (own or opp):
        return False
    if need_own and not own:
        return False
    if need_opp and not opp:
        return diagonal_opponent(t, cell, me)
    return True


def legal_cell_reference(t: TableArrays, cell: int, me: int, need_own: bool, need_opp: bool, need_touch: bool) -> bool:
    """The same as `legal_cell`, each condition on its own."""
    if t.owner[cell] >= 0 or t.blocked[cell]:
        return False
    orth = _around_reference(t, cell, diagonal=False)
    if need_touch and all(o < 0 for o in orth):
        return False
    if need_own and me not in orth:
        return False
    return not need_opp or touches_opponent_reference(t, cell, me)


@njit_noalloc
def legal_cells(
    t: TableArrays,
    me: int,
    faces: np.ndarray,
    fit_mode: int,
    need_own: bool,
    need_opp: bool,
    need_touch: bool,
    out: np.ndarray,
) -> int:
    """Write every legal (cell, face index) for owner `me` into `out`, cells in order; return how many."""
    count = 0
    for cell in range(t.width * t.height):
        if not legal_cell(t, cell, me, need_own, need_opp, need_touch):
            continue
        for k in range(faces.shape[0]):
            if fits(t, cell, me, faces[k], fit_mode):
                out[count, 0] = cell
                out[count, 1] = k
                count += 1
    return count


def legal_cells_reference(
    t: TableArrays, me: int, faces, fit_mode: int, need_own: bool, need_opp: bool, need_touch: bool
) -> list[tuple[int, int]]:
    """The same search through the reference predicates; returns the (cell, face index) list."""
    return [
        (cell, k)
        for cell in range(t.width * t.height)
        if legal_cell_reference(t, cell, me, need_own, need_opp, need_touch)
        for k, face in enumerate(faces)
        if fits_reference(t, cell, me, face, fit_mode)
    ]


# ----- the ends: a win, a closed table ---------------------------------------------------------
@njit_noalloc
def reaches_far_edge(t: TableArrays, cell: int, me: int) -> bool:
    """Whether the cell lies on the edge opposite `me`'s home edge."""
    return cell // t.width == (t.height - 1 if t.forward[me] == 1 else 0)


@njit_noalloc
def is_behind(t: TableArrays, cell: int, me: int) -> bool:
    """Whether the cell on `me`'s home side of the cell holds another owner's card."""
    back = cell // t.width - t.forward[me]
    if back < 0 or back >= t.height:
        return False
    o = t.owner[back * t.width + cell % t.width]
    return o >= 0 and o != me


@njit_noalloc
def wins_at(t: TableArrays, cell: int, me: int) -> bool:
    """The win geometry: a card of `me` on the cell reaches the far edge or lies behind an opponent card."""
    return reaches_far_edge(t, cell, me) or is_behind(t, cell, me)


@njit_noalloc
def win_cell(t: TableArrays, cell: int, me: int) -> bool:
    """Whether a fitting card of `me` would win on the cell under the base rules (2 and 3, not blocked)."""
    # The geometry first: it rules out most cells at once.
    return wins_at(t, cell, me) and legal_cell(t, cell, me, True, True, False)


def reaches_far_edge_reference(t: TableArrays, cell: int, me: int) -> bool:
    """The far row is the top row for an owner playing upwards, the bottom row otherwise."""
    far_row = t.height - 1 if t.forward[me] > 0 else 0
    return cell // t.width == far_row


def is_behind_reference(t: TableArrays, cell: int, me: int) -> bool:
    """One step back towards `me`'s home edge holds a card of someone else."""
    col, row = cell % t.width, cell // t.width
    back = row - int(t.forward[me])
    return 0 <= back < t.height and int(t.owner[back * t.width + col]) not in (-1, me)


def wins_at_reference(t: TableArrays, cell: int, me: int) -> bool:
    """Far edge or behind."""
    return reaches_far_edge_reference(t, cell, me) or is_behind_reference(t, cell, me)


def win_cell_reference(t: TableArrays, cell: int, me: int) -> bool:
    """A legal cell under rules 2 and 3 with the win geometry."""
    return legal_cell_reference(t, cell, me, True, True, False) and wins_at_reference(t, cell, me)


@njit_noalloc
def sides_closed(t: TableArrays, n_owners: int) -> bool:
    """The draw test: each of the owners 0 … n_owners − 1 has cards on both the left and the right edge."""
    width = t.width
    for side in range(n_owners):
        left = False
        right = False
        for row in range(t.height):
            if t.owner[row * width] == side:
                left = True
            if t.owner[row * width + width - 1] == side:
                right = True
        if not (left and right):
            return False
    return True


def sides_closed_reference(t: TableArrays, n_owners: int) -> bool:
    """The same from the two edge columns."""
    grid = [[int(t.owner[row * t.width + col]) for row in range(t.height)] for col in (0, t.width - 1)]
    return all(o in grid[0] and o in grid[1] for o in range(n_owners))
