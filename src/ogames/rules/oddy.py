"""Odd-Y (Bill Taylor, 2015), RULES.md §2: connect sides of an odd-sided board.

A board has m (odd) equal sides, corner cells on both of theirs. After each placement the group
of the new stone touches a set T of sides; its owner wins iff T is contained in no run of (m+1)/2
cyclically consecutive sides (for m = 3: all three sides, the Game of Y). Pie rule on by default.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ogames.boards import polar, triangle
from ogames.kernels.oddy import cell_side_masks, group_sides, playout_fill, run_masks, wins
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import SIDES, Result
from ogames.rules.stones import StoneGame, StoneState
from ogames.wording import say

MAX_SIDES = 25  # touched-side masks are int64 bitmasks; 25 keeps sector letters a … y
MIN_SIZE, MAX_SIZE = 2, 30
DEFAULT_SIZE = {"triangle": 7, "polar": 5}


class OddY(StoneGame):
    """Odd-Y on the triangle (m = 3) or the polar board of m sides."""

    name = "oddy"
    title = "Odd-Y"
    summary = "Connect sides of an odd-sided board whose mid-points' triangle holds the centre."
    connection_goal = SIDES
    numbered_sides = True
    sgf = True  # (on the triangle, its hex board)
    option_set = OptionSet(
        (
            Option("sides", "int", 3, "number of board sides m (odd, 3 to 25)", minimum=3, maximum=MAX_SIDES),
            Option(
                "size",
                "int",
                None,
                f"cells per side n ({MIN_SIZE} to {MAX_SIZE}; default 7 on the triangle, 5 on the polar board)",
                minimum=MIN_SIZE,
                maximum=MAX_SIZE,
            ),
            Option("board", "choice", None, "triangle (m = 3 only; its default) or polar", choices=("triangle", "polar")),
            Option("pie", "bool", True, "pie rule: White may swap colours after Black's first stone"),
        )
    )

    def settle(self, options: dict[str, Any]) -> dict[str, Any]:
        """Check that m is odd and fits the board; fill the board and size defaults."""
        m = options["sides"]
        if m % 2 == 0:
            raise self.fail(say("odd-sides",
                                "option sides={m} is not valid: Odd-Y needs an odd number of sides (3, 5, 7, …)", m=m))
        board = options["board"] or ("triangle" if m == 3 else "polar")
        if board == "triangle" and m != 3:
            raise self.fail(say("triangle-sides",
                                "option board='triangle' is not valid with sides={m}: the triangle has 3 sides; "
                                "use board='polar'", m=m))
        size = DEFAULT_SIZE[board] if options["size"] is None else options["size"]
        return {"sides": m, "size": size, "board": board, "pie": options["pie"]}

    def __init__(self, **options: Any):
        super().__init__(**options)
        m, n = self.options["sides"], self.options["size"]
        self.board = triangle(n) if self.options["board"] == "triangle" else polar(m, n)
        # Flat arrays for the kernels, computed once per game.
        self.cell_sides = cell_side_masks([self.board.cells(f"side{s}") for s in range(m)], len(self.board))
        self.runs = run_masks(m)
        self.table = self.board.neighbour_table

    def wins(self, touched: int) -> bool:
        """Whether a group touching this set of sides (bitmask) wins."""
        return bool(wins(np.int64(touched), self.runs))

    @property
    def max_game_length(self) -> int:
        """Every cell and the swap."""
        return len(self.board) + 1

    def new_state(self, players: Sequence[str] | None = None) -> OddYState:
        """The empty board, Black (seat 0) to move."""
        return OddYState(self, players)


class OddYState(StoneState):
    """An Odd-Y position; `winning_group` holds the winner's group (sorted labels) once won."""

    game: OddY

    def after_placement(self, cell: int) -> tuple[Result | None, dict[str, Any]]:
        found = np.empty(len(self.board), dtype=np.int32)
        count, touched = group_sides(self.stones, self.game.table, self.game.cell_sides, cell, found)
        if not self.game.wins(int(touched)):
            return None, {}
        group = sorted(self.board.labels[c] for c in found[:count])
        self.winning_group = group
        colour = self.game.colours[self.turn]
        sides = ", ".join(str(s) for s in range(self.game.options["sides"]) if touched >> s & 1)
        reason = say("oddy-win",
                     "{colour}'s group {group} touches sides {sides}", colour=colour, group=" ".join(group), sides=sides)
        return Result(colour, reason), {"group": group}

    def sides_touched(self, label: str) -> list[int]:
        """The sides touched by the group on a cell (empty list for an empty cell)."""
        cell = self.board.index(label)
        if self.stones[cell] == 0:
            return []
        found = np.empty(len(self.board), dtype=np.int32)
        _, touched = group_sides(self.stones, self.game.table, self.game.cell_sides, cell, found)
        return [s for s in range(self.game.options["sides"]) if int(touched) >> s & 1]

    def random_playout(self, rng: random.Random) -> list[float]:
        """Rewards per seat after a uniformly random game from here (a compiled fill; see
        ogames.kernels.oddy for why one fill decides the game)."""
        if self.result is not None:
            return self.rewards()
        owner = dict(self.owner)
        # Keep the distribution of the generic playout: `swap` is one of the legal moves.
        if self.pie_available():
            empties = int(np.count_nonzero(self.stones == 0))
            if rng.randrange(empties + 1) == empties:
                owner["black"], owner["white"] = owner["white"], owner["black"]
        order = np.empty(len(self.board), dtype=np.int32)
        value = playout_fill(
            self.stones, self.game.table, self.game.cell_sides, self.game.runs, self.turn + 1, rng.getrandbits(32), order
        )
        winner = owner[self.game.colours[value - 1]]
        return [1.0 if seat == winner else 0.0 for seat in range(len(self.players))]
