"""Check a claimed win by a second method: play the winner's strategy out against every defence,
through the rules themselves, and see every line end in the winner's connection.

    >>> import ogames
    >>> from ogames.players.solvers.connection import ConnectionSolver
    >>> state = ogames.load("omny", variant="y", size=4).new_state()
    >>> check_win(state, state.mover, solver_strategy(ConnectionSolver(state.game))).holds
    True

A search's "win" is only as good as its pruning, its win test and its transposition table. This
check trusts none of them: the strategy (any function that names a move, usually the connection
solver) is only asked which move to play where the winner moves; where the loser moves, every
legal move of the rules is tried; and a line counts as won only when the rules' own `result` says
so. The claim holds when the walk closes: a finite tree of the winner's moves against all
defences, each leaf a game the winner has won. Positions met again by another order of moves are
checked once (their value depends only on the stones and the colour to move, once no swap or komi
choice is ahead, which the check requires).

With `pairing`, where the goal is a set of sides (Odd-Y, Omny `y` without komi), a line may also
end before the board does: where the winner holds disjoint pairs of empty cells (found by
`virtual_connections`' greedy search, which is only asked for pairs, not trusted) such that every
full board in which the winner has exactly one cell of each pair, and the defender every other
empty cell, is the winner's by the rules' own win test (all 2^k of them, k the pairs). Then the
winner wins by answering each intrusion into a pair in that pair: its stones at the end hold one
cell of each pair and perhaps more, and more stones of one's own never undo a connection here.

Where the winner moves, a move that ends the line at once (a win by the rules, or a checked
pairing) is taken before the strategy is asked: it is verified like every other leaf, and it keeps
the walk to the lines that still need walking.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ogames.errors import BadOption
from ogames.kernels.oddy import winning_group_counts_reference
from ogames.kernels.omny import satisfied_colours_reference
from ogames.players.solvers.connection import WIN, ConnectionSolver, _sides_goal, _swap_ahead, solve
from ogames.players.solvers.virtual_connections import virtual_links_reference
from ogames.rules.omny import OmnyState
from ogames.rules.protocol import State
from ogames.rules.stones import StoneState

Strategy = Callable[[StoneState], str | None]  # the winner's move in a position, or None: none known


@dataclass
class Checked:
    """What `check_win` found."""

    holds: bool  # the strategy wins against every defence
    positions: int = 0  # distinct positions of the strategy tree walked (both sides to move)
    games: int = 0  # lines walked that ended in the winner's connection
    seconds: float = 0.0
    refuted_by: list[str] = field(default_factory=list)  # moves to where the strategy failed (when it did)
    reason: str = ""
    pairings: int = 0  # lines ended by a pairing strategy checked on every full board (`pairing`)


class _Failed(Exception):
    def __init__(self, line: list[str], reason: str):
        super().__init__(reason)
        self.line, self.reason = line, reason


def solver_strategy(solver: ConnectionSolver, budget: int = 2_000_000) -> Strategy:
    """The connection solver as a strategy: its proven winning move (None when it proves none)."""

    def move(state: StoneState) -> str | None:
        proof = solve(state, budget, solver=solver)
        return proof.move if proof.value == WIN else None

    return move


def check_win(state: State, winner: int, strategy: Strategy, limit: int = 10_000_000, pairing: bool = False) -> Checked:
    """Whether seat `winner` wins `state` by following `strategy`, against every defence.

    `limit` bounds the positions walked: past it the check stops and says it did not finish
    (`holds` False, with the reason). `pairing`: lines may end in a checked pairing strategy
    (the module's docstring), where the game's goal is a set of sides."""
    if not isinstance(state, StoneState) or state.pie_available() or _swap_ahead(state):
        raise BadOption("the check walks Omny and Odd-Y positions with no swap or komi choice ahead")
    start = time.perf_counter()
    pairs = _PairingCheck.of(state, winner) if pairing else None
    walk = _Walk(winner, strategy, limit, pairs)
    try:
        walk.visit(state.clone(), [])
    except _Failed as failed:
        return Checked(False, len(walk.seen), walk.games, time.perf_counter() - start, failed.line, failed.reason,
                       walk.pairings)  # fmt: skip
    return Checked(True, len(walk.seen), walk.games, time.perf_counter() - start, [], "every defence loses", walk.pairings)


@dataclass
class _PairingCheck:
    """The winner's pairing strategy in a position, checked on every full board by the rules."""

    colour: int  # the winner's stone value (1 or 2)
    neighbours: list[list[int]]
    cell_sides: list[int]
    sides: int

    @classmethod
    def of(cls, state: StoneState, winner: int) -> _PairingCheck | None:
        cell_sides, _ = _sides_goal(state.game)
        if cell_sides is None or (isinstance(state, OmnyState) and state.bound(0) != state.bound(1)):
            return None  # (Omny `y` with komi: the colours' goals differ)
        held = next(name for name, seat in state.owner.items() if seat == winner)
        colour = state.game.colours.index(held) + 1
        sides = 3 if isinstance(state, OmnyState) else int(state.game.options["sides"])  # Omny `y`: the triangle
        neighbours = [list(cells) for cells in state.board.neighbours]
        return cls(colour, neighbours, [int(bits) for bits in cell_sides], sides)

    def holds(self, state: StoneState) -> bool:
        """Whether the winner has a pairing strategy here that wins every full board."""
        stones = [int(v) for v in state.stones]
        found, links = virtual_links_reference(stones, self.colour, self.neighbours, self.cell_sides, self.sides)
        if not found:
            return False
        other = 3 - self.colour
        board = [other if v == 0 else v for v in stones]
        for choice in itertools.product((0, 1), repeat=len(links)):
            for (a, b), pick in zip(links, choice, strict=True):
                board[a], board[b] = (self.colour, other) if pick == 0 else (other, self.colour)
            if _winners(state, board) != {self.colour}:
                return False
        return True


def _winners(state: StoneState, board: Sequence[int]) -> set[int]:
    """The stone values whose groups win on `board`, by the rules' plain win tests."""
    game: Any = state.game
    if isinstance(state, OmnyState):
        won = satisfied_colours_reference(board, state.board.neighbours, list(game.star_mask), state.bound(0), state.bound(1))
    else:
        counts = winning_group_counts_reference(board, state.board.neighbours, list(game.cell_sides), game.options["sides"])
        won = {value - 1 for value in (1, 2) if counts[value]}
    return {index + 1 for index in won}


@dataclass
class _Walk:
    winner: int
    strategy: Strategy
    limit: int
    pairing: _PairingCheck | None = None
    seen: set[tuple[bytes, int]] = field(default_factory=set)
    games: int = 0
    pairings: int = 0
    pairs_held: dict[bytes, bool] = field(default_factory=dict)  # `paired` by stones

    def visit(self, state: StoneState, line: list[str]) -> None:
        """Walk the strategy tree below `state` (not over); raise _Failed where it does not hold."""
        key = (state.stones.tobytes(), state.turn)
        if key in self.seen:
            return
        if len(self.seen) >= self.limit:
            raise _Failed(list(line), f"not finished within {self.limit:,} positions")
        self.seen.add(key)
        if self.paired(state):
            self.pairings += 1
            return
        if state.mover == self.winner:
            move = self.ending(state) or self.strategy(state)
            if move is None:
                raise _Failed(list(line), "the strategy names no winning move here")
            if move not in state.legal_moves():
                raise _Failed(list(line), f"the strategy names {move!r}, not a legal move here")
            self.follow(state, move, line)
        else:
            for move in state.legal_moves():
                self.follow(state, move, line)

    def ending(self, state: StoneState) -> str | None:
        """A move of the winner's that ends the line at once: the rules say it won, or (with
        `pairing`) it leaves a checked pairing. Both are verified, so taking one before the
        strategy's move trusts nothing more, and it keeps the walk small: a solver names a
        winning move, not the one that is quickest to check (benchmarks/results/strategy-check.md)."""
        for move in state.legal_moves():
            state.play(move, t=0.0)
            try:
                if state.result is not None:
                    if state.owner[state.result.winner] == self.winner:
                        return move
                elif self.paired(state):
                    return move
            finally:
                state.undo()
        return None

    def paired(self, state: StoneState) -> bool:
        """Whether the winner holds a checked pairing here (each position is checked once)."""
        if self.pairing is None:
            return False
        key = state.stones.tobytes()
        if key not in self.pairs_held:
            self.pairs_held[key] = self.pairing.holds(state)
        return self.pairs_held[key]

    def follow(self, state: StoneState, move: str, line: list[str]) -> None:
        state.play(move, t=0.0)
        line.append(move)
        try:
            if state.result is not None:
                if state.owner[state.result.winner] != self.winner:
                    raise _Failed(list(line), "the defence connects")
                self.games += 1
            else:
                self.visit(state, line)
        finally:
            line.pop()
            state.undo()
