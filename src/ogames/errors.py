"""The errors a person can cause. Each names what was wrong; none leaves anything changed.

Messages quote what the person gave, but never much of it: `shown()` cuts a long value to its
first `SHOWN` characters, and no message is longer than `MESSAGE_LIMIT` characters, so a
100 kB "move" gives a one-line error, not a 100 kB one.
"""

from __future__ import annotations

from ogames.wording import Said, say

SHOWN = 40  # characters of a person's input quoted in a message
MESSAGE_LIMIT = 600  # characters of any error message


def shown(value: object, limit: int = SHOWN) -> str:
    """A value as a message quotes it: its repr, cut after `limit` characters of text (with the
    length said), so that no message echoes a huge input."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value)} characters)"
    try:
        text = repr(value)
    except Exception:  # a hostile object's repr must not turn one error into another
        text = f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    try:
        what = f"{type(value).__name__} of {len(value)}"  # type: ignore[arg-type]
    except Exception:  # not sized
        what = type(value).__name__
    return f"{text[:limit]}… ({what})"


def _capped(message: str) -> str:
    if len(message) <= MESSAGE_LIMIT:
        return message  # a `Said` stays one, with its key (ogames.wording)
    return message[: MESSAGE_LIMIT - 1] + "…"


class OgamesError(Exception):
    """Base class of every error ogames raises on purpose. Its message is English; one made by
    `ogames.wording.say` also carries a key and values, for a face that shows another language."""

    def __init__(self, *args: object):
        if len(args) == 1 and isinstance(args[0], str):
            args = (_capped(args[0]),)
        super().__init__(*args)

    @property
    def said(self) -> str:
        """The message as it was made: a `Said` with its key when `say` made it, else the text."""
        if len(self.args) == 1 and isinstance(self.args[0], Said):
            return self.args[0]
        return str(self)


class IllegalMove(OgamesError, ValueError):
    """A move that the rules do not allow in this state (the state is unchanged)."""

    def __init__(self, move: object, reason: str):
        self.move = move
        self.reason = reason
        super().__init__(say("illegal-move", "illegal move {move}: {reason}", move=shown(move), reason=reason))


class UnknownLabel(OgamesError, ValueError):
    """A cell label that is not on the board."""


class BadOption(OgamesError, ValueError):
    """An option name or value that a game does not accept."""


class BadRecord(OgamesError, ValueError):
    """A game record that is corrupt, tampered with, or of an unknown format."""


class CannotPlay(OgamesError, ValueError):
    """A player or environment asked to move where it cannot: the game is over, it is played in
    real time (turn-based players) or in turns (real-time bots), the player does not know the game,
    or an episode has ended. Nothing is changed."""
