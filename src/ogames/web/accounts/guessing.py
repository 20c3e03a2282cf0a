"""The log-in's guard against guessing passwords, counted by the `limits` package in moving windows
(in Redis when the server's processes share one, as the API's limits are: web/limits.py):

- a **name** is locked after `login_failures` wrong passwords within `login_window` seconds, for
  whoever tries it, until the oldest failure leaves the window (a right password does not open it
  early: the lock must not tell a guesser that a guess was right);
- an **address** may try `login_attempts` log-ins (right or wrong, any names) in that window, so that
  one client can neither try many names nor keep the server hashing passwords;
- an **address** may try `signups_per_hour` sign-ups an hour, for the same hashing (and so that
  one client cannot make accounts without end).

A name that has no account is counted the same way, so the lock tells nothing of which names exist.
If the storage cannot count, log-ins pass (`ClientLimits` fails open and says so once in the log).
"""

from __future__ import annotations

import math

from limits.aio.storage import Storage

from ogames.web.core.settings import Settings
from ogames.web.limits import ClientLimits
from ogames.wording import Said, say


class Guessing:
    """The two counts of a server (see the module)."""

    def __init__(self, settings: Settings, storage: Storage):
        # (`ClientLimits` counts `burst` in any `burst / rate` seconds: here, in any `login_window`)
        window = settings.login_window
        self.names = ClientLimits(settings.login_failures / window, settings.login_failures, storage, "login-name")
        self.addresses = ClientLimits(settings.login_attempts / window, settings.login_attempts, storage, "login-address")
        self.signups = ClientLimits(settings.signups_per_hour / 3600, settings.signups_per_hour, storage, "signup-address")

    async def wait(self, address: str, key: str) -> float | None:
        """None if a log-in to the name `key` from `address` may be tried now (the attempt is
        counted), else the seconds until it may."""
        if not await self.names.fits(key):
            return max(1.0, await self.names.wait(key))
        if not await self.addresses.allow(address):
            return max(1.0, await self.addresses.wait(address))
        return None

    async def sign_up(self, address: str) -> float | None:
        """None if a sign-up from `address` may be tried now (it is counted), else the seconds until it may."""
        if not await self.signups.allow(address):
            return max(1.0, await self.signups.wait(address))
        return None

    async def failed(self, key: str) -> None:
        """Count a wrong password for a name."""
        await self.names.allow(key)


def minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


def locked(seconds: float) -> Said:
    """What a refused log-in is told."""
    return say("login-locked", "too many log-in attempts: try again in {minutes} min", minutes=minutes(seconds))


def too_many_signups(seconds: float) -> Said:
    """What a refused sign-up is told."""
    return say("signups-limited", "too many accounts made from your address lately: try again in {minutes} min",
               minutes=minutes(seconds))


__all__ = ["Guessing", "locked", "too_many_signups"]
