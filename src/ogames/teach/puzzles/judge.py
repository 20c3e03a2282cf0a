"""Judging a move of a puzzle: the line played so far (the player's moves and the stored
defence's replies, from the puzzle's position) must follow the puzzle's solution; the new move is
right (the line goes on with the stored defence's reply), solves it (the line is complete, or the
move wins the game at once), wins too (a later move off the line that a solver proves winning: the
player is asked for the line's own move, and the try is not failed), or is wrong (with the defence's
refutation when one is found quickly).

The solution is never part of an answer before a wrong try or a request to see it: a right move
gets only the defence's reply. The web's puzzle page and `ogames puzzle` in the terminal both
judge through it. Blocking (the rules, the solver): a server calls it off its event loop."""

from __future__ import annotations

from dataclasses import dataclass

from ogames.errors import OgamesError
from ogames.players.solvers import connection, omega_endgame, onyx_tactics
from ogames.rules.omega import OmegaState
from ogames.rules.onyx import OnyxState
from ogames.rules.protocol import State
from ogames.rules.stones import StoneState
from ogames.teach.puzzles import Puzzle, position_of
from ogames.teach.puzzles.proof import ONYX_DEPTH
from ogames.wording import say

RIGHT, WRONG, SOLVED, ALSO = "right", "wrong", "solved", "also"
REFUTATION_BUDGET = 20_000  # positions the connection solver may expand to find a refutation
REFUTATION_SECONDS = 2.0  # and the time it may take (a wrong move is answered within about this)
OMEGA_BUDGET = 50_000  # positions the Omega endgame solver may visit to prove another move wins


class OffTheLine(OgamesError):
    """Moves that do not follow the puzzle's line, or a move asked for where the defence is to move."""


@dataclass(frozen=True)
class Judged:
    """What a move did: `line` is the line from the puzzle's position after it (for a wrong move:
    the line before it, to try again from), `state` the position to draw (after a wrong move: with
    the move and its refutation played), `refutation` the defence's winning reply to a wrong move."""

    result: str
    line: list[str]
    state: State
    refutation: str | None = None


def solver_side(puzzle: Puzzle) -> int:
    """The seat that plays to win: the one to move in the puzzle's position."""
    mover = position_of(puzzle).mover
    assert mover is not None
    return mover


def side_colour(state: State) -> str | None:
    """The colour that names the side to move: the one its seat owns (in Omega, where a seat places
    every colour's stone in a turn, the seat's own colour rather than the stone's)."""
    mover = state.mover
    return next((colour for colour, seat in state.owner.items() if seat == mover), state.to_move)


def replayed(puzzle: Puzzle, line: list[str]) -> State:
    """The position after the puzzle's position and `line`; OffTheLine unless the line follows the solution."""
    if line != list(puzzle.solution[: len(line)]) or len(line) >= len(puzzle.solution):
        raise OffTheLine(say("puzzle-line", "these moves do not follow the puzzle; start it again"))
    state = position_of(puzzle)
    for move in line:
        state.play(move, t=0.0)
    return state


def judge(puzzle: Puzzle, line: list[str], move: str) -> Judged:
    """Judge `move`, played after `line` (see the module's docstring): OffTheLine where the line
    does not follow the solution or the defence is to move; the rules' IllegalMove or UnknownLabel
    for a move that cannot be played."""
    state = replayed(puzzle, line)
    side = solver_side(puzzle)
    if state.mover != side:
        raise OffTheLine(say("puzzle-not-yours", "it is the defence's turn here, not yours"))
    after = state.clone()
    after.play(move, t=0.0)
    expected = puzzle.solution[len(line)]
    if move != expected:
        result = after.result
        if result is not None and after.owner[result.winner] == side:
            return Judged(SOLVED, [*line, move], after)  # another move that wins at once also solves it
        if line and wins_too(state, move, after, side):  # (the first move is proven the only win)
            return Judged(ALSO, line, after)
        refutation = refuting(after, side)
        if refutation is not None:
            after.play(refutation, t=0.0)
        return Judged(WRONG, line, after, refutation)
    played = [*line, move]
    while len(played) < len(puzzle.solution) and after.mover != side:  # the stored defence replies
        after.play(puzzle.solution[len(played)], t=0.0)
        played.append(puzzle.solution[len(played)])
    return Judged(SOLVED if len(played) == len(puzzle.solution) else RIGHT, played, after)


def wins_too(before: State, move: str, after: State, side: int) -> bool:
    """Whether a move off the stored line, later in it, is proven to win as well (within the
    solvers' small budgets; unproven counts as not): such a move is not wrong, but the puzzle
    follows its own line, so the player is asked for that one and the try is not failed."""
    try:
        if isinstance(before, OnyxState):
            position = onyx_tactics.Position.of(before)
            return onyx_tactics.move_wins(position, before.board.index(move), ONYX_DEPTH)
        if after.is_over or after.mover == side:
            return False
        if isinstance(after, OmegaState):
            return omega_endgame.solve(after, OMEGA_BUDGET).value == "loss"
        if isinstance(after, StoneState) and connection.plays(after.game):
            return connection.solve(after, REFUTATION_BUDGET, seconds=REFUTATION_SECONDS).value == "loss"
    except OgamesError:  # (a position a solver does not take)
        return False
    return False


def refuting(state: State, side: int) -> str | None:
    """The defence's winning reply after a wrong move: one that wins at once, else one the
    connection solver proves within REFUTATION_SECONDS (Omny, Odd-Y); None if none is found in
    time, or the defence is not to move (an Omega turn's second stone) — the page then says only
    that the move is wrong."""
    if state.is_over or state.mover == side:
        return None
    for move in state.legal_moves():
        child = state.clone()
        child.play(move, t=0.0)
        if child.result is not None and child.owner[child.result.winner] == state.mover:
            return move
    if not isinstance(state, StoneState) or not connection.plays(state.game):
        return None
    proof = connection.solve(state, REFUTATION_BUDGET, seconds=REFUTATION_SECONDS)
    return proof.move if proof.value == "win" else None


def solution_state(puzzle: Puzzle) -> State:
    """The position at the end of the solution."""
    state = position_of(puzzle)
    for move in puzzle.solution:
        state.play(move, t=0.0)
    return state


__all__ = ["ALSO", "RIGHT", "SOLVED", "WRONG", "Judged", "OffTheLine", "judge", "replayed", "side_colour", "solution_state",
           "solver_side"]
