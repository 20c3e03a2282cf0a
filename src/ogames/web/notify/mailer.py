"""Sends mails in the background through the SMTP server of the settings (aiosmtplib): a queue
the notifier puts mails in and one task that sends them one after another, so that a slow or
unreachable mail server never holds up a move. A mail that cannot be sent is logged in one line
(no trace, no address in full) and dropped; a full queue drops the newest."""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage

import aiosmtplib

from ogames.web.core.background import Background
from ogames.web.core.settings import Settings

log = logging.getLogger("ogames.web.notify")

QUEUE = 1000  # mails waiting at most
SEND_TIMEOUT = 20.0  # seconds one mail may take


def masked(address: str) -> str:
    """An address as the log shows it: its domain only."""
    return "…@" + address.rpartition("@")[2]


class Mailer:
    """The outgoing mails of this server process; `enabled` only if the settings name an SMTP host."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.enabled = bool(settings.smtp_host)
        self.queue: asyncio.Queue[EmailMessage] = asyncio.Queue(QUEUE)
        self.background = Background("mailer")
        self.sent = 0  # mails handed to the SMTP server (for tests and checks)

    def start(self) -> None:
        if self.enabled:
            self.background.spawn(self._run(), "mailer")

    async def close(self) -> None:
        await self.background.close()

    def submit(self, message: EmailMessage) -> None:
        """Queue a mail (never waits)."""
        if not self.enabled:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("mail to %s dropped: %d mails are waiting already", masked(str(message["To"])), QUEUE)

    async def _run(self) -> None:
        while True:
            message = await self.queue.get()
            await self.send(message)

    async def send(self, message: EmailMessage) -> bool:
        """Send one mail now; whether the SMTP server took it (a failure is logged in one line)."""
        settings = self.settings
        try:
            await aiosmtplib.send(
                message,
                hostname=settings.smtp_host,
                port=settings.smtp_port,
                username=settings.smtp_user or None,
                password=settings.smtp_password or None,
                use_tls=settings.smtp_tls == "tls",
                start_tls=True if settings.smtp_tls == "starttls" else False,
                timeout=SEND_TIMEOUT,
            )
        except Exception as exc:  # any failure of the mail server: one line, and the game goes on
            reason = type(exc).__name__ + (f": {exc}" if str(exc) else "")
            log.warning("mail to %s not sent: %s", masked(str(message["To"])), " ".join(reason.split()))
            return False
        self.sent += 1
        return True


__all__ = ["Mailer", "masked"]
