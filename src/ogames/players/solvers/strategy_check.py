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
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ogames.errors import BadOption
from ogames.players.solvers.connection import WIN, ConnectionSolver, _swap_ahead, solve
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


def check_win(state: State, winner: int, strategy: Strategy, limit: int = 10_000_000) -> Checked:
    """Whether seat `winner` wins `state` by following `strategy`, against every defence.

    `limit` bounds the positions walked: past it the check stops and says it did not finish
    (`holds` False, with the reason)."""
    if not isinstance(state, StoneState) or state.pie_available() or _swap_ahead(state):
        raise BadOption("the check walks Omny and Odd-Y positions with no swap or komi choice ahead")
    start = time.perf_counter()
    walk = _Walk(winner, strategy, limit)
    try:
        walk.visit(state.clone(), [])
    except _Failed as failed:
        return Checked(False, len(walk.seen), walk.games, time.perf_counter() - start, failed.line, failed.reason)
    return Checked(True, len(walk.seen), walk.games, time.perf_counter() - start, [], "every defence loses")


@dataclass
class _Walk:
    winner: int
    strategy: Strategy
    limit: int
    seen: set[tuple[bytes, int]] = field(default_factory=set)
    games: int = 0

    def visit(self, state: StoneState, line: list[str]) -> None:
        """Walk the strategy tree below `state` (not over); raise _Failed where it does not hold."""
        key = (state.stones.tobytes(), state.turn)
        if key in self.seen:
            return
        if len(self.seen) >= self.limit:
            raise _Failed(list(line), f"not finished within {self.limit:,} positions")
        self.seen.add(key)
        if state.mover == self.winner:
            move = self.strategy(state)
            if move is None:
                raise _Failed(list(line), "the strategy names no winning move here")
            if move not in state.legal_moves():
                raise _Failed(list(line), f"the strategy names {move!r}, not a legal move here")
            self.follow(state, move, line)
        else:
            for move in state.legal_moves():
                self.follow(state, move, line)

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
