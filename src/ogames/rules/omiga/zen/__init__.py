"""Omiga's solo variant «Дзен» (zen): the form library and the turn-based state.

The solver lives with the players: `ogames.players.solvers.zen`.
"""
