"""Which new games may be rated (as lichess decides): a rated game is made by an account (a guest
plays casual games only: a rating needs a name that lasts), between people in different browsers
or against the computer's levels (rated players themselves) — never on one screen, where one person
could play both sides —, and only in a kind of game that has a rating pool (`ogames.ratings.pool_of`:
boards a player made up and Omiga's children's, solo and team variants are casual only).

The people who come to a rated game by its invitation link or take its open seat must be accounts
too: a guest who holds a seat of a rated game makes it casual when it ends (`finish.rated_players`),
so nobody's rating moves against a name that cannot be found again."""

from __future__ import annotations

from ogames.ratings import pool_of
from ogames.rules.protocol import Game
from ogames.web.accounts.visitor import Visitor
from ogames.web.core.common import Refusal
from ogames.web.core.seats import HUMAN
from ogames.wording import say


def rated_refusal(game: Game, kinds: list[str], visitor: Visitor | None) -> Refusal | None:
    """Why this new game cannot be rated, or None if it can."""
    if visitor is None or visitor.is_guest:
        return Refusal(say("rated-needs-account", "only a player with an account can play rated games: sign up or log in"),
                       "rated-account", 403)
    if pool_of(game.name, game.options) is None:
        return Refusal(say("rated-no-pool", "this kind of game is only played casual"), "rated-casual-only")
    if sum(kind == HUMAN for kind in kinds) != 1:
        return Refusal(say("rated-one-screen",
                           "a rated game is played against someone in another browser or the computer, not on one screen"),
                       "rated-one-screen")
    return None


__all__ = ["rated_refusal"]
