"""Who is asking: a `Visitor`, put in every request's and WebSocket's scope by the identity
middleware (web/accounts/identity.py), and what a session cookie holds to say so."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ogames.web.accounts.names import guest_id, guest_name

SCOPE_KEY = "ogames.visitor"


@dataclass(frozen=True)
class Visitor:
    """A person at the site: a guest (a signed cookie and a generated name) or an account.

    `id` is the player id the games record in a seat (`a…` an account, `g…` a guest); `role` is
    "player", or "operator" for an account given that role from the command line."""

    id: str
    name: str
    is_guest: bool
    role: str = "player"

    def session(self, session_id: str | None = None) -> dict[str, Any]:
        """What the session cookie holds for this visitor (signed: a changed byte voids it); an
        account's also holds its log-in's session id (`records.start_session`)."""
        held: dict[str, Any] = {"id": self.id, "name": self.name, "guest": self.is_guest, "seen": int(time.time())}
        if not self.is_guest:
            held["sid"] = session_id
        return held

    @classmethod
    def from_session(cls, session: dict[str, Any]) -> Visitor | None:
        """The visitor a session names (not yet checked against the accounts), or None (empty or malformed)."""
        ident, name, guest = session.get("id"), session.get("name"), session.get("guest")
        if not isinstance(ident, str) or not isinstance(name, str) or not isinstance(guest, bool):
            return None
        if ident[:1] != ("g" if guest else "a"):
            return None
        return cls(ident, name, guest)


def new_guest() -> Visitor:
    """A new guest, named at once."""
    return Visitor(guest_id(), guest_name(), True)


__all__ = ["SCOPE_KEY", "Visitor", "new_guest"]
