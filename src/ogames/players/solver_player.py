"""The `solver` player: plays a proven winning move when the connection solver finds one within
its budget, and otherwise (a proven loss, no proof in time, or a game the solver does not play)
asks a fallback player.

    >>> import ogames
    >>> from ogames.players import player
    >>> bot = player("solver:budget=100000,fallback=random,seed=1")
    >>> bot.choose(ogames.load("omny", variant="y", size=3).new_state())
    'b1'
"""

from __future__ import annotations

import math
from typing import Any

from ogames.errors import BadOption, CannotPlay
from ogames.players.base import BasePlayer
from ogames.players.solvers.connection import DEFAULT_BUDGET, ConnectionSolver, Proof, plays, solve
from ogames.rules.protocol import State

FALLBACK_SETTINGS = ("think", "iterations", "seed", "exploration")


class SolverPlayer(BasePlayer):
    """Proven winning moves first; a fallback player (a kind: mcts by default) for the rest."""

    def __init__(
        self,
        name: str = "solver",
        *,
        budget: int = DEFAULT_BUDGET,
        seconds: float | None = None,
        fallback: str | Any = "mcts",
        **fallback_settings: Any,
    ):
        if budget < 1:
            raise BadOption(f"budget must be at least 1 position, not {budget}")
        if seconds is not None and not 0 < seconds < math.inf:
            raise BadOption(f"seconds must be a positive number, not {seconds}")
        self.name = name
        self.budget = budget
        self.seconds = seconds
        if isinstance(fallback, str):
            from ogames.players import make_player

            if fallback.partition(":")[0].strip().lower() == "solver":
                raise BadOption("the fallback of a solver cannot be a solver")
            fallback = make_player(fallback, **fallback_settings)
        self.fallback = fallback
        self._solver: ConnectionSolver | None = None
        self.last: dict[str, Any] = {}

    def reset(self) -> None:
        """Forget the proofs kept between moves and reset the fallback."""
        self._solver = None
        self.last = {}
        reset = getattr(self.fallback, "reset", None)
        if reset:
            reset()

    def info(self) -> dict[str, Any]:
        """The last proof (`proof`: value, move, nodes, seconds) and, when it was used, the fallback's info."""
        return dict(self.last)

    def solver_for(self, state: State) -> ConnectionSolver:
        """The solver of this game, kept between moves (its table holds what earlier moves proved)."""
        if self._solver is None or self._solver.game is not state.game:
            self._solver = ConnectionSolver(state.game)
        return self._solver

    def prove(self, state: State) -> Proof | None:
        """The solver's proof for the position, or None for a game it does not play."""
        if not plays(state.game):
            return None
        return solve(state, self.budget, seconds=self.seconds, solver=self.solver_for(state))

    def choose(self, state: State) -> str:
        """A proven winning move, or the fallback's choice."""
        if state.is_over:
            raise CannotPlay(f"no move to choose: {state.result.describe() if state.result else 'over'}")
        proof = self.prove(state)
        self.last = {"proof": proof}
        if proof is not None and proof.move is not None:
            self.last.update(move=proof.move, value=1.0, reliable=True, by="solver")
            return proof.move
        move = self.fallback.choose(state)
        self.last.update(getattr(self.fallback, "info", dict)())
        self.last.update(move=move, by=getattr(self.fallback, "name", "fallback"))
        return move
