"""Helpers shared by the Omiga turn-based tests (kids, toddler)."""

from __future__ import annotations

from ogames.rules import load


def toddler(players: int = 2, seed: int = 1, **extra):
    """A fresh toddler state."""
    return load("omiga", variant="toddler", players=players, seed=seed, **extra).new_state()


def snapshot(state) -> tuple:
    """Everything that makes a turn-based Omiga position, for exact comparisons."""
    return (
        state.ply,
        state.turn,
        tuple((c, tuple(h)) for c, h in state.hands.items()),
        tuple((cell, card) for cell, card in state.table.cards()),
        tuple((c, tuple(s.cards), tuple(s.discards)) for c, s in state.supplies.items()),
        state.result,
    )
