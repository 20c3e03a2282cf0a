"""An exact short-range solver for Onyx: does the side to move force a connection within k of its
own moves, and does a given move lose to the opponent's forced connection?

    >>> import ogames
    >>> state = ogames.load("onyx").new_state()
    >>> wins_within(Position.of(state), 1)
    False

Onyx ends by connection long before its board fills, so "near the end" means near a connection,
not few empty points: the solver proves forced wins of a bounded length ("win in k": the mover
connects with at most k stones whatever the opponent answers), with no estimate anywhere. Each
answer it gives is a proof: True means the win is forced within k; False means no win within k
exists (a longer one may). At depth 3 only forcing wins are searched (each stone but the last
threatens to connect at once, so the opponent's answers are the few that spoil the threats): True
is still a proof, False then means "none found". A puzzle needs proofs only of the first kind:
its move wins within k, and after every other move the opponent wins within k.

Exact facts keep the tree small:
- `threats(colour)`: the open points where one stone of that colour connects its sides. A stone
  joins the placed point's neighbouring groups; the stones its captures remove are the enemy's, so
  captures never change whether the mover's own stone connects.
- The opponent's reply to "win in 1 next" must leave no threat. A reply that is not on a threat
  point, captures nothing and is not a corner of a threatened midpoint (which it would close)
  leaves every threat as it was, so only the replies that do one of those are tried.
- Before a deeper move, if the opponent threatens, only the moves that leave no threat are tried
  (any other loses at once).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numba import njit

from ogames.boards.onyx import OnyxLattice
from ogames.kernels import onyx as onyx_kernels
from ogames.rules.onyx import OnyxState

BLACK, WHITE = 1, 2
GOALS = onyx_kernels.GOALS  # the side bits each colour (1 black, 2 white) must touch
MAX_DEPTH = 3  # own moves; beyond this the tree is too wide for a puzzle's budget


@njit(cache=True)
def threat_cells(
    stones: np.ndarray, colour: int, table: np.ndarray, side_bits: np.ndarray, goal: int, midpoint_corners: np.ndarray,
    out: np.ndarray,
) -> int:  # fmt: skip
    """Write into `out` the open points where a stone of `colour` connects its sides; how many."""
    n = stones.shape[0]
    group = np.full(n, -1, dtype=np.int32)
    group_sides = np.zeros(n, dtype=np.int8)
    queue = np.empty(n, dtype=np.int32)
    groups = 0
    for start in range(n):
        if stones[start] != colour or group[start] >= 0:
            continue
        group[start] = groups
        queue[0] = start
        head, tail, bits = 0, 1, 0
        while head < tail:
            cell = queue[head]
            head += 1
            bits |= side_bits[cell]
            for k in range(table.shape[1]):
                other = table[cell, k]
                if other < 0:
                    break
                if stones[other] == colour and group[other] < 0:
                    group[other] = groups
                    queue[tail] = other
                    tail += 1
        group_sides[groups] = bits
        groups += 1
    count = 0
    for cell in range(n):
        if stones[cell] != 0:
            continue
        if midpoint_corners[cell, 0] >= 0:
            closed = False
            for k in range(4):
                if stones[midpoint_corners[cell, k]] != 0:
                    closed = True
            if closed:
                continue
        bits = side_bits[cell]
        for k in range(table.shape[1]):
            other = table[cell, k]
            if other < 0:
                break
            if stones[other] == colour:
                bits |= group_sides[group[other]]
        if bits & goal == goal:
            out[count] = cell
            count += 1
    return count


@dataclass
class Position:
    """Stones (0 empty, 1 black, 2 white) and the colour to move, on the Onyx lattice."""

    stones: np.ndarray
    colour: int
    lattice: OnyxLattice

    @classmethod
    def of(cls, state: OnyxState) -> Position:
        return cls(state.stones.copy(), state.turn + 1, state.lattice)

    def threats(self, colour: int) -> list[int]:
        """The open points where a stone of `colour` would connect its sides now."""
        lat = self.lattice
        out = np.empty(len(self.stones), dtype=np.int32)
        count = threat_cells(
            self.stones, colour, lat.board.neighbour_table, lat.side_bits, int(GOALS[colour]), lat.midpoint_corners, out
        )
        return [int(c) for c in out[:count]]

    def open_points(self) -> list[int]:
        """The points a stone may go on now (empty, and a midpoint only with all four corners empty)."""
        corners = self.lattice.midpoint_corners
        held = (self.stones[corners] != 0) & (corners >= 0)
        return np.flatnonzero((self.stones == 0) & ~held.any(axis=1)).tolist()

    def after(self, cell: int) -> tuple[Position, list[int]]:
        """The position after the mover's stone on `cell` (with its captures), and the captured points."""
        stones = self.stones.copy()
        stones[cell] = self.colour
        found = np.empty(4, dtype=np.int32)
        count = onyx_kernels.find_captures(stones, self.lattice.square_table, cell, found)
        gone = [int(c) for c in found[:count]]
        stones[gone] = 0
        return Position(stones, 3 - self.colour, self.lattice), gone

    def captures(self, cell: int) -> bool:
        """Whether the mover's stone on `cell` would capture."""
        return bool(self.after(cell)[1])

    def may_spoil(self, cell: int, targets: list[int]) -> bool:
        """Whether the mover's stone on `cell` can change whether the opponent still connects on
        one of `targets`: it stands on one, captures, or closes a target midpoint."""
        if cell in targets or self.captures(cell):
            return True
        corners = self.lattice.midpoint_corners
        return any(corners[t, 0] >= 0 and cell in corners[t] for t in targets)


