"""Omiga (Flanx), the real-time card game: cards, table, the real-time engine and its variants."""
