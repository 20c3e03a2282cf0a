"""The errors a person can cause. Each names what was wrong; none leaves anything changed."""


class OgamesError(Exception):
    """Base class of every error ogames raises on purpose."""


class IllegalMove(OgamesError, ValueError):
    """A move that the rules do not allow in this state (the state is unchanged)."""

    def __init__(self, move: object, reason: str):
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {move!r}: {reason}")


class UnknownLabel(OgamesError, ValueError):
    """A cell label that is not on the board."""


class BadOption(OgamesError, ValueError):
    """An option name or value that a game does not accept."""


class BadRecord(OgamesError, ValueError):
    """A game record that is corrupt, tampered with, or of an unknown format."""
