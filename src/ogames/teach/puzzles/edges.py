"""Edge themes of the connection games (Omny, Odd-Y): the `edge-template` and the `ladder`, as
Hex and Y players name them, on any board whose sides are named cell sets (`side0`, `side1`, …).

A cell's **row** counts from a side: row 1 is the side's own cells, row 2 the cells next to
them, and so on (the fewest steps to the side, plus one). Corners belong to two sides.

- `edge-template`: the move's stone stands on row 2 or 3 of a side its group does not touch, and
  it alone is connected to that side against any defence, the opponent moving first, by play on
  the empty cells of its template's area: on each row j from the stone's row r down to the side,
  the cells at most r − j + 1 steps from the stone (a trapezoid widening towards the side). On
  row 2 that is the bridge to the edge (template II: two empty side cells next to the stone) and
  its neighbours; on row 3 it holds both ziggurats (template IIIa) of the stone. Stones of either
  colour in the area are walls: the template is the stone and empty cells only. The proof is an
  exhaustive search of that small game (a search past its budget claims nothing). Row 4 is left
  out: its templates need a wider area than these boards have room for, and the search through
  it takes minutes.
- `ladder`: along the solution's line, two pushes in a row on row 2 of one side: the winner's
  stone on row 2, next to the previous push, leaves its group exactly one empty side cell to
  step onto the side at once, and the defence answers on exactly that cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from ogames.boards import Board
from ogames.rules.stones import StoneState

TEMPLATE_ROWS = (2, 3)
SEARCH_BUDGET = 200_000  # positions of one template's search; past it nothing is claimed


def sides(board: Board) -> dict[str, frozenset[int]]:
    """The board's sides by name (`side0`, `side1`, …); none for a board without named sides."""
    return {name: cells for name, cells in board.cell_sets.items() if name.startswith("side") and name[4:].isdigit()}


@lru_cache(maxsize=256)
def rows(board: Board, side: str) -> tuple[int, ...]:
    """Each cell's row counted from a side: 1 on the side, 2 next to it, … (a breadth-first walk)."""
    return _steps(board, board.cells(side))


@lru_cache(maxsize=4096)
def steps_from(board: Board, cell: int) -> tuple[int, ...]:
    """Each cell's distance in steps from `cell`, plus one (1 for the cell itself)."""
    return _steps(board, [cell])


def _steps(board: Board, start: Iterable[int]) -> tuple[int, ...]:
    row = [0] * len(board)
    frontier = list(start)
    for cell in frontier:
        row[cell] = 1
    while frontier:
        following = []
        for cell in frontier:
            for other in board.neighbours[cell]:
                if row[other] == 0:
                    row[other] = row[cell] + 1
                    following.append(other)
        frontier = following
    return tuple(row)


def group(state: StoneState, cell: int) -> set[int]:
    """The stones connected to the stone on `cell` through stones of its colour."""
    value, stones, neighbours = state.stones[cell], state.stones, state.board.neighbours
    found, frontier = {cell}, [cell]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if other not in found and stones[other] == value:
                found.add(other)
                frontier.append(other)
    return found


# ----- edge templates ------------------------------------------------------------------------
class _OutOfBudget(Exception):
    pass


