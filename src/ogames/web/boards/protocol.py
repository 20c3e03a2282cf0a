"""The board games' messages between the pages and the server (the WebSocket's and the JSON API's),
on the base in `core/protocol.py`.

Every message model forbids unknown fields and bounds every string, list and number, so a hostile
message is refused with a clear reason before anything reads it. A move carries the version of the
game it was made for (the count of actions the game has accepted, shown in every view): a message
sent again later, or sent for a position that has moved on, is refused.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError, model_validator

from ogames.players.levels import HIGHEST, LOWEST
from ogames.web.boards.correspondence import DAYS_CHOICES
from ogames.web.core.protocol import (
    DEFAULT_LEVEL,
    MAX_OPTIONS,
    Level,
    Message,
    OptionValue,
    PingMessage,
    SeatsHeld,
    Token,
    Version,
    explain,
    level_of,
)

MAX_MOVE = 200  # characters of a move's text (the rules refuse longer moves anyway)


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


class AbortMessage(Message):
    """End the game as aborted, while some person has not moved yet (web/boards/endings.py)."""

    type: Literal["abort"]
    token: Token
    version: Version


SeatNumber = Annotated[int, Field(ge=0, le=5, strict=True)]


class ClaimMessage(Message):
    """Claim the win over `seat`, a person whose page has been closed for the grace period."""

    type: Literal["claim"]
    token: Token
    version: Version
    seat: SeatNumber


class HereMessage(SeatsHeld):
    """The page is open for the seats of these tokens (a watcher sends none): everyone's view shows
    those seats as here while the page stays open (unknown tokens are ignored)."""

    type: Literal["here"]
    tokens: Annotated[list[Token], Field(max_length=8)] = Field(default_factory=list)


TAGS = ("move", "resign", "undo", "abort", "claim", "here", "ping")
ClientMessage = Annotated[
    MoveMessage | ResignMessage | UndoMessage | AbortMessage | ClaimMessage | HereMessage | PingMessage,
    Field(discriminator="type"),
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


class AbortRequest(Message):
    """Aborting over HTTP (`POST /api/games/{id}/abort`)."""

    token: Token
    version: Version


class ClaimRequest(Message):
    """Claiming the win over a person who left, over HTTP (`POST /api/games/{id}/claim`)."""

    token: Token
    version: Version
    seat: SeatNumber


class JoinRequest(Message):
    """Take the open seat of a listed game (`POST /api/games/{id}/join`); the answer holds its new token."""

    seat: Annotated[int, Field(ge=0, le=5, strict=True)]


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
MIN_CLOCK_MINUTES = 0.05  # 3 seconds: tiny clocks are for tests and bullet players
MAX_CLOCK_MINUTES = 180.0
MAX_INCREMENT = 60.0


class ClockChoice(Message):
    """A Fischer clock: every seat starts with `minutes`, and gains `increment` seconds after each turn."""

    model_config = ConfigDict(extra="forbid", strict=False, frozen=True)

    minutes: Annotated[float, Field(ge=MIN_CLOCK_MINUTES, le=MAX_CLOCK_MINUTES, allow_inf_nan=False)]
    increment: Annotated[float, Field(ge=0, le=MAX_INCREMENT, allow_inf_nan=False)] = 0.0


def _days_per_move(value: int) -> int:
    if value not in DAYS_CHOICES:
        raise ValueError(f"days per move must be one of {', '.join(map(str, DAYS_CHOICES))}")
    return value


# A correspondence game's days for every move: a whole number of them (not 3.0, "3" or true), one of DAYS_CHOICES.
DaysPerMove = Annotated[int, Field(strict=True), AfterValidator(_days_per_move)]
Options = Annotated[dict[Annotated[str, Field(max_length=40)], OptionValue], Field(max_length=MAX_OPTIONS)]


class NewGame(Message):
    """A new game: which game, its options, who sits where, and its clock.

    `seats` (one choice per seat) says who sits where. Without it, `mode` does: "hotseat", people in
    every seat, one browser holds every token; "ai", a person in `seat`, the computer at `level` in
    every other seat. `level` is 1–10 (an old name — easy, medium, hard — is read as 3, 6, 9).
    `clock` is None for untimed games; `days` (1, 2, 3, 5, 7 or 14) makes a correspondence game
    instead, with that many days for every move (not both). `rated`: a rated game (an account's,
    against someone in another browser or the computer, in a kind of game with a rating pool).
    """

    model_config = ConfigDict(extra="forbid", strict=False, frozen=True)

    game: Annotated[str, Field(min_length=1, max_length=20)]
    options: Options = Field(default_factory=dict)
    mode: Literal["hotseat", "ai"] = "hotseat"
    seat: Annotated[int, Field(ge=0, le=5)] = 0
    level: Level = DEFAULT_LEVEL
    seats: Annotated[list[SeatChoice], Field(min_length=1, max_length=6)] | None = None
    clock: ClockChoice | None = None
    days: DaysPerMove | None = None
    rated: StrictBool = False  # changes the players' ratings when it ends (web/ratings/rules.py says when it may)

    @model_validator(mode="after")
    def _one_time_control(self) -> NewGame:
        if self.clock is not None and self.days is not None:
            raise ValueError("a game has a clock in minutes or days per move, not both")
        return self


def explain_client(error: ValidationError) -> str:
    """`explain` for a page's message on the WebSocket (its type one of `TAGS`)."""
    return explain(error, TAGS)


def parse_client(data: Any) -> Any:
    """A client message from decoded JSON (one of `ClientMessage`'s models); pydantic's
    ValidationError if it is not one."""
    return client_message.validate_python(data)
