"""The lobby socket's messages from a page (`/ws/lobby`), validated by pydantic like the games'
(web/core/protocol.py): unknown fields refused, every string, list and number bounded.

    {"type": "seek", "game", "options", "clock": {minutes, increment} | null, "days": N | null,
     "rated": bool, "quick": bool, "min": rating | null, "max": rating | null,
     "to": NAME | null}                                              post a seek (a challenge: to NAME)
    {"type": "accept", "seek": ID}                                   accept someone's seek
    {"type": "cancel", "seek": ID}                                   withdraw one's own seek
    {"type": "decline", "seek": ID}                                  decline a challenge to oneself
    {"type": "ping"}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from ogames.web.boards.protocol import ClockChoice, DaysPerMove, NewGame, Options
from ogames.web.core.protocol import Message, PingMessage, explain

RatingBound = Annotated[int, Field(ge=0, le=4000, strict=True)]
SeekId = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]


class SeekMessage(Message):
    """A game offered to anyone in the lobby (two players: each in a seat, by a link of its own)."""

    model_config = ConfigDict(extra="forbid", strict=False, frozen=True)

    type: Literal["seek"]
    game: Annotated[str, Field(min_length=1, max_length=20)]
    options: Options = Field(default_factory=dict)
    clock: ClockChoice | None = None
    days: DaysPerMove | None = None
    rated: Annotated[bool, Field(strict=True)] = False
    # Quick pairing ("play now"): paired at once with the waiting quick seek of the same game, options
    # and time control whose poster's rating is closest, else left waiting as a seek.
    quick: Annotated[bool, Field(strict=True)] = False
    min: RatingBound | None = None
    max: RatingBound | None = None
    # A challenge: the seek is for this account alone (its name), listed on its pages and the poster's.
    to: Annotated[str, Field(min_length=1, max_length=40)] | None = None

    @model_validator(mode="after")
    def _sensible(self) -> SeekMessage:
        if self.clock is not None and self.days is not None:
            raise ValueError("a game has a clock in minutes or days per move, not both")
        if self.to is not None and self.quick:
            raise ValueError("a challenge is for one player: it is not paired quickly")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("the lowest rating is above the highest")
        return self

    def new_game(self, poster_seat: int = 0) -> NewGame:
        """The game it makes: the poster's seat theirs as a new game's creator's is ("here": their
        browser holds its token already), the other a person invited (the acceptor)."""
        seats = ["here" if seat == poster_seat else "invite" for seat in range(2)]
        return NewGame(game=self.game, options=self.options, seats=seats, clock=self.clock, days=self.days, rated=self.rated)

    def stored(self) -> dict[str, Any]:
        """The new game's fields as the seek keeps them."""
        return {"game": self.game, "options": dict(self.options),
                "clock": None if self.clock is None else self.clock.model_dump(), "days": self.days, "quick": self.quick}


class AcceptMessage(Message):
    type: Literal["accept"]
    seek: SeekId


class CancelMessage(Message):
    type: Literal["cancel"]
    seek: SeekId


class DeclineMessage(Message):
    type: Literal["decline"]
    seek: SeekId


TAGS = ("seek", "accept", "cancel", "decline", "ping")
LobbyMessage = Annotated[SeekMessage | AcceptMessage | CancelMessage | DeclineMessage | PingMessage, Field(discriminator="type")]
lobby_message: TypeAdapter[Any] = TypeAdapter(LobbyMessage)


def parse_lobby(data: Any) -> Any:
    """A lobby message from decoded JSON; pydantic's ValidationError if it is not one."""
    return lobby_message.validate_python(data)


def explain_lobby(error: ValidationError) -> str:
    """`explain` for a lobby message (its type one of `TAGS`)."""
    return explain(error, TAGS)


__all__ = ["AcceptMessage", "CancelMessage", "DeclineMessage", "PingMessage", "SeekMessage", "explain_lobby", "parse_lobby"]