class _TemplateGame:
    """The small game of a template: the attacker connects `start` to the side through its own
    stones (`own`) and the area's empty cells it takes; the defender, moving first, takes empty
    cells of the area to stop it. Cells are numbered by their place in `empty` (bit masks)."""

    def __init__(self, board: Board, start: int, side: frozenset[int], own: set[int], empty: list[int]):
        self.neighbours, self.start, self.side, self.own, self.empty = board.neighbours, start, side, own, empty
        self.bit = {cell: 1 << i for i, cell in enumerate(empty)}
        self.memo: dict[tuple[int, int, bool], tuple[bool, int]] = {}
        self.budget = SEARCH_BUDGET

    def _reaches(self, passable: set[int]) -> bool:
        seen, frontier = {self.start}, [self.start]
        while frontier:
            cell = frontier.pop()
            if cell in self.side:
                return True
            for other in self.neighbours[cell]:
                if other not in seen and other in passable:
                    seen.add(other)
                    frontier.append(other)
        return False

    def _cells(self, mask: int) -> set[int]:
        return {cell for cell in self.empty if mask & self.bit[cell]}

    def connected(self, taken: int) -> bool:
        """Whether the attacker's stones (own and `taken`) already join the start to the side."""
        return self._reaches(self.own | self._cells(taken))

    def cut(self, blocked: int) -> bool:
        """Whether the defender's cells `blocked` leave the start no way to the side in the area."""
        return not self._reaches(self.own | (set(self.empty) - self._cells(blocked)))

    def attacker_wins(self) -> bool:
        """Whether the attacker connects whatever the defender, who moves first, does."""
        return not self.cut(0) and self._defend(0, 0)[0]

    def _free(self, taken: int, blocked: int) -> list[int]:
        """The free cells that lie on some way from the start to the side through cells not yet
        blocked (no other cell matters to either player), as bits."""
        passable = self.own | {cell for cell in self.empty if not blocked & self.bit[cell]}
        from_start = self._spread([self.start], passable)
        from_side = self._spread([cell for cell in self.side if cell in passable], passable)
        return [self.bit[cell] for cell in self.empty
                if not (taken | blocked) & self.bit[cell] and cell in from_start and cell in from_side]

    def _spread(self, start: list[int], passable: set[int]) -> set[int]:
        seen, frontier = set(start), list(start)
        while frontier:
            for other in self.neighbours[frontier.pop()]:
                if other not in seen and other in passable:
                    seen.add(other)
                    frontier.append(other)
        return seen

    def _count(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget

    def _attack(self, taken: int, blocked: int) -> tuple[bool, int]:
        """The attacker to move: (wins, the empty cells its win relies on)."""
        key = (taken, blocked, True)
        if key not in self.memo:
            self._count()
            self.memo[key] = (False, 0)
            for b in self._free(taken, blocked):
                if self.connected(taken | b):
                    self.memo[key] = (True, b)
                    break
                won, carrier = self._defend(taken | b, blocked)
                if won:
                    self.memo[key] = (True, carrier | b)
                    break
        return self.memo[key]

    def _defend(self, taken: int, blocked: int) -> tuple[bool, int]:
        """The defender to move: (the attacker wins, the empty cells that win relies on). Once the
        attacker beats one defence relying on carrier C, a defence outside C changes nothing that
        proof uses (an extra stone never hurts its owner in a connection game), so only the
        defences inside every carrier found so far are tried."""
        key = (taken, blocked, False)
        if key not in self.memo:
            self._count()
            left = self._free(taken, blocked)
            relied = 0
            result = (True, 0)
            while left:
                b = left.pop(0)
                if self.cut(blocked | b):
                    result = (False, 0)
                    break
                won, carrier = self._attack(taken, blocked | b)
                if not won:
                    result = (False, 0)
                    break
                relied |= carrier | b
                left = [other for other in left if other & carrier]
                result = (True, relied)
            self.memo[key] = result
        return self.memo[key]


def template_side(after: StoneState, cell: int) -> str | None:
    """The side the stone on `cell` is joined to by an edge template (module docstring), or None."""
    board = after.board
    stones = group(after, cell)
    for name, side in sorted(sides(board).items()):
        row = rows(board, name)
        if row[cell] not in TEMPLATE_ROWS or stones & side:
            continue
        if _template_holds(after, cell, side, row):
            return name
    return None


def template_area(board: Board, cell: int, row: Sequence[int]) -> list[int]:
    """The cells of a template of the stone on `cell` (module docstring): on row j ≤ its row r, the
    cells at most r − j + 1 steps from it (the stone itself left out)."""
    near = steps_from(board, cell)
    return [c for c in range(len(board)) if c != cell and row[c] <= row[cell] and near[c] - 1 <= row[cell] - row[c] + 1]


def _template_holds(after: StoneState, cell: int, side: frozenset[int], row: Sequence[int]) -> bool:
    empty = [c for c in template_area(after.board, cell, row) if after.stones[c] == 0]
    try:
        return _TemplateGame(after.board, cell, side, {cell}, empty).attacker_wins()
    except _OutOfBudget:
        return False


# ----- ladders -------------------------------------------------------------------------------
def _push_side(after: StoneState, cell: int, reply: str) -> str | None:
    """The side on whose row 2 the stone just placed on `cell` pushes, answered by `reply` on the
    one side cell that would join its group to the side at once; None if it is no such push."""
    board = after.board
    stones = group(after, cell)
    for name, side in sorted(sides(board).items()):
        if rows(board, name)[cell] != 2 or stones & side:
            continue
        steps = {other for c in stones for other in board.neighbours[c] if other in side and after.stones[other] == 0}
        if len(steps) == 1 and board.labels[steps.pop()] == reply:
            return name
    return None


def ladder(state: StoneState, line: Sequence[str]) -> bool:
    """Whether the line holds a ladder (module docstring): two pushes in a row on row 2 of one
    side by the side to move in `state`, each answered on its one open side cell."""
    board = state.board
    winner = state.turn
    position = state.clone()
    previous: tuple[str, int] | None = None  # the last push: its side and cell
    for number, move in enumerate(line):
        mover = position.turn
        position.play(move, t=0.0)
        if mover != winner:
            continue
        cell = board.index(move)
        reply = line[number + 1] if number + 1 < len(line) else None
        side = None if reply is None or position.is_over else _push_side(position, cell, reply)
        if side is not None and previous is not None and previous[0] == side and previous[1] in board.neighbours[cell]:
            return True
        previous = None if side is None else (side, cell)
    return False


__all__ = ["TEMPLATE_ROWS", "group", "ladder", "rows", "sides", "template_side"]
