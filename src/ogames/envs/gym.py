"""A Gymnasium single-agent environment: the agent holds one seat of a board game and a fixed
opponent (any `ogames.players.player` spec, or a player object) plays every other seat.

Observations are the dict {"observation", "action_mask"} of the AEC environment; the reward is
the agent's seat's outcome at the end (+1 win, −1/(p−1) loss, 0 draw) and 0 before. An illegal
action ends the episode at once with reward −1 (info["illegal"] is True), as PettingZoo's
TerminateIllegalWrapper does, so that untrained agents sampling the whole space get a signal.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

import ogames
from ogames.envs.drawing import render_position
from ogames.envs.encoding import encoding, outcome
from ogames.players import computer_player
from ogames.rules.protocol import State


class SingleAgentEnv(gymnasium.Env):
    """One board game against a fixed opponent (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"]}  # type: ignore[misc]  # (Env declares it per instance)

    def __init__(self, name: str, opponent: Any = "random", seat: int = 0, render_mode: str | None = None, **options: Any):
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ogames.BadOption(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.game = ogames.load(name, **options)
        self.encoding = encoding(self.game)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.seat_count:
            raise ogames.BadOption(f"seat must be 0 … {self.game.seat_count - 1}, not {seat!r}")
        self.seat = seat
        self.render_mode = render_mode
        self.opponent_spec = opponent
        if isinstance(opponent, str):
            computer_player(opponent)  # a bad spec, a person or a real-time bot fails here, with a clear message
        elif not callable(getattr(opponent, "choose", None)):
            raise ogames.BadOption(f"the opponent is a player spec or a player with choose(state), not {type(opponent).__name__}")
        count = self.encoding.num_actions
        self.action_space = spaces.Discrete(count)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.encoding.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }
        )
        self.rules_state = self.game.new_state()
        self._opponents: dict[int, Any] = {}
        self._done = True

    def _make_opponents(self) -> None:
        """One player per other seat, seeded from the environment's generator when the spec takes a seed."""
        self._opponents = {}
        for seat in range(self.game.seat_count):
            if seat == self.seat:
                continue
            spec = self.opponent_spec
            if not isinstance(spec, str):
                self._opponents[seat] = spec
                if hasattr(spec, "reset"):
                    spec.reset()
                continue
            self._opponents[seat] = computer_player(spec, seed=int(self.np_random.integers(2**31)))

    def _observe(self) -> dict[str, np.ndarray]:
        moves = [] if self.rules_state.is_over else self.rules_state.legal_moves()
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if moves:
            mask[self.encoding.legal_action_mask(self.rules_state, moves)] = 1
        return {"observation": self.encoding.observation(self.rules_state, self.seat, moves), "action_mask": mask}

    def _let_opponents_play(self) -> None:
        while not self.rules_state.is_over and self.rules_state.mover != self.seat:
            seat = self.rules_state.mover
            assert seat is not None
            self.rules_state.play(self._opponents[seat].choose(self.rules_state), t=0.0)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"ply": self.rules_state.ply, "winner": self.rules_state.winner, **extra}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """A new game; the opponents move first if their seats start."""
        super().reset(seed=seed)
        self.rules_state = self.game.new_state()
        self._make_opponents()
        self._let_opponents_play()
        self._done = self.rules_state.is_over
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        """The agent's move, then the opponents' until the agent's turn comes again or the game ends."""
        if self._done:
            raise ogames.CannotPlay("the episode is over: call reset() first")
        move = self.encoding.move(action)
        if move not in self.rules_state.legal_moves():
            self._done = True
            return self._observe(), -1.0, True, False, self._info(illegal=True, move=move)
        self.rules_state.play(move, t=0.0)
        self._let_opponents_play()
        reward = 0.0
        if self.rules_state.is_over:
            self._done = True
            reward = outcome(self.rules_state)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self.rules_state.is_over, False, self._info(move=move)

    @property
    def state(self) -> State:
        """The ogames state behind the environment: `rules_state`, the name the PettingZoo
        environment uses (where `state()` is PettingZoo's global view)."""
        return self.rules_state

    def render(self) -> str | None:
        """render_mode "ansi": the position as text (returned); "human": the board as the terminal
        draws it, printed to stdout (as after every reset and step; returns None); else nothing."""
        return render_position(self.rules_state, self.render_mode)