def wins_within(position: Position, depth: int) -> bool:
    """Whether the mover forces a connection with at most `depth` of its own stones (exact)."""
    return next(winning_moves_within(position, depth, first=True), None) is not None


def winning_moves_within(position: Position, depth: int, first: bool = False) -> Iterator[int]:
    """The mover's moves that force a connection within `depth` own stones (all of them, or the
    first found when `first`)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be 1 to {MAX_DEPTH}, not {depth}")
    mine = position.threats(position.colour)
    yield from mine
    if (first and mine) or depth == 1:
        return
    for cell in _defences(position):
        if cell not in mine and move_wins(position, cell, depth):
            yield cell
            if first:
                return


def _defences(position: Position) -> list[int]:
    """The mover's moves that do not lose at once: if the opponent threatens, those that might
    spoil every threat; otherwise every open point."""
    theirs = position.threats(3 - position.colour)
    points = position.open_points()
    if not theirs:
        return points
    return [c for c in points if position.may_spoil(c, theirs)]


def move_wins(position: Position, cell: int, depth: int) -> bool:
    """Whether the mover's stone on `cell` forces a connection within `depth` own stones."""
    if cell in position.threats(position.colour):
        return True
    if depth == 1:
        return False
    after, _ = position.after(cell)
    if after.threats(after.colour):
        return False  # the opponent connects at once
    mine = after.threats(position.colour)
    if not mine:
        return False  # (at depth 3 only forcing moves are searched: see the module)
    replies = [r for r in after.open_points() if after.may_spoil(r, mine)]
    if depth == 2:
        return all(after.after(r)[0].threats(position.colour) for r in replies)
    return all(wins_within(after.after(r)[0], depth - 1) for r in replies)


def move_loses(position: Position, cell: int, depth: int) -> bool:
    """Whether after the mover's stone on `cell` the opponent forces a connection within `depth`
    of its stones (exact; False also when the move itself connects)."""
    if cell in position.threats(position.colour):
        return False
    after, _ = position.after(cell)
    return wins_within(after, depth)


def best_defence(position: Position, cell: int) -> int | None:
    """After the mover's winning stone on `cell`, a reply of the opponent that leaves the fewest
    connecting points (the hardest to meet): None when the stone itself connects."""
    if cell in position.threats(position.colour):
        return None
    after, _ = position.after(cell)
    replies = after.open_points()
    mine = after.threats(position.colour)
    if mine:
        replies = [r for r in replies if after.may_spoil(r, mine)] or replies
    return min(replies, key=lambda r: (len(after.after(r)[0].threats(position.colour)), r))


# ----- plain reference ---------------------------------------------------------------------------


def threats_reference(state: OnyxState, colour: str) -> list[str]:
    """The points where a stone of `colour` connects, found by the rules themselves: a stone of
    that colour placed on every legal point of a copy (with the turn set to that colour)."""
    found = []
    for move in state.clone().legal_moves():
        if move == "swap":
            continue
        copy = state.clone()
        copy.turn = state.game.colours.index(colour)
        copy.play(move, t=0.0)
        if copy.result is not None and copy.result.winner == colour:
            found.append(move)
    return found
