"""Names: the rules of an account's name, and the readable names guests are given.

An account's name is 3 to 20 characters: Latin letters, digits, `_` and `-`, starting with a
letter. Names are unique whatever their case ("Ada" and "ADA" are one name: the key is the
case-folded name), and a few are reserved — names that would pass for the site, its staff or the
computer, and every name beginning with "guest", which guests' generated names use.
"""

from __future__ import annotations

import re
import secrets

from coolname import generate

from ogames.wording import Said, say

MIN_LENGTH = 3
MAX_LENGTH = 20
PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
GUEST_PREFIX = "guest"
RESERVED = frozenset({
    "admin", "administrator", "anonymous", "computer", "deleted", "mod", "moderator", "none", "nobody", "null",
    "ogames", "operator", "root", "staff", "support", "system", "bot", "ai", "you", "me", "player", "account",
    "login", "logout", "signup", "settings",
})


def name_key(name: str) -> str:
    """The key that makes names unique whatever their case."""
    return name.casefold()


def name_problem(name: str) -> Said | None:
    """Why a name cannot be an account's (a sentence), or None if it can."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        return say("name-length", "a name has {low} to {high} characters", low=MIN_LENGTH, high=MAX_LENGTH)
    if not PATTERN.fullmatch(name):
        return say("name-characters", "a name starts with a letter and has only Latin letters, digits, _ and -")
    key = name_key(name)
    if key in RESERVED or key.startswith(GUEST_PREFIX):
        return say("name-reserved", "the name {name} is reserved", name=name)
    return None


def guest_name() -> str:
    """A readable name for a new guest: `guest-amber-otter` (two words chosen at random)."""
    words = generate(2)
    return "-".join([GUEST_PREFIX, *(word.lower() for word in words)])


def guest_id() -> str:
    """A new guest's player id (`g` and 22 random URL-safe characters), carried in its signed cookie."""
    return "g" + secrets.token_urlsafe(16)


__all__ = ["GUEST_PREFIX", "MAX_LENGTH", "MIN_LENGTH", "RESERVED", "guest_id", "guest_name", "name_key", "name_problem"]
