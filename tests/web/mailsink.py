"""A local SMTP sink for the notification tests: aiosmtpd's server on a free loopback port, in a
thread of the test, keeping every mail it is handed."""

from __future__ import annotations

import email
import email.policy
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from .serving import PORT_TRIES, free_port

WAIT = 60.0  # seconds: the longest a mail is waited for


class Sink:
    """The mails received, in order."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.lock = threading.Lock()
        self.port = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # (aiosmtpd's name)
        mail = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.mails.append(mail)  # type: ignore[arg-type]
        return "250 OK"

    def received(self) -> list[EmailMessage]:
        with self.lock:
            return list(self.mails)

    def wait_for(self, wanted: Callable[[EmailMessage], bool], timeout: float = WAIT) -> EmailMessage:
        """The first mail received that `wanted` accepts, waited for until a generous deadline."""
        deadline = time.monotonic() + timeout
        while True:
            for mail in self.received():
                if wanted(mail):
                    return mail
            if time.monotonic() > deadline:
                raise AssertionError(f"no such mail arrived; received: {[str(m['Subject']) for m in self.received()]}")
            time.sleep(0.05)


def body(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


@contextmanager
def mail_sink() -> Iterator[Sink]:
    sink = Sink()
    for attempt in range(PORT_TRIES):  # a found port may be taken before the sink binds it (serving.start_server)
        sink.port = free_port()
        controller = Controller(sink, hostname="127.0.0.1", port=sink.port)
        try:
            controller.start()
            break
        except OSError:
            if attempt == PORT_TRIES - 1:
                raise
    try:
        yield sink
    finally:
        controller.stop()


__all__ = ["Sink", "body", "mail_sink"]
