"""Omiga's players: real-time bots (a reaction time and a strategy: rollout, racer, greedy,
random), their compiled look-ahead kernels, and the greedy zen player."""
