"""Proofs behind the puzzles: every legal move's value, a best defence, and the check of a whole
puzzle (`verify`).

A move's value is for the side that makes it, and is proven, never estimated:
- Omny and Odd-Y: the connection solver (`players/solvers/connection.py`) solves the position
  after the move; it is exact (no draws), so a move wins or loses, or is "unknown" when the budget
  ran out.
- Omega (two players): the exact endgame solver (`players/solvers/omega_endgame.py`) walks the
  tree to the end of the game.
- Onyx: the short-range solver (`players/solvers/onyx_tactics.py`) proves a win within `depth`
  own stones; a move "loses" when after it the opponent forces a connection within `depth`, and is
  "unknown" when neither is proven.

A puzzle is sound when its position is legal (replayed through the rules), its first move is the
only "win" and every other legal move a proven "loss", and along its line every step of the
solver's side is legal and proven to win against every defence (the position after it is proven
lost for the side that defends, whatever it plays), and every defence is legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ogames
from ogames.players.solvers import connection, omega_endgame, onyx_tactics
from ogames.rules.omega import OmegaState
from ogames.rules.onyx import OnyxState
from ogames.rules.protocol import State
from ogames.rules.stones import StoneState
from ogames.teach.puzzles.format import Puzzle

WIN, LOSS, UNKNOWN = "win", "loss", "unknown"
CONNECTION_BUDGET = 150_000  # positions the connection solver may expand per position
OMEGA_BUDGET = 600_000  # positions the Omega endgame solver may visit per root
ONYX_DEPTH = 2  # own stones within which Onyx wins are proven


@dataclass
class Prover:
    """Proves values of one game's positions, keeping the solver's tables between calls."""

    game: Any
    connection_solver: connection.ConnectionSolver | None = field(default=None, init=False)
    nodes: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if self.game.connection_goal is not None:
            self.connection_solver = connection.ConnectionSolver(self.game)

    def forget(self) -> None:
        """Forget what earlier searches left in the connection solver's table. Its unfinished
        searches' numbers can lead a later search astray or help it along, so a verdict within
        the budget would depend on which positions were searched before: `verify` forgets first,
        so that a puzzle is proven (or not) on its own, whatever was verified before it."""
        if self.connection_solver is not None:
            self.connection_solver.clear()

    # ----- values ----------------------------------------------------------------------------
    def mover_value(self, state: State) -> str:
        """The value of the position for the side to move: win, loss or unknown."""
        if isinstance(state, OmegaState):
            verdict = omega_endgame.solve(state, OMEGA_BUDGET)
            self.nodes += verdict.nodes
            return verdict.value
        if isinstance(state, OnyxState):
            position = onyx_tactics.Position.of(state)
            if onyx_tactics.wins_within(position, ONYX_DEPTH):
                return WIN
            return LOSS if all(onyx_tactics.move_loses(position, c, ONYX_DEPTH) for c in position.open_points()) else UNKNOWN
        proof = connection.solve(state, CONNECTION_BUDGET, solver=self.connection_solver)
        self.nodes += proof.nodes
        return proof.value

    def move_value(self, state: State, move: str) -> str:
        """The value of one legal move for the side that makes it."""
        if isinstance(state, OnyxState):
            position = onyx_tactics.Position.of(state)
            cell = state.board.index(move)
            if onyx_tactics.move_wins(position, cell, ONYX_DEPTH):
                return WIN
            return LOSS if onyx_tactics.move_loses(position, cell, ONYX_DEPTH) else UNKNOWN
        mover = state.mover
        child = state.clone()
        child.play(move, t=0.0)
        if child.result is not None:
            return WIN if child.owner[child.result.winner] == mover else LOSS
        value = self.mover_value(child)
        if value == UNKNOWN:
            return UNKNOWN
        return WIN if (value == WIN) == (child.mover == mover) else LOSS

    def move_values(self, state: State, most_wins: int | None = None) -> dict[str, str]:
        """Each legal move's value (in `legal_moves` order); with `most_wins`, stop once that many
        wins are found (the rest are left out)."""
        if isinstance(state, OmegaState):
            return _omega_values(state, most_wins)
        if isinstance(state, OnyxState):
            return self._onyx_values(state, most_wins)
        values: dict[str, str] = {}
        wins = 0
        for move in state.legal_moves():
            values[move] = self.move_value(state, move)
            wins += values[move] == WIN
            if most_wins is not None and wins >= most_wins:
                break
        return values

    def _onyx_values(self, state: OnyxState, most_wins: int | None) -> dict[str, str]:
        position = onyx_tactics.Position.of(state)
        labels = state.board.labels
        wins: list[int] = []
        for cell in onyx_tactics.winning_moves_within(position, ONYX_DEPTH):
            if cell not in wins:
                wins.append(cell)
            if most_wins is not None and len(wins) >= most_wins:
                break
        values = {labels[c]: WIN for c in wins}
        if most_wins is not None and len(wins) >= most_wins:
            return values
        for cell in position.open_points():
            if cell not in wins:
                values[labels[cell]] = LOSS if onyx_tactics.move_loses(position, cell, ONYX_DEPTH) else UNKNOWN
        return values

    # ----- the line --------------------------------------------------------------------------
    def winning_move(self, state: State) -> str | None:
        """A proven winning move of the side to move (None if none is proven)."""
        if isinstance(state, OmegaState):
            return omega_endgame.solve(state, OMEGA_BUDGET).move
        if isinstance(state, OnyxState):
            position = onyx_tactics.Position.of(state)
            found = next(onyx_tactics.winning_moves_within(position, ONYX_DEPTH, first=True), None)
            return None if found is None else state.board.labels[found]
        assert isinstance(state, StoneState)
        proof = connection.solve(state, CONNECTION_BUDGET, solver=self.connection_solver)
        return proof.move if proof.value == WIN else None

    def best_defence(self, state: State, winner: State) -> str:
        """A defence for the side to move in a lost position: the reply after which proving the
        win takes the opponent the most work (for Onyx: leaves the fewest connecting points)."""
        if isinstance(state, OnyxState):
            position = onyx_tactics.Position.of(state)
            return _onyx_defence(position, state)
        best, most = "", -1
        for move in state.legal_moves():
            child = state.clone()
            child.play(move, t=0.0)
            if child.result is not None:
                continue  # (a lost position has no winning reply; this one ends the game some other way)
            work = self._work(child)
            if work > most:
                best, most = move, work
        return best or state.legal_moves()[0]

    def _work(self, state: State) -> int:
        if isinstance(state, OmegaState):
            if state.mover is None:
                return 0
            return omega_endgame.solve(state, OMEGA_BUDGET).nodes
        assert isinstance(state, StoneState)
        return connection.solve(state, CONNECTION_BUDGET).nodes


def _omega_values(state: OmegaState, most_wins: int | None) -> dict[str, str]:
    values = omega_endgame.move_values(state, OMEGA_BUDGET)
    if most_wins is None:
        return values
    kept: dict[str, str] = {}
    for move, value in values.items():
        kept[move] = value
        if sum(v == WIN for v in kept.values()) >= most_wins:
            break
    return kept


def _onyx_defence(position: onyx_tactics.Position, state: OnyxState) -> str:
    """The Onyx reply that leaves the fewest connecting points of the opponent (the mover here
    defends: `position.colour` is the defender)."""
    attacker = 3 - position.colour
    threats = position.threats(attacker)
    replies = [c for c in position.open_points() if position.may_spoil(c, threats)] or position.open_points()
    best = min(replies, key=lambda c: (len(position.after(c)[0].threats(attacker)), c))
    return state.board.labels[best]


# ----- checking a puzzle -------------------------------------------------------------------------


def position_of(puzzle: Puzzle) -> State:
    """The puzzle's position, rebuilt through the rules (IllegalMove / BadOption if it cannot be)."""
    state = ogames.load(puzzle.game, **puzzle.options).new_state()
    for move in puzzle.moves:
        state.play(move, t=0.0)
    return state


