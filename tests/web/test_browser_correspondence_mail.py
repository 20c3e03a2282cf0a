"""A correspondence game's mails in real browsers (Playwright driving Debian's Chromium): a server on
simulated days (tests/web/serving.py) whose SMTP server is a local sink (tests/web/mailsink.py).
Ada and Bob sign up in two browser contexts; Ada gives her address on the account page, opens the
verification link the sink received and asks for the mails; she invites Bob to a game at two days
per move; Bob's move mails Ada "your move" with the game's link, which opens the game in her
browser; then her days run out: both pages show the loss on time and the sink gets "game over".

Screenshots go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .mailsink import Sink, body, mail_sink
from .serving import simulate, start_server, stop_server
from .test_browser import expect, new_page, pytestmark
from .test_browser_correspondence import DAY, correspondence_game
from .test_browser_ratings import sign_up

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py
ADDRESS = "ada@example.org"


def subject_starts(text: str) -> Any:
    return lambda mail: str(mail["Subject"]).startswith(text)


def verify_and_opt_in(page: Any, server: str, sink: Sink) -> None:
    """Give the address on the account page, open the mailed link in this browser, tick both mails."""
    page.goto(server + "/account?lang=en")
    page.fill("#address", ADDRESS)
    page.click("form[action='/account/email'] button[type=submit]")
    expect(page.locator(".email-state")).to_contain_text("not verified yet")
    verify = sink.wait_for(subject_starts("ogames: is this your address?"))
    assert str(verify["To"]) == ADDRESS
    link = re.search(rf"{re.escape(server)}/account/email/verify\?token=\S+", body(verify))
    assert link is not None, body(verify)
    page.goto(link.group(0))
    expect(page.locator("main")).to_contain_text(f"the address {ADDRESS} is verified")
    page.goto(server + "/account?lang=en")
    expect(page.locator(".email-state")).to_contain_text("verified")
    page.check("input[name=your_move]")
    page.check("input[name=game_over]")
    page.click("form[action='/account/notices'] button[type=submit]")
    expect(page.locator("input[name=your_move]")).to_be_checked()  # stored: the page after the redirect says so
    expect(page.locator("input[name=game_over]")).to_be_checked()


def test_the_your_move_mail_opens_the_game_and_the_days_run_out(browser: Any, tmp_path: Path, shots: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    now = tmp_path / "now"
    with mail_sink() as sink:
        for name, value in {"OGAMES_SMTP_HOST": "127.0.0.1", "OGAMES_SMTP_PORT": str(sink.port), "OGAMES_SMTP_TLS": "none",
                            "OGAMES_SECRET_KEY": "s" * 40}.items():
            monkeypatch.setenv(name, value)
        # The mails' links name the server's address, whichever free port it starts on.
        process, server = start_server(tmp_path / "g.sqlite3", tmp_path / "server.log", simulated=now, knows_address=True)
        try:
            ada, bob = new_page(browser), new_page(browser)  # two contexts: two people, their own cookies
            sign_up(ada, server, "Ada")
            sign_up(bob, server, "Bob")
            verify_and_opt_in(ada, server, sink)

            correspondence_game(ada, server, days="2", size="4")
            game_id = str(ada.locator(".game").get_attribute("data-game-id"))
            ada.click('[data-cell="b2"]')  # Ada (Black) moves, then invites Bob
            expect(ada.locator("#moves li")).to_have_count(1)

            bob.goto(ada.locator("#invite-1").input_value())
            expect(bob.locator("#link-state")).to_have_text("live")
            for page in (ada, bob):  # both pages name the seat Bob took through the invitation, without a reload
                expect(page.locator("#seats")).to_contain_text("Bob · White")
                expect(page.locator("#clocks li").nth(1)).to_contain_text("Bob")
            bob.click('[data-cell="c2"]')  # Bob's move: Ada's turn begins, and her mail goes out
            expect(ada.locator("#moves li")).to_have_count(2)

            your_move = sink.wait_for(subject_starts("Your move"))
            assert str(your_move["To"]) == ADDRESS
            assert str(your_move["Subject"]) == "Your move: Omny"
            link = re.search(rf"{re.escape(server)}/g/{game_id}(?=\s)", body(your_move))
            assert link is not None, body(your_move)
            assert "#" not in link.group(0)  # the game's link, never a seat token

            mailed = ada.context.new_page()  # her mail program opens the link in a new tab of her browser
            mailed.goto(link.group(0))
            expect(mailed.locator("#link-state")).to_have_text("live")
            expect(mailed.locator(".game")).to_have_attribute("data-game-id", game_id)
            expect(mailed.locator("#moves li")).to_have_count(2)
            expect(mailed).to_have_title(re.compile("^Your move · "))  # her log-in opens her seat: her move
            mailed.screenshot(path=str(shots / "web-correspondence-mail-link.png"))
            mailed.close()

            simulate(now, 2 * DAY + 3600)  # Ada lets her two days run out: the sweeper ends the game
            expect(bob.locator("#status")).to_contain_text("lost on time")
            expect(ada.locator("#status")).to_contain_text("lost on time")
            over = sink.wait_for(subject_starts("Game over"))
            assert str(over["To"]) == ADDRESS and "on time" in body(over)
            subjects = [str(mail["Subject"]).split(":")[0] for mail in sink.received()]
            assert subjects == ["ogames", "Your move", "Game over"], subjects  # Bob gave no address: nothing to him
            assert "Traceback" not in (tmp_path / "server.log").read_text()
        finally:
            stop_server(process)
