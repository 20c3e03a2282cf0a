"""The archive: every finished game, searched by a player's name, the game, its variant, how it
ended and a range of dates, newest first, a page at a time.

Each filter is a column (migration 0010 keeps the variant and the outcome beside the JSON head)
and the query walks an index: finished games by date (`ix_games_finished`), or by game and
variant (`ix_games_kind`); a player's name is an account's (its case-folded key is unique), found
through `seat_players` (indexed by player). Guests are not searched by name: a guest's name is
made up and not theirs alone.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ogames.web.accounts.names import name_key
from ogames.web.accounts.records import accounts, seat_players
from ogames.web.core.store import OUTCOMES, Store, games, guarded

PAGE_SIZE = 25  # games on a page of the archive
MAX_PAGE = 400  # pages one can turn to (deeper, narrow the search)


@dataclass(frozen=True)
class Search:
    """What a visitor asked the archive for (every field optional)."""

    player: str = ""
    game: str = ""
    variant: str = ""
    outcome: str = ""
    since: dt.date | None = None
    until: dt.date | None = None  # inclusive: the whole day
    page: int = 1

    @classmethod
    def read(cls, query: dict[str, str], known_games: set[str]) -> Search:
        """A search from a query string; a value that cannot be meant (an unknown game or outcome, a
        date that is none) is dropped rather than refused, so a hand-edited link still answers."""

        def date(text: str) -> dt.date | None:
            try:
                return dt.date.fromisoformat(text.strip()[:10])
            except ValueError:
                return None

        try:
            page = min(max(int(query.get("page", "1")), 1), MAX_PAGE)
        except ValueError:
            page = 1
        game = query.get("game", "").strip()
        outcome = query.get("outcome", "").strip()
        return cls(
            player=query.get("player", "").strip()[:64],
            game=game if game in known_games else "",
            variant=query.get("variant", "").strip()[:32],
            outcome=outcome if outcome in OUTCOMES else "",
            since=date(query.get("since", "")),
            until=date(query.get("until", "")),
            page=page,
        )

    def link(self, **changes: Any) -> str:
        """The query string of this search with some fields changed ('?…', or '' when it asks for
        nothing): a page's link."""
        from urllib.parse import urlencode

        fields = {"player": self.player, "game": self.game, "variant": self.variant, "outcome": self.outcome,
                  "since": self.since.isoformat() if self.since else "", "until": self.until.isoformat() if self.until else "",
                  "page": str(self.page)}
        fields.update({key: str(value) for key, value in changes.items()})
        query = urlencode({key: value for key, value in fields.items() if value and not (key == "page" and value == "1")})
        return f"?{query}" if query else ""


def _timestamp(day: dt.date) -> float:
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC).timestamp()


@dataclass(frozen=True)
class Found:
    """A page of the archive: its games, and whether there is a next page."""

    games: list[dict[str, Any]]
    more: bool


@guarded()
def search(store: Store, asked: Search) -> Found:
    """The finished games `asked` for, a page of them, newest first."""
    query = select(games.c.id, games.c.game, games.c.variant, games.c.outcome, games.c.head, games.c.updated_at).where(
        games.c.status == "over"
    )
    if asked.player:
        account = select(accounts.c.id).where(accounts.c.name_key == name_key(asked.player)).scalar_subquery()
        seated = select(seat_players.c.game_id).where(seat_players.c.player_id == account)
        query = query.where(games.c.id.in_(seated))
    if asked.game:
        query = query.where(games.c.game == asked.game)
    if asked.variant:
        query = query.where(games.c.variant == asked.variant)
    if asked.outcome:
        query = query.where(games.c.outcome == asked.outcome)
    if asked.since:
        query = query.where(games.c.updated_at >= _timestamp(asked.since))
    if asked.until:
        query = query.where(games.c.updated_at < _timestamp(asked.until + dt.timedelta(days=1)))
    query = query.order_by(games.c.updated_at.desc(), games.c.id).offset((asked.page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    found = [
        {
            "id": row.id,
            "game": row.game,
            "variant": row.variant,
            "outcome": row.outcome,
            "players": [str(name) for name in (row.head or {}).get("players", [])],
            "result": ((row.head or {}).get("result") or {}).get("reason"),
            "winner": ((row.head or {}).get("result") or {}).get("winner"),
            "ended": row.updated_at,
        }
        for row in rows[:PAGE_SIZE]
    ]
    return Found(found, len(rows) > PAGE_SIZE)


__all__ = ["MAX_PAGE", "PAGE_SIZE", "Found", "Search", "search"]
