"""Hints for learners: in a casual game against the computer, a person may ask a few times a
game (`Settings.hints_per_game`) for the best move, which the page lights on the board.

    POST /api/games/{id}/hint   {token, version} → the best move (its cells, the board with it
                                marked) and the game's hints {used, left, limit}
                                (the route, which counts the hint: web/boards/learner_hints_route.py)

A hint is the computer's analysis of the position (web/boards/ai.py `analyse`, searching
`Settings.hint_seconds`), run on the analysis desk's workers within the asker's quota
(web/boards/analysis.py), so it never holds a live game's computer moves up. It is offered only
where it helps nobody against anybody: a game that is not rated, whose only person is the asker
and whose other seats are all the computer's, while the game goes on and the asker is to move.
(This is not the analysis gate of web/boards/hints.py, which keeps the analysis from being a hint
in a game against someone.)

The count is the game's, in the database (`games.hints_used`), raised by one statement that also
checks the limit and that the game is still at the version the hint was asked at: a hint is
counted only once its search has answered and only for the position it was asked about; a hint
refused for any reason changes nothing. Other server processes hear the new count on the bus.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ogames.web.boards.live import HUMAN, LiveGame
from ogames.web.core.common import Refusal
from ogames.web.core.hub import BAD_TOKEN, not_your_turn
from ogames.wording import say


class HintRequest(BaseModel):
    """Ask for a hint for the seat whose token is given, in the game as the page saw it (`version`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=0)


def hint_limit(live: LiveGame, per_game: int) -> int:
    """How many hints a game offers: `per_game` in a casual game of one person against the
    computer (every other seat the computer's), none in any other game — rated, or with another
    person at any seat (invited, open, or a second person on the same screen)."""
    people = [kind for seat, kind in enumerate(live.seat_kinds) if not live.is_computer(seat)]
    if live.rated or live.mode != "ai" or people != [HUMAN]:
        return 0
    return max(per_game, 0)


def check_hint(live: LiveGame, token: str, version: int) -> int:
    """The seat asking for a hint, if the game may give it one now; Refusal (saying why) if not."""
    seat = live.seat_of(token)
    if seat is None:
        raise Refusal(BAD_TOKEN, "bad-token", 403)
    if live.rated:
        raise Refusal(say("hint-rated", "there are no hints in a rated game"), "no-hint", 403)
    if live.hint_limit == 0:
        raise Refusal(say("hint-not-here", "hints are given only in casual games of one person against the computer"),
                      "no-hint", 403)
    if live.ended:
        raise Refusal(say("hint-over", "the game is over: hints are for a game being played"), "over", 409)
    if version != live.version:
        raise Refusal(say("stale-version",
                          "the game has moved on since this was sent (it was for version {sent}, the game is at {now})",
                          sent=version, now=live.version), "stale", 409)
    if seat != live.state.mover:
        raise Refusal(not_your_turn(live.state.to_move), "not-your-turn", 409)
    if live.hints_used >= live.hint_limit:
        raise Refusal(say("hints-used-up", "you have used all the hints of this game ({limit})", limit=live.hint_limit),
                      "no-hints-left", 409)
    return seat


def hints_of(live: LiveGame) -> dict[str, int]:
    """A game's hints as its view and the hint's answer show them."""
    return {"used": live.hints_used, "left": max(0, live.hint_limit - live.hints_used), "limit": live.hint_limit}


__all__ = ["HintRequest", "check_hint", "hint_limit", "hints_of"]
