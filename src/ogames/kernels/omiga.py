"""Omiga placement search over flat arrays: a numba kernel and its plain-Python twin.

Arrays (one entry per cell, cell = row · width + col, rows grow upwards):
- `owner[c]`: −1 empty, else the owner index of the card on c;
- `hues[c] = (left, right)`, `seams[c] = (top, bottom)` as small codes (see `HUE_CODE`, `SEAM_CODE`);
- `blocked[c]`: true where nothing may be laid (a frozen end in 2v2);
- `faces[k] = (left, right, top, bottom)`: the faces to try.
Rules are flags: `fit_mode` 0 = the card fits every orthogonal neighbour, 1 = only neighbours of its
own owner, 2 = none; `need_own` (rule 2), `need_opp` (rule 3), `need_touch` (any orthogonal card).
The result is written into `out` as rows (cell, face index), cells in increasing order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

HUE_CODE = {"A": 0, "B": 1}
SEAM_CODE = {"/": 0, "\\": 1, "^": 2, "v": 3}

FIT_ALL, FIT_OWN, FIT_NONE = 0, 1, 2


@njit(cache=True)
def _fits(owner, hues, seams, width, height, cell, me, face, fit_mode) -> bool:  # pragma: no cover - compiled
    col = cell % width
    row = cell // width
    if fit_mode == 2:
        return True
    if col > 0:
        o = owner[cell - 1]
        if o >= 0 and (fit_mode == 0 or o == me) and hues[cell - 1, 1] != face[0]:
            return False
    if col < width - 1:
        o = owner[cell + 1]
        if o >= 0 and (fit_mode == 0 or o == me) and hues[cell + 1, 0] != face[1]:
            return False
    if row > 0:
        o = owner[cell - width]
        if o >= 0 and (fit_mode == 0 or o == me) and seams[cell - width, 0] != face[3]:
            return False
    if row < height - 1:
        o = owner[cell + width]
        if o >= 0 and (fit_mode == 0 or o == me) and seams[cell + width, 1] != face[2]:
            return False
    return True


@njit(cache=True)
def orthogonal_contacts(owner: np.ndarray, width: int, height: int, cell: int, me: int) -> tuple[bool, bool]:
    """Whether the cell's orthogonal neighbours hold a card of `me` (rule 2) and of another owner."""
    col, row = cell % width, cell // width
    own = False
    opp = False
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        c2, r2 = col + dc, row + dr
        if 0 <= c2 < width and 0 <= r2 < height:
            o = owner[r2 * width + c2]
            if o == me:
                own = True
            elif o >= 0:
                opp = True
    return own, opp


@njit(cache=True)
def diagonal_opponent(owner: np.ndarray, width: int, height: int, cell: int, me: int) -> bool:
    """Whether a diagonal neighbour holds another owner's card (rule 3 also counts diagonals)."""
    col, row = cell % width, cell // width
    for dc, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        c2, r2 = col + dc, row + dr
        if 0 <= c2 < width and 0 <= r2 < height:
            o = owner[r2 * width + c2]
            if o >= 0 and o != me:
                return True
    return False


@njit(cache=True)
def legal_cells(
    owner: np.ndarray,
    hues: np.ndarray,
    seams: np.ndarray,
    blocked: np.ndarray,
    width: int,
    height: int,
    me: int,
    faces: np.ndarray,
    fit_mode: int,
    need_own: bool,
    need_opp: bool,
    need_touch: bool,
    out: np.ndarray,
) -> int:
    """Write every legal (cell, face index) for owner `me` into `out`; return how many."""
    count = 0
    for cell in range(width * height):
        if owner[cell] >= 0 or blocked[cell]:
            continue
        own, opp = orthogonal_contacts(owner, width, height, cell, me)
        touch = own or opp
        if need_opp and not opp:
            opp = diagonal_opponent(owner, width, height, cell, me)
        if (need_own and not own) or (need_opp and not opp) or (need_touch and not touch):
            continue
        for k in range(faces.shape[0]):
            if _fits(owner, hues, seams, width, height, cell, me, faces[k], fit_mode):
                out[count, 0] = cell
                out[count, 1] = k
                count += 1
    return count


def legal_cells_reference(
    owner, hues, seams, blocked, width: int, height: int, me: int, faces,
    fit_mode: int, need_own: bool, need_opp: bool, need_touch: bool,
) -> list[tuple[int, int]]:
    """The same search in plain Python, written the slow obvious way (the tests' yardstick)."""
    found = []
    for row in range(height):
        for col in range(width):
            cell = row * width + col
            if owner[cell] >= 0 or blocked[cell]:
                continue
            orth = [(col + dc, row + dr, side) for dc, dr, side in ((-1, 0, "l"), (1, 0, "r"), (0, -1, "b"), (0, 1, "t"))]
            orth = [(c, r, side) for c, r, side in orth if 0 <= c < width and 0 <= r < height]
            diag = [(col + dc, row + dr) for dc in (-1, 1) for dr in (-1, 1) if 0 <= col + dc < width and 0 <= row + dr < height]
            orth_owners = [int(owner[r * width + c]) for c, r, _ in orth]
            diag_owners = [int(owner[r * width + c]) for c, r in diag]
            if need_own and me not in orth_owners:
                continue
            if need_touch and all(o < 0 for o in orth_owners):
                continue
            if need_opp and not any(o >= 0 and o != me for o in orth_owners + diag_owners):
                continue
            for k, (left, right, top, bottom) in enumerate(faces):
                ok = True
                for c, r, side in orth:
                    other = r * width + c
                    o = int(owner[other])
                    if o < 0 or fit_mode == FIT_NONE or (fit_mode == FIT_OWN and o != me):
                        continue
                    if side == "l":
                        ok = ok and hues[other][1] == left
                    elif side == "r":
                        ok = ok and hues[other][0] == right
                    elif side == "b":
                        ok = ok and seams[other][0] == bottom
                    else:
                        ok = ok and seams[other][1] == top
                if ok:
                    found.append((cell, k))
    return found
