"""The site's mails as an attacker would use them, in process against a local SMTP sink: giving an
address on the account page mails a verification link to it, whoever's it is, so an account
posting the form again and again (or many accounts, as signing up is free) would have the site
mail someone else's address without end. At most `VERIFY_MAILS` verification mails go to one
address, and from one account, in `VERIFY_WINDOW` seconds; a form beyond is refused (429) with
nothing stored and nothing sent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.notify import records
from ogames.web.notify.routes import VERIFY_MAILS
from web.conftest import quick_settings
from web.mailsink import Sink, mail_sink

VICTIM = "victim@example.org"


@pytest.fixture
def sink() -> Iterator[Sink]:
    with mail_sink() as running:
        yield running


@pytest.fixture
def site(tmp_path: Path, sink: Sink) -> Iterator[TestClient]:
    """The site, through the one client that runs its lifespan: every request goes through this
    client, so that the mailer, on the lifespan's event loop, is woken at once by what they queue
    (a request from another client runs on a loop of its own)."""
    settings = quick_settings(tmp_path / "games.sqlite3", smtp_host="127.0.0.1", smtp_port=sink.port, smtp_tls="none",
                              smtp_from="ogames@example.org", site_url="http://games.example.org")
    with TestClient(create_app(settings)) as client:
        yield client


def sign_up(client: TestClient, name: str) -> None:
    """The client is a new account now (the cookies of the one before are dropped)."""
    client.cookies.clear()
    answer = client.post("/signup", data={"name": name, "password": "correct horse", "again": "correct horse"})
    assert answer.status_code == 200 and name in answer.text


def mails_to(sink: Sink, address: str) -> int:
    return sum(1 for mail in sink.received() if mail["To"] == address)


def wait_sent(site: TestClient, sink: Sink, address: str, count: int) -> None:
    """Until `count` mails to `address` arrived and the mailer has nothing more waiting."""
    sink.wait_for(lambda _: mails_to(sink, address) >= count)
    mailer = site.app.state.mailer  # type: ignore[attr-defined]
    sink.wait_for(lambda _: mailer.queue.empty() and mailer.sent == len(sink.received()))


def test_one_address_gets_a_few_verification_mails_whoever_asks(site: TestClient, sink: Sink) -> None:
    answers = []
    for n in range(3):  # three accounts, ten forms each
        sign_up(site, f"Mailer{n}")
        answers += [site.post("/account/email", data={"address": VICTIM}).status_code for _ in range(10)]
    assert answers.count(200) == VERIFY_MAILS and answers.count(429) == len(answers) - VERIFY_MAILS
    wait_sent(site, sink, VICTIM, VERIFY_MAILS)
    assert mails_to(sink, VICTIM) == VERIFY_MAILS


def test_one_account_sends_a_few_verification_mails_whatever_the_address(site: TestClient, sink: Sink) -> None:
    sign_up(site, "Sprayer")
    addresses = [f"someone{n}@example.org" for n in range(VERIFY_MAILS * 4)]
    answers = [site.post("/account/email", data={"address": address}) for address in addresses]
    assert [answer.status_code for answer in answers] == [200] * VERIFY_MAILS + [429] * (len(addresses) - VERIFY_MAILS)
    assert "too many" in answers[-1].text
    wait_sent(site, sink, addresses[VERIFY_MAILS - 1], 1)
    assert sorted(str(mail["To"]) for mail in sink.received()) == sorted(addresses[:VERIFY_MAILS])
    # the refused forms stored nothing: the account's address is still the last one mailed
    store = site.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        stored = [row.address for row in conn.execute(records.email_addresses.select())]
    assert stored == [addresses[VERIFY_MAILS - 1]]
