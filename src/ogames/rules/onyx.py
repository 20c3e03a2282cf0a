"""Onyx (Larry Back, 1995), RULES.md §4: a connection game with captures on a lattice of squares
and triangles. Black connects West–East, White South–North; a midpoint may be taken only while its
square's four corners are empty; a stone that completes a square (empty midpoint, own stone on the
opposite corner, enemy stones on the other two) removes those two enemy stones."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ogames.boards.onyx import onyx_lattice
from ogames.errors import IllegalMove
from ogames.kernels import onyx as kernels
from ogames.kernels.flood import group_of
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import OnyxFacts, Result
from ogames.rules.stones import BLACK, EMPTY, WHITE, StoneGame, StoneState
from ogames.wording import say

SETUP = {BLACK: ("a6", "a7", "l6", "l7"), WHITE: ("f1", "g1", "f12", "g12")}


class Onyx(StoneGame):
    """Onyx on its standard 12 × 12 point lattice."""

    name = "onyx"
    title = "Onyx"
    summary = "Connect your sides on a lattice of squares and triangles; complete a square to capture two stones."
    option_set = OptionSet((Option("pie", "bool", False, "White may swap after Black's first move"),))

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.lattice = onyx_lattice()
        self.board = self.lattice.board

    @property
    def max_game_length(self) -> int:
        """Captures empty cells again: a bound of four placements a cell."""
        return 4 * len(self.board)

    def new_state(self, players: Sequence[str] | None = None) -> OnyxState:
        """The set-up position, Black to move."""
        return OnyxState(self, players)


class OnyxState(StoneState):
    """An Onyx position: stones, whose turn, the captures made so far, and once won the group of
    the stone that connected the sides (`winning_group`; records do not carry it)."""

    game: Onyx
    mutable_fields = ("captured",)

    def __init__(self, game: Onyx, players: Sequence[str] | None = None):
        super().__init__(game, players)
        self.lattice = game.lattice
        # The set-up stones are not moves: `placements` stays 0, so the pie rule still counts from here.
        for colour, labels in SETUP.items():
            for label in labels:
                self.stones[self.board.index(label)] = self.game.colours.index(colour) + 1
        self.last_captures: list[str] = []  # labels of the stones the last move removed
        self.captured: dict[str, int] = {BLACK: 0, WHITE: 0}  # stones of each colour removed so far

    # ----- StoneState hooks ------------------------------------------------------------------
    def placement_error(self, cell: int) -> str | None:
        """Midpoints are open only while all four corners of their square are empty."""
        corners = self.lattice.square_corners.get(cell)
        if corners is None:
            return None
        held = [self.board.labels[c] for c in corners if self.stones[c] != EMPTY]
        if held:
            return say("midpoint-closed",
                       "{cell} is the midpoint of a square with a stone on a corner ({held}): a midpoint is open "
                       "only while all four corners of its square are empty", cell=self.board.labels[cell], held=held)
        return None

    def open_cells(self) -> list[int]:
        """Empty cells, less the midpoints with a stone on a corner (placement_error, for every cell at once)."""
        corners = self.lattice.midpoint_corners  # −1 rows for lattice points: those reads are masked out
        held = (self.stones[corners] != EMPTY) & (corners >= 0)
        return np.flatnonzero((self.stones == EMPTY) & ~held.any(axis=1)).tolist()

    def after_placement(self, cell: int) -> tuple[Result | None, dict[str, Any]]:
        """Apply captures, then check whether the placed stone's group connects its colour's sides."""
        found = np.empty(4, dtype=np.int32)
        count = kernels.find_captures(self.stones, self.lattice.square_table, cell, found)
        gone = sorted(int(c) for c in found[:count])
        enemy = self.game.colours[1 - self.turn]
        for victim in gone:
            self.stones[victim] = EMPTY
        self.captured[enemy] += len(gone)
        self.last_captures = [self.board.labels[c] for c in gone]
        colour = self.game.colours[self.turn]
        result = None
        if kernels.connects(self.stones, self.board.neighbour_table, self.lattice.side_bits, kernels.GOALS[self.turn + 1], cell):
            west_east = colour == BLACK
            reason = (say("onyx-win-west-east", "{colour} connected west and east", colour=colour) if west_east
                      else say("onyx-win-south-north", "{colour} connected south and north", colour=colour))
            result = Result(colour, reason)
            found = np.empty(len(self.board), dtype=np.int32)
            count = group_of(self.stones, self.board.neighbour_table, cell, found)
            self.winning_group = sorted(self.board.labels[c] for c in found[:count])
        return result, {"captures": list(self.last_captures)}

    def swap_seats(self) -> None:
        """Pie rule: seats change, stones stay; a swap captures nothing."""
        super().swap_seats()
        self.last_captures = []

    def facts(self) -> OnyxFacts:
        """The winning group, the last move's captures and the captures so far."""
        return OnyxFacts(winning=tuple(self.winning_cells()), captures=tuple(self.last_captures), captured=dict(self.captured))

    # ----- records and search ----------------------------------------------------------------
    def replay_entry(self, entry: dict[str, Any]) -> None:
        """Replay a recorded move; a placement's entry must also say what it captured."""
        move = entry.get("move")
        if isinstance(move, str) and move not in ("swap", "resign") and "captures" not in entry:
            raise IllegalMove(move, say("record-no-captures",
                                        "the record does not say what this move captured ('captures' is missing)"))
        super().replay_entry(entry)

    def random_playout(self, rng: random.Random) -> list[float]:
        """Rewards per seat after a uniformly random game from here, played by the compiled kernel."""
        if self.result is not None:
            return self.rewards()
        owner = dict(self.owner)
        if self.pie_available() and rng.randrange(len(self.legal_moves())) == 0:
            # `swap` is one of the legal moves: choosing it exchanges the seats, not the stones.
            owner[BLACK], owner[WHITE] = owner[WHITE], owner[BLACK]
        winner, _ = self.kernel_playout(rng.randrange(2**32))
        if winner is None:
            return [0.5, 0.5]
        return [1.0 if seat == owner[winner] else 0.0 for seat in range(len(self.players))]

    def kernel_playout(self, seed: int) -> tuple[str | None, list[str]]:
        """A random game from a copy of this position by the kernel: the winner and the moves it played."""
        stones = self.stones.copy()
        moves = np.empty(4 * len(self.board), dtype=np.int32)  # captures reopen points, so allow more than n
        lat = self.lattice
        table = self.board.neighbour_table
        value, played = kernels.playout(
            stones, self.turn, table, lat.square_table, lat.midpoint_corners, lat.side_bits, seed, moves
        )
        winner = None if value == 0 else self.game.colours[value - 1]
        if played > len(moves):
            raise RuntimeError(f"a random Onyx game ran to {played} moves, beyond the {len(moves)} recorded")
        return winner, [self.board.labels[c] for c in moves[:played]]
