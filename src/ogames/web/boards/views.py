"""What a board game's page and the JSON API are sent, as types: the view of a live game, the
delta between two views (web/core/delta.py) and the API's answers that carry a view.

The hub makes its views as these models (web/boards/game_view.py): each part is made typed (a
move's `MoveView` once, when the move is made; the seats, result and clock with every view) and
the `GameView` is put together from them without walking its lists again, so a move costs what
it changed; a view is written as JSON once per language (`delta.written`, unset parts left out).
The tests check every view and delta of random games of every board game against these models
strictly (unknown fields are errors: a field added to a view is declared here first)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from ogames.web.core.delta import Delta
from ogames.web.core.protocol import Declared
from ogames.web.ratings.views import RatingChangeView


class SeatView(Declared):
    seat: int
    name: str
    computer: bool
    level: int | None  # the computer's level 1–10 (None: a person, or a computer stored before levels)
    colours: list[str]
    kind: Literal["person", "invited", "open", "computer"]


class MoveView(Declared):
    n: int
    by: str | None
    move: str | None
    captures: list[str] | None = None  # what an Onyx move captured
    text: str | None = None  # the move in the page's language (views in another language than English)


class ResultView(Declared):
    winner: str
    reason: str
    text: str
    on_time: bool


class ClockView(Declared):
    base: float
    increment: float
    remaining: list[float]  # seconds left per seat, now
    running: int | None  # the seat whose clock runs
    flagged: int | None  # the seat that lost on time
    days: int | None = None  # a correspondence clock: days per move (web/boards/correspondence.py)
    deadline: float | None = None  # ... and when the seat to move runs out of them (epoch seconds)


class ClaimView(Declared):
    model_config = ConfigDict(extra="forbid", strict=True, serialize_by_alias=True)  # written as on the wire: `in`

    seat: int  # a person whose page is closed
    # seconds until the others may claim the win over it (0: now)
    in_: float = Field(alias="in")


class UndoRequestView(Declared):
    seat: int
    agreed: list[int]


class RematchView(Declared):
    """A finished game's rematch (web/lobby/rematch.py): the seats that have offered, the new game once made."""

    offered: list[int]
    game: str | None


class HintsView(Declared):
    """A learner's hints in a casual game against the computer: taken, left, and the game's limit."""

    used: int
    left: int
    limit: int


class RegionView(Declared):
    colour: str
    best: int | None
    limit: int
    stars: int


class PlacingView(Declared):
    index: int
    of: int


class BoardView(Declared):
    """The facts shown beside the board and what a page puts on the board drawn once."""

    svg: str | None = None  # the whole drawing: the JSON API and sockets without deltas only
    winning: list[str]
    captures: list[str]
    marked: list[str]  # the cells whose stone has the last move's dot
    outline: str  # the winning outline's SVG (drawn alone), or empty
    groups: dict[str, list[int]] | None = None  # Omega
    placing: PlacingView | None = None  # Omega
    komi: int | float | None = None  # Omny: the komi in force (None while Black has yet to choose it)
    regions: list[RegionView] | None = None  # Omny
    captured: dict[str, int] | None = None  # Onyx
    open: list[str] | None = None  # Onyx's open midpoints


class GameView(Declared):
    """A live board game as every page watching it sees it (no secrets)."""

    type: Literal["state"]
    seq: int | None = None  # the view's number in its server process (the deltas' `base` and `seq`)
    id: str
    game: str
    title: str
    options: dict[str, Any]
    mode: Literal["hotseat", "ai", "online"]
    colours: list[str]
    ply: int
    version: int
    over: bool
    to_move: str | None
    mover: int | None
    seats: list[SeatView]
    moves: list[MoveView]
    stones: dict[str, str]
    last: str | None
    legal: list[str]
    specials: list[str]
    winning: list[str]
    scores: dict[str, Any] | None
    result: ResultView | None
    thinking: bool
    problem: str | None
    board: BoardView
    clock: ClockView | None
    undo: bool
    undo_seats: list[int]
    undo_request: UndoRequestView | None
    undo_declined: int | None
    analysis: bool
    present: list[int]
    pages: int
    aborted: bool
    abort: bool
    claims: list[ClaimView]
    rated: bool
    ratings: list[RatingChangeView] | None
    rematch: RematchView | None  # None: no rematch for this game (not over, or not two people in their own browsers)
    hints: HintsView | None = None


# What changed between two views (web/core/delta.py: `make_delta`, `apply_delta`), its moves typed.
DeltaView = Delta[MoveView]


class OutcomeView(Declared):
    winner: str
    reason: str
    text: str


class PositionView(Declared):
    """An earlier position of a game, read-only (`GET /api/games/{id}/position/{k}`): the board
    after its first `k` record entries (of `of`), whose turn it was, its result."""

    type: Literal["position"]
    k: int
    of: int
    to_move: str | None
    scores: dict[str, Any] | None
    result: OutcomeView | None
    board: BoardView


class Invitation(Declared):
    token: str
    link: str


class CreatedGame(Declared):
    """The answer to `POST /api/games`: the new game, its link, the tokens of the seats played
    where it was made and the invitations to pass on, and its view."""

    id: str
    url: str
    tokens: dict[str, str]
    invitations: dict[str, Invitation]
    view: GameView


class JoinedSeat(Declared):
    """The answer to `POST /api/games/{id}/join`: the seat taken, its token (given once) and the view."""

    seat: int
    token: str
    view: GameView


__all__ = ["BoardView", "ClockView", "CreatedGame", "DeltaView", "GameView", "Invitation", "JoinedSeat", "MoveView",
           "OutcomeView", "PositionView", "RematchView", "ResultView", "SeatView", "UndoRequestView"]
