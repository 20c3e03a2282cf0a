"""Solvers: programs that prove what a position or a puzzle allows (the zen form solver)."""
