"""An exact endgame solver for two-player Omega: who wins with perfect play once few cells are
empty, and which stones win.

    >>> import ogames
    >>> state = ogames.load("omega", size=4).new_state()
    >>> for cell in state.legal_moves()[:28]:
    ...     state.play(cell)
    <...>
    >>> verdict = solve(state)
    >>> verdict.value in ("win", "loss"), state.empty_count
    (True, 9)

A decision is one stone (as the rules' `legal_moves` offer them): the player whose turn it is
places a white stone and then a black one, so two decisions in a row belong to the same seat. The
game ends at the start of a round with fewer than four empty cells, every play after the same
number of stones, so the tree below a position is finite and small when few cells are empty: the
solver walks it whole (depth-first, stopping at the first winning stone of the deciding seat, with
a transposition table keyed by which empty cells got which colour). Single games have no draw
(equal scores go to the later colour), so every position is a win or a loss for the seat to decide.

Scoring a full board is the only work at the leaves. The stones already placed never change, so
their groups are found once: a leaf's score joins those groups through the cells filled since,
over a small graph of "fixed group" and "empty cell" nodes.

Only two-player single games without a pending pie choice (`pie` after the first round, no `match`)
are solved; the value is for `state.mover`, who owns the colour `turn_colour` for the whole game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ogames.errors import BadOption, CannotPlay
from ogames.rules.omega import OmegaState, best_colour

WIN, LOSS, UNKNOWN = "win", "loss", "unknown"
MAX_EMPTY = 17  # more empty cells than this are refused: the tree grows as 3^empty
DEFAULT_BUDGET = 2_000_000  # positions visited


class OutOfBudget(Exception):
    """The search visited more positions than its budget allowed."""


@dataclass
class Verdict:
    """What `solve` found: the value for the seat to decide, a winning stone, and the effort."""

    value: str  # "win", "loss" or "unknown" (budget exhausted) for state.mover
    move: str | None = None  # a winning cell when value is "win"
    nodes: int = 0
    seconds: float = 0.0

    @property
    def proved(self) -> bool:
        return self.value != UNKNOWN


def check_solvable(state: OmegaState) -> None:
    """Refuse (CannotPlay) a position this solver does not play, saying why."""
    options = state.game.options
    if int(options["players"]) != 2:
        raise CannotPlay("the Omega endgame solver plays two-player Omega only")
    if options["match"]:
        raise CannotPlay("the Omega endgame solver plays single games, not the two-game match")
    if state.pie_seat is not None:
        raise CannotPlay("the pie choice is still open: the endgame solver starts after it")
    if state.is_over:
        raise CannotPlay("the game is over")
    if state.empty_count > MAX_EMPTY:
        raise CannotPlay(f"{state.empty_count} empty cells: the endgame solver takes at most {MAX_EMPTY}")


class OmegaEndgame:
    """The tree below one position of two-player Omega, searched on demand with a shared table.

    Colours are 0 (white) and 1 (black); a colour wins or loses, and the seat holding it with it.
    """

    def __init__(self, state: OmegaState, budget: int = DEFAULT_BUDGET):
        check_solvable(state)
        self.state = state
        self.budget = budget
        self.nodes = 0
        board = state.board
        stones = state.stones
        self.colours = state.game.colours
        self.empties = [int(c) for c in np.flatnonzero(stones == 0)]
        self.bit = {cell: 1 << i for i, cell in enumerate(self.empties)}
        self.full = (1 << len(self.empties)) - 1
        self.stone_index = state.stone_index
        self.turn_colour = state.turn_colour
        self.memo: dict[tuple[int, int], int] = {}
        self.graphs = [self._score_graph(board.neighbours, stones, value) for value in (1, 2)]

    def _score_graph(self, neighbours: Sequence[Sequence[int]], stones: np.ndarray, value: int) -> _ScoreGraph:
        """The fixed groups of one colour, which empty cells touch which, and the constant factor
        of the groups no empty cell touches."""
        group = [-1] * len(stones)
        sizes: list[int] = []
        for start in range(len(stones)):
            if stones[start] != value or group[start] >= 0:
                continue
            group[start] = len(sizes)
            frontier, size = [start], 0
            while frontier:
                cell = frontier.pop()
                size += 1
                for other in neighbours[cell]:
                    if stones[other] == value and group[other] < 0:
                        group[other] = len(sizes)
                        frontier.append(other)
            sizes.append(size)
        touched: set[int] = set()
        cell_groups, cell_cells = [], []
        for cell in self.empties:
            near = {group[o] for o in neighbours[cell] if group[o] >= 0}
            touched |= near
            cell_groups.append(sorted(near))
            cell_cells.append(sum(self.bit[o] for o in neighbours[cell] if o in self.bit))
        constant = 1
        for g, size in enumerate(sizes):
            if g not in touched:
                constant *= size
        return _ScoreGraph(sizes, cell_groups, cell_cells, constant, sorted(touched))

    # ----- the search ------------------------------------------------------------------------
    def winner(self, white: int, black: int) -> int:
        """The colour that wins with perfect play from the root's stones plus `white`/`black` (bit
        masks over the root's empty cells), with the turn following from how many were placed."""
        key = (white, black)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        placed = (white | black).bit_count()
        stone, decider, _ = self._turn_after(placed)
        found = 1 - decider
        free = self.full & ~(white | black)
        while free:
            low = free & -free
            free ^= low
            child = (white | low, black) if stone == 0 else (white, black | low)
            if self._winner_of(*child) == decider:
                found = decider
                break
        self.memo[key] = found
        return found

    def _winner_of(self, white: int, black: int) -> int:
        """`winner` of a child, or the scores' verdict when the game ends there."""
        _, _, over = self._turn_after((white | black).bit_count())
        return self.final_winner(white, black) if over else self.winner(white, black)

    def _turn_after(self, placed: int) -> tuple[int, int, bool]:
        """(colour of the next stone, colour whose turn it is, whether the game is over) after
        `placed` stones since the root, following `OmegaState._end_turn` for two players."""
        stones_in_turn = self.stone_index + placed
        stone = stones_in_turn % 2
        turns_done = stones_in_turn // 2
        decider = (self.turn_colour + turns_done) % 2
        empty = len(self.empties) - placed
        # The game ends when a round would start (White's turn, first stone) with fewer than 4 empty.
        over = placed > 0 and stone == 0 and decider == 0 and turns_done > 0 and empty < 4
        return stone, decider, over

    def final_winner(self, white: int, black: int) -> int:
        """The colour that wins the full board (equal scores: the later colour, as the rules say)."""
        scores = {self.colours[0]: self.graphs[0].score(white), self.colours[1]: self.graphs[1].score(black)}
        return self.colours.index(best_colour(scores, self.colours))

    # ----- answers for the root ---------------------------------------------------------------
    def child_winner(self, cell: int) -> int:
        """The colour that wins after the deciding seat puts the next stone on `cell`."""
        stone, _, _ = self._turn_after(0)
        bit = self.bit[cell]
        return self._winner_of(bit, 0) if stone == 0 else self._winner_of(0, bit)

    @property
    def decider(self) -> int:
        """The colour whose turn it is at the root."""
        return self._turn_after(0)[1]