def verify(puzzle: Puzzle, prover: Prover | None = None) -> list[str]:
    """Every way the puzzle fails to be sound (empty when it is): see the module's docstring."""
    try:
        state = position_of(puzzle)
    except ValueError as exc:
        return [f"its moves do not replay: {exc}"]
    if state.is_over:
        return ["the game is over at its position"]
    prover = prover or Prover(state.game)
    prover.forget()
    values = prover.move_values(state)
    problems = []
    wins = [move for move, value in values.items() if value == WIN]
    if wins != [puzzle.move]:
        problems.append(f"the winning moves are {wins}, not only {puzzle.move}")
    open_moves = [move for move, value in values.items() if value == UNKNOWN]
    if open_moves:
        problems.append(f"not proven to lose: {open_moves[:5]}")
    return problems + verify_line(state, puzzle.solution, prover)


def verify_line(state: State, line: tuple[str, ...], prover: Prover) -> list[str]:
    """Replay the line from the position: each step of the winning side must be legal and proven
    to win; each defence legal; the line may stop before the end of the game."""
    winner = state.mover
    state = state.clone()
    for number, move in enumerate(line, 1):
        if state.is_over:
            return [f"step {number} ({move}) comes after the end of the game"]
        if move not in state.legal_moves():
            return [f"step {number} ({move}) is not a legal move"]
        if state.mover == winner and prover.move_value(state, move) != WIN:
            return [f"step {number} ({move}) is not proven to win"]
        state.play(move, t=0.0)
    return []
