"""PettingZoo AEC environments for the board games: one agent per seat (`player_0` starts),
actions and observations from `ogames.envs.encoding`.

The agent to act is the seat that decides the next move (`state.mover`): after a pie swap the
same seat may act twice, and in Omega one seat places every colour's stone of its turn, so it acts
p times in a row. Rewards come only at the end: the winner's seat gets +1 and every other seat
−1/(p−1) (so they sum to 0); a draw gives 0 to all.

The ogames state behind an environment is `rules_state` (as in the OpenSpiel adapter): `state()`
is PettingZoo's global view, every seat's observation stacked.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import ogames
from ogames.envs.drawing import render_position
from ogames.envs.encoding import Encoding, encoding, outcome
from ogames.rules.protocol import State


def env(name: str, **options: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the game
    with −1 for its agent, an action outside the space raises, calls out of order raise."""
    wrapped: AECEnv = BoardGameEnv(name, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class BoardGameEnv(AECEnv):
    """One board game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "ogames_v0", "is_parallelizable": False}

    def __init__(self, name: str, render_mode: str | None = None, **options: Any):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ogames.BadOption(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.game = ogames.load(name, **options)
        self.encoding: Encoding = encoding(self.game)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"ogames_{self.game.name}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.seat_count)]
        count = self.encoding.num_actions
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, self.encoding.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (count,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.state_space = spaces.Box(0.0, 1.0, (len(self.possible_agents), *self.encoding.shape), np.float32)
        self.rules_state: State = self.game.new_state(self.possible_agents)
        self._moves: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        """The same space object every time (PettingZoo seeds it)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The same space object every time (PettingZoo seeds it)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game from the start (the games have no chance, so the seed changes nothing)."""
        self.rules_state = self.game.new_state(self.possible_agents)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self._moves = self.rules_state.legal_moves()
        self.agent_selection = self.possible_agents[self._mover()]
        if self.render_mode == "human":
            self.render()

    def _mover(self) -> int:
        seat = self.rules_state.mover
        if seat is None:
            raise RuntimeError("the game is over: no seat moves")
        return seat

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The planes seen by an agent's seat and its action mask (all zero unless it is to act)."""
        seat = self.possible_agents.index(agent)
        acting = agent == self.agent_selection and not self.rules_state.is_over
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if acting:
            mask[self.encoding.legal_action_mask(self.rules_state, self._moves)] = 1
        return {"observation": self.encoding.observation(self.rules_state, seat, self._moves), "action_mask": mask}

    def state(self) -> np.ndarray:
        """PettingZoo's global view: every seat's observation planes, stacked (seats × planes × cells;
        `state_space`). The games have perfect information, so this is the whole position with who
        holds which colour; the ogames state itself is `rules_state`."""
        moves = self._moves if not self.rules_state.is_over else []
        return np.stack([self.encoding.observation(self.rules_state, seat, moves) for seat in range(len(self.possible_agents))])

    def step(self, action: Any) -> None:
        """Play the selected agent's action (IllegalMove, nothing changed, if it is not legal)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.encoding.move(action)
        if move not in self._moves:
            raise ogames.IllegalMove(move, f"action {int(action)} ({move}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self.rules_state.play(move, t=0.0)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.rules_state.is_over:
            self._moves = []
            for seat, reward in enumerate(outcome(self.rules_state)):
                self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._moves = self.rules_state.legal_moves()
            self.agent_selection = self.possible_agents[self._mover()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """render_mode "ansi": the position as text (returned); "human": the board as the terminal
        draws it, printed to stdout (as after every step; returns None); no render_mode: nothing."""
        return render_position(self.rules_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

