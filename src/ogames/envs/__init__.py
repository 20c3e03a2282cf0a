"""Research adapters: integer actions and observation tensors (`encoding`), PettingZoo AEC
environments and a Gymnasium single-agent wrapper (`env`, `SingleAgentEnv`; the optional extra
`rl`), and OpenSpiel games (`ogames.envs.openspiel`; the optional extra `openspiel`).

PettingZoo and Gymnasium are imported only when an environment is made, so `encoding` works
without them.
"""

from __future__ import annotations

from typing import Any

from ogames.envs.encoding import BOARD_GAMES, Encoding, encoding


def env(name: str, **options: Any) -> Any:
    """A PettingZoo AEC environment for a board game with its options (wrapped the PettingZoo
    way: illegal actions end the game with a −1 reward, out-of-range ones raise, the call order
    is enforced), e.g. `env("omny", variant="sunder", size=3)`."""
    from ogames.envs.aec import env as make

    return make(name, **options)


def raw_env(name: str, **options: Any) -> Any:
    """The unwrapped AEC environment (illegal actions raise IllegalMove)."""
    from ogames.envs.aec import BoardGameEnv

    return BoardGameEnv(name, **options)


def single_agent_env(name: str, opponent: str = "random", seat: int = 0, **options: Any) -> Any:
    """A Gymnasium environment: the agent holds one seat, `opponent` (a player spec such as
    "random" or "mcts:iterations=200") plays every other seat."""
    from ogames.envs.gym import SingleAgentEnv

    return SingleAgentEnv(name, opponent=opponent, seat=seat, **options)


__all__ = ["BOARD_GAMES", "Encoding", "encoding", "env", "raw_env", "single_agent_env"]
