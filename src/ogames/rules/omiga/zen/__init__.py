"""Omiga's solo variant «Дзен» (zen): the form library, the solver and the turn-based state."""
