"""The messages of Omiga's card tables in the browser, validated by pydantic (as `protocol.py` does
for the board games: unknown fields are refused, every string, list and number is bounded).

Real time has no turns and no version to match: a page says what it does with its seat's token and
a sequence number (`seq`) that must grow with every message of that seat, so a message sent again
is refused; the rules judge the action against the table as it is when the server applies it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from ogames.players.levels import HIGHEST, LOWEST
from ogames.web.core.protocol import MAX_TOKEN, Message, PingMessage, SeatsHeld, Token, explain

MAX_ACTION = 60  # "place 35 zz52 turned" is 20 characters; the rules refuse anything longer anyway
MAX_SEQ = 2**53 - 1  # exact in JavaScript
MAX_SEATS = 6
BOT_SPEEDS = ("toddler", "child", "casual", "club", "expert", "champion", "machine")
BOT_STRATEGIES = ("racer", "rollout", "greedy", "random")

Seq = Annotated[int, Field(ge=0, le=MAX_SEQ, strict=True)]


class ActMessage(Message):
    """Do an action for the seat whose token is given: `place 15 i6 [turned]`, `discard`, and in the
    turn-based modes their moves (`place c3`, zen's `draw white`, `place 2 d4`, `end`)."""

    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION)]
    token: Token
    seq: Seq


class ReadyMessage(SeatsHeld):
    """The page is open for these seats: a real-time game gives the signal once every person's seat
    is ready (a watcher sends no tokens)."""

    type: Literal["ready"]
    tokens: Annotated[list[Token], Field(max_length=MAX_SEATS)] = Field(default_factory=list)


class ResignMessage(Message):
    """The seat whose token is given gives up."""

    type: Literal["resign"]
    token: Token
    seq: Seq


TableMessage = Annotated[ActMessage | ReadyMessage | ResignMessage | PingMessage, Field(discriminator="type")]
table_message = TypeAdapter(TableMessage)


class ActRequest(Message):
    """An action over HTTP (`POST /api/omiga/{id}/act`): the same fields as the socket's message."""

    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION)]
    token: Token
    seq: Seq


class SeatChoice(Message):
    """Who plays one seat: a person in this browser (`here`), a person with an invitation link
    (`invite`), or a bot (`bot`): at a `level` 1–10 (`ogames.players.levels.omiga_spec`), or — as
    before levels — with a strategy and a speed. Turn-based modes use a simple climber."""

    kind: Literal["here", "invite", "bot"] = "here"
    level: Annotated[int, Field(ge=LOWEST, le=HIGHEST, strict=True)] | None = None
    strategy: Literal["racer", "rollout", "greedy", "random"] = "racer"
    speed: Literal["toddler", "child", "casual", "club", "expert", "champion", "machine"] | Annotated[
        float, Field(ge=0.05, le=30.0, allow_inf_nan=False)
    ] = "casual"


class NewTable(Message):
    """A new Omiga game: its options (as `ogames.load` takes them), who sits in each seat and
    whether it is `rated`. Only a table of one seat (zen) may give a `seed`: any other is dealt
    from the server's secret seed."""

    model_config = ConfigDict(extra="forbid", strict=False, frozen=True)

    options: Annotated[
        dict[Annotated[str, Field(max_length=20)], Annotated[str, Field(max_length=600)] | int | bool | None],
        Field(max_length=12),
    ] = Field(default_factory=dict)
    seats: Annotated[list[SeatChoice], Field(min_length=1, max_length=MAX_SEATS)] = Field(default_factory=lambda: [SeatChoice()])
    # Changes the people's ratings when it ends (an account's table; web/ratings/rules.py says when it may).
    rated: Annotated[bool, Field(strict=True)] = False


def parse_table_message(data: object) -> ActMessage | ReadyMessage | ResignMessage | PingMessage:
    """A page's message from decoded JSON; pydantic's ValidationError if it is not one."""
    return table_message.validate_python(data)


# The table's message types, as the page may send them.
TABLE_TAGS = ("act", "ready", "resign", "ping")


def explain_table(error: ValidationError) -> str:
    """`protocol.explain` for the table's messages (fields named without the message type)."""
    return explain(error, TABLE_TAGS)


__all__ = [
    "MAX_TOKEN",
    "ActMessage",
    "ActRequest",
    "NewTable",
    "PingMessage",
    "ReadyMessage",
    "ResignMessage",
    "SeatChoice",
    "explain_table",
    "parse_table_message",
]
