"""Omiga (Flanx), the real-time card game: cards, table, the real-time engine and its variants."""

from ogames.rules.omiga.game import Omiga

__all__ = ["Omiga"]
