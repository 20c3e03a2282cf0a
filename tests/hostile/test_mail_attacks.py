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
def app(tmp_path: Path, sink: Sink) -> Iterator[object]:
    settings = quick_settings(tmp_path / "games.sqlite3", smtp_host="127.0.0.1", smtp_port=sink.port, smtp_tls="none",
                              smtp_from="ogames@example.org", site_url="http://games.example.org")
    made = create_app(settings)
    with TestClient(made):
        yield made


def account(app: object, name: str) -> TestClient:
    client = TestClient(app)  # type: ignore[arg-type]
    answer = client.post("/signup", data={"name": name, "password": "correct horse", "again": "correct horse"})
    assert answer.status_code == 200 and name in answer.text
    return client


def mails_to(sink: Sink, address: str) -> int:
    return sum(1 for mail in sink.received() if mail["To"] == address)


def wait_sent(app: object, sink: Sink, address: str, count: int) -> None:
    """Until `count` mails to `address` arrived and the mailer has nothing more waiting."""
    sink.wait_for(lambda _: mails_to(sink, address) >= count)
    mailer = app.state.mailer  # type: ignore[attr-defined]
    sink.wait_for(lambda _: mailer.queue.empty() and mailer.sent == len(sink.received()))


def test_one_address_gets_a_few_verification_mails_whoever_asks(app: object, sink: Sink) -> None:
    attackers = [account(app, f"Mailer{n}") for n in range(3)]
    answers = [attacker.post("/account/email", data={"address": VICTIM}).status_code
               for _ in range(10) for attacker in attackers]
    assert answers.count(200) == VERIFY_MAILS and answers.count(429) == len(answers) - VERIFY_MAILS
    wait_sent(app, sink, VICTIM, VERIFY_MAILS)
    assert mails_to(sink, VICTIM) == VERIFY_MAILS


def test_one_account_sends_a_few_verification_mails_whatever_the_address(app: object, sink: Sink) -> None:
    attacker = account(app, "Sprayer")
    addresses = [f"someone{n}@example.org" for n in range(VERIFY_MAILS * 4)]
    answers = [attacker.post("/account/email", data={"address": address}) for address in addresses]
    assert [answer.status_code for answer in answers] == [200] * VERIFY_MAILS + [429] * (len(addresses) - VERIFY_MAILS)
    assert "too many" in answers[-1].text
    wait_sent(app, sink, addresses[VERIFY_MAILS - 1], 1)
    assert sorted(str(mail["To"]) for mail in sink.received()) == sorted(addresses[:VERIFY_MAILS])
    # the refused forms stored nothing: the account's address is still the last one mailed
    store = app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        stored = [row.address for row in conn.execute(records.email_addresses.select())]
    assert stored == [addresses[VERIFY_MAILS - 1]]
