"""The base of the messages between the pages and the server, shared by both faces' protocols
(`boards/protocol.py`, `omiga/protocol.py`), validated by pydantic.

Every message model forbids unknown fields and bounds every string, list and number, so a hostile
message is refused with a clear reason before anything reads it; `explain` says why in one sentence.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from ogames.players.levels import HIGHEST, LOWEST
from ogames.wording import say

MAX_TOKEN = 64  # characters of a seat token (they are 43)
MAX_VERSION = 10_000_000
MAX_OPTIONS = 20
MAX_OPTION_TEXT = 20_000  # an Omny custom board may list 3000 cells
MAX_NAME = 40

Token = Annotated[str, Field(min_length=1, max_length=MAX_TOKEN, pattern=r"^[A-Za-z0-9_-]+$")]
Version = Annotated[int, Field(ge=0, le=MAX_VERSION, strict=True)]
OptionValue = (
    Annotated[str, Field(max_length=MAX_OPTION_TEXT)]
    | bool
    | Annotated[int, Field(ge=-(10**15), le=10**15)]
    | Annotated[float, Field(allow_inf_nan=False)]
    | Annotated[list[Annotated[str, Field(max_length=40)] | int], Field(max_length=3000)]
    | None
)


class Message(BaseModel):
    """A message: unknown fields are errors, strings are not silently converted to numbers."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PingMessage(Message):
    """Keep the connection alive; answered with a pong."""

    type: Literal["ping"]


class SeatsHeld(Message):
    """The page is open for the seats of these tokens (a watcher sends none; unknown tokens are
    ignored): the board games' `here`, Omiga's `ready`. Each face declares its own `type` and
    how many tokens a page may send."""

    tokens: list[Token] = Field(default_factory=list)


class Declared(BaseModel):
    """A part of what the server sends a page (a view, a seat, a move) whose every field is
    declared: strictly typed, nothing extra (a field added to a view is declared first)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# The computer's levels are those of `ogames.players.levels` (1 weakest … 10 strongest). The names
# the web used before levels (seconds of search) still arrive from old pages and clients.
DEFAULT_LEVEL = 5
OLD_LEVELS: dict[str, int] = {"easy": 3, "medium": 6, "hard": 9}
LEVEL_RANGE = range(LOWEST, HIGHEST + 1)


def level_of(value: object) -> int:
    """A computer level from a message: a whole number 1–10 (or its digits, as forms send them), or
    an old name (easy, medium, hard); ValueError otherwise."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in OLD_LEVELS:
            return OLD_LEVELS[text]
        value = int(text) if text.isdigit() and len(text) <= 2 else value
    if isinstance(value, int) and not isinstance(value, bool) and value in LEVEL_RANGE:
        return value
    raise ValueError(f"the computer's level is a whole number from {LOWEST} to {HIGHEST}")


Level = Annotated[int, BeforeValidator(level_of)]


def explain(error: ValidationError, tags: tuple[str, ...] = ()) -> str:
    """One short sentence for the first problem pydantic found (no input values are echoed);
    `tags` are the message types the failed model accepts."""
    problems = error.errors(include_url=False, include_input=False)
    if not problems:
        return say("message-invalid", "the message is not valid")
    first = problems[0]
    loc = list(first.get("loc", ()))
    if len(loc) > 1 and loc[0] in tags:  # the message type pydantic chose the model by
        loc = loc[1:]
    where = ".".join(str(part) for part in loc)
    kind = first.get("type", "")
    message = first.get("msg", "not valid")
    if kind == "extra_forbidden":
        text = say("unknown-field", "unknown field {field}", field=repr(where))
    elif kind == "missing":
        text = say("missing-field", "field {field} is missing", field=repr(where))
    elif kind == "union_tag_invalid" or kind == "union_tag_not_found":
        text = say("message-type", "the message type must be one of {types}", types=list(tags))
    elif where:
        text = say("field-problem", "field {field}: {problem}", field=repr(where), problem=message[:120])
    else:
        text = say("problem", "{problem}", problem=message[:160])
    more = len(problems) - 1
    if not more:
        return text
    return say("more-problems", "{text} (and {n} more problem{s})", text=text, n=more, s="s" if more > 1 else "")


__all__ = ["DEFAULT_LEVEL", "LEVEL_RANGE", "MAX_NAME", "MAX_OPTIONS", "MAX_OPTION_TEXT", "MAX_TOKEN", "MAX_VERSION", "Declared",
           "Level", "Message", "OptionValue", "PingMessage", "SeatsHeld", "Token", "Version", "explain", "level_of"]