@dataclass
class _ScoreGraph:
    """One colour's scoring pieces: fixed group sizes, per empty cell the fixed groups and the
    empty cells (bit mask) it touches, and the product of the groups no empty cell touches."""

    sizes: list[int]
    cell_groups: list[list[int]]
    cell_cells: list[int]
    constant: int
    touched: list[int]  # the fixed groups some empty cell touches

    def score(self, mask: int) -> int:
        """The colour's score with the empty cells of `mask` filled with it: the filled cells and
        the fixed groups they touch joined (union-find; two filled cells may meet through a fixed
        group as well as directly)."""
        cells = len(self.cell_groups)
        parent = list(range(cells + len(self.sizes)))

        def root(node: int) -> int:
            while parent[node] != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        filled = []
        left = mask
        while left:
            bit = left & -left
            left ^= bit
            cell = bit.bit_length() - 1
            filled.append(cell)
            for g in self.cell_groups[cell]:
                parent[root(cells + g)] = root(cell)
            near = self.cell_cells[cell] & mask
            while near:
                other = near & -near
                near ^= other
                parent[root(other.bit_length() - 1)] = root(cell)
        size: dict[int, int] = {}
        for cell in filled:
            r = root(cell)
            size[r] = size.get(r, 0) + 1
        for g in self.touched:
            r = root(cells + g)
            size[r] = size.get(r, 0) + self.sizes[g]
        product = self.constant
        for value in size.values():
            product *= value
        return product


def solve(state: OmegaState, budget: int = DEFAULT_BUDGET) -> Verdict:
    """The value of a two-player Omega endgame for the seat to decide (`state.mover`), and a
    winning stone; "unknown" when the budget ran out. CannotPlay for positions it does not take."""
    if budget < 1:
        raise BadOption(f"the budget must be at least 1 position, not {budget}")
    start = time.perf_counter()
    tree = OmegaEndgame(state, budget)
    try:
        for cell in tree.empties:
            if tree.child_winner(cell) == tree.decider:
                return Verdict(WIN, state.board.labels[cell], tree.nodes, time.perf_counter() - start)
    except OutOfBudget:
        return Verdict(UNKNOWN, None, tree.nodes, time.perf_counter() - start)
    return Verdict(LOSS, None, tree.nodes, time.perf_counter() - start)


def move_values(state: OmegaState, budget: int = DEFAULT_BUDGET) -> dict[str, str]:
    """Every legal stone's value for the seat deciding now: "win" or "loss" (exact), or
    "unknown" for those left when the budget ran out."""
    tree = OmegaEndgame(state, budget)
    values: dict[str, str] = {}
    for cell in tree.empties:
        label = state.board.labels[cell]
        try:
            values[label] = WIN if tree.child_winner(cell) == tree.decider else LOSS
        except OutOfBudget:
            values[label] = UNKNOWN
    return values


# ----- plain reference ---------------------------------------------------------------------------


def winner_reference(state: OmegaState) -> str:
    """The colour that wins with perfect play, by plain minimax over the rules' own `play` on
    copies of the state (no table, no scoring shortcut). Slow: for tests on few empty cells."""
    if state.result is not None:
        return state.result.winner
    decider = state.player_colour
    assert decider is not None
    found = None
    for move in state.legal_moves():
        child = state.clone()
        child.play(move, t=0.0)
        colour = winner_reference(child)
        if colour == decider:
            return decider
        found = colour
    assert found is not None
    return found
