"""Passwords: hashed with argon2id through `pwdlib` (argon2-cffi's hasher, its recommended
parameters), checked in the same time whether or not the name has an account.

A log-in for a name nobody has still verifies a password, against a hash made once at start, so
that the answer's timing does not tell which names have accounts.
"""

from __future__ import annotations

import functools

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from ogames.wording import Said, say

MIN_LENGTH = 8
MAX_LENGTH = 256  # (argon2 takes any length; a limit keeps a request's work bounded)

HASHER = PasswordHash((Argon2Hasher(),))


def password_problem(password: str) -> Said | None:
    """Why a password cannot be used (a sentence), or None."""
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        return say("password-length", "a password has {low} to {high} characters", low=MIN_LENGTH, high=MAX_LENGTH)
    return None


def hash_password(password: str) -> str:
    """The argon2id hash to store (salted: never the same twice)."""
    return HASHER.hash(password)


@functools.cache
def decoy_hash() -> str:
    """A hash no password of anyone's matches, verified in place of a missing account's."""
    return HASHER.hash("decoy: no account has this name")


def check_password(password: str, stored: str | None) -> tuple[bool, str | None]:
    """(whether the password matches the stored hash, a new hash to store if its parameters are
    outdated). `stored` None (no such account) takes as long and never matches."""
    if stored is None:
        HASHER.verify(password[:MAX_LENGTH], decoy_hash())
        return False, None
    try:
        return HASHER.verify_and_update(password[:MAX_LENGTH], stored)
    except ValueError:  # (an unreadable stored hash: no match, rather than an error)
        return False, None


__all__ = ["HASHER", "MAX_LENGTH", "MIN_LENGTH", "check_password", "decoy_hash", "hash_password", "password_problem"]
