"""The messages between the pages and the server, validated by pydantic.

Every message model forbids unknown fields and bounds every string, list and number, so a hostile
message is refused with a clear reason before anything reads it. A move carries the version of the
game it was made for (the count of actions the game has accepted, shown in every view): a message
sent again later, or sent for a position that has moved on, is refused.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from ogames.players.levels import HIGHEST, LOWEST
from ogames.wording import say

MAX_MOVE = 200  # characters of a move's text (the rules refuse longer moves anyway)
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


class MoveMessage(Message):
    """Make a move for the seat whose token is given, in the game at the version the page saw."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]
    token: Token
    version: Version


class ResignMessage(Message):
    """The seat whose token is given gives up (at any turn while the game goes on)."""

    type: Literal["resign"]
    token: Token
    version: Version


class UndoMessage(Message):
    """Take back the last move (hotseat) or the person's last move and the computer's reply (against
    the computer), in the game at the version the page saw."""

    type: Literal["undo"]
    token: Token
    version: Version
    decline: StrictBool = False  # with invited people: refuse the pending request to take back a move


class PingMessage(Message):
    """Keep the connection alive; answered with a pong."""

    type: Literal["ping"]


class HereMessage(Message):
    """The page is open for the seats of these tokens (a watcher sends none): everyone's view shows
    those seats as here while the page stays open (unknown tokens are ignored)."""

    type: Literal["here"]
    tokens: Annotated[list[Token], Field(max_length=8)] = []


TAGS = ("move", "resign", "undo", "here", "ping")
ClientMessage = Annotated[
    MoveMessage | ResignMessage | UndoMessage | HereMessage | PingMessage, Field(discriminator="type")
]
client_message = TypeAdapter(ClientMessage)


class MoveRequest(Message):
    """A move over HTTP (`POST /api/games/{id}/moves`): the same fields as the WebSocket message."""

    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]
    token: Token
    version: Version


class ResignRequest(Message):
    """Resigning over HTTP (`POST /api/games/{id}/resign`)."""

    token: Token
    version: Version


class UndoRequest(Message):
    """Undo over HTTP (`POST /api/games/{id}/undo`)."""

    token: Token
    version: Version
    decline: StrictBool = False


class JoinRequest(Message):
    """Take the open seat of a listed game (`POST /api/games/{id}/join`); the answer holds its new token."""

    seat: Annotated[int, Field(ge=0, le=5, strict=True)]


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


def _seat_choice(value: str) -> str:
    """A seat choice in its one spelling: `computer:N` for every computer (old names mapped)."""
    if value in ("here", "invite", "open"):
        return value
    kind, _, level = value.partition(":")
    if kind == "computer" and level:
        return f"computer:{level_of(level)}"
    raise ValueError(f"a seat is 'here', 'invite', 'open' or 'computer:N' with a level N from {LOWEST} to {HIGHEST}")


# Who sits in a seat: a person at this browser ("here"), a person invited by a link ("invite"), an
# open seat anyone may take ("open"), or the computer at a level ("computer:7"; "computer:easy",
# "computer:medium" and "computer:hard" are read as levels 3, 6 and 9).
SeatChoice = Annotated[str, Field(max_length=20), AfterValidator(_seat_choice)]
Level = Annotated[int, BeforeValidator(level_of)]
MIN_CLOCK_MINUTES = 0.05  # 3 seconds: tiny clocks are for tests and bullet players
MAX_CLOCK_MINUTES = 180.0
MAX_INCREMENT = 60.0


class ClockChoice(Message):
    """A Fischer clock: every seat starts with `minutes`, and gains `increment` seconds after each turn."""

    model_config = ConfigDict(extra="forbid", strict=False, frozen=True)

    minutes: Annotated[float, Field(ge=MIN_CLOCK_MINUTES, le=MAX_CLOCK_MINUTES, allow_inf_nan=False)]
    increment: Annotated[float, Field(ge=0, le=MAX_INCREMENT, allow_inf_nan=False)] = 0.0


class NewGame(Message):
    """A new game: which game, its options, who sits where, and its clock.

    `seats` (one choice per seat) says who sits where. Without it, `mode` does: "hotseat", people in
    every seat, one browser holds every token; "ai", a person in `seat`, the computer at `level` in
    every other seat. `level` is 1–10 (an old name — easy, medium, hard — is read as 3, 6, 9).
    `clock` is None for untimed games.
    """

    model_config = ConfigDict(extra="forbid", strict=False, frozen=True)

    game: Annotated[str, Field(min_length=1, max_length=20)]
    options: Annotated[dict[Annotated[str, Field(max_length=40)], OptionValue], Field(max_length=MAX_OPTIONS)] = {}
    mode: Literal["hotseat", "ai"] = "hotseat"
    seat: Annotated[int, Field(ge=0, le=5)] = 0
    level: Level = DEFAULT_LEVEL
    seats: Annotated[list[SeatChoice], Field(min_length=1, max_length=6)] | None = None
    clock: ClockChoice | None = None


def explain(error: ValidationError, tags: tuple[str, ...] = TAGS) -> str:
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


def parse_client(data: Any) -> MoveMessage | ResignMessage | UndoMessage | HereMessage | PingMessage:
    """A client message from decoded JSON; pydantic's ValidationError if it is not one."""
    return client_message.validate_python(data)
