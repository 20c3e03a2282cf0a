"""Omiga's card tables in a real browser (Playwright driving Debian's Chromium against `ogames serve`
in a subprocess): a real-time game against a bot played to its end by clicking cards and cells, a
refused card flying back with the server's reason, a zen form completed, 2v2 and toddler tables.

Screenshots go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .test_browser import PHONE, WIDE, expect, new_page  # the browser fixtures come from conftest.py

pytestmark = pytest.mark.slow


def create(page: Any, base: str, options: dict[str, str], seats: list[tuple[str, int]]) -> None:
    """Fill the Omiga form (options by name; seats as (kind, bot level)) and open the table."""
    page.goto(base + "/new/omiga")
    page.select_option("#opt_variant", options.pop("variant", "base"))
    for name, value in options.items():
        if page.locator(f"select#opt_{name}").count():
            page.select_option(f"#opt_{name}", value)
        else:
            page.fill(f"#opt_{name}", value)
    for seat, (kind, level) in enumerate(seats):
        page.select_option(f"select[name=seat{seat}_kind]", kind)
        chooser = page.locator(f"select[name=seat{seat}_level]")
        if kind == "bot" and chooser.is_enabled():  # real time only: turn-based bots are the climber
            chooser.select_option(str(level))
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")


def lay_any_card(page: Any, hover: bool = False, hover_shot: str = "") -> bool:
    """Choose hand cards until one has a place to go, and lay it there; else discard. False if
    there was nothing to do. `hover`: first check the ghost card under the pointer."""
    cards = page.locator("#my-hands .hand-card")
    for index in range(cards.count()):
        card = cards.nth(index)
        try:
            card.click(timeout=2000)
        except Exception:  # the hand was redrawn under the click: look again
            return False
        fits = page.locator("#table [data-fits]")
        if fits.count():
            try:
                if hover and hover_shot:
                    fits.first.hover(timeout=2000)
                    expect(page.locator(".ghost-card")).to_be_visible()
                    page.screenshot(path=str(Path(hover_shot)))
                fits.first.click(timeout=2000)
            except Exception:
                return False
            return True
        if "turned" not in (card.get_attribute("class") or ""):
            try:
                card.click(timeout=2000)  # turned, it may fit somewhere
                if fits.count():
                    fits.first.click(timeout=2000)
                    return True
            except Exception:  # the table or the hand was redrawn under the click: look again
                return False
    discard = page.locator('#actions [data-action="discard"]')
    if discard.count():
        discard.first.click(timeout=2000)
        return True
    return False


def test_a_real_time_game_against_a_bot_to_its_end(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    seats = [("here", 0), ("bot", 9)]  # level 9: the rollout bot at the champion's 0.4 s
    create(page, server, {"variant": "base", "width": "9", "height": "7"}, seats)
    assert "#" not in page.url
    expect(page.locator("#seats li").nth(1)).to_contain_text("computer (level 9)")
    status = page.locator("#status")
    expect(status).to_contain_text("Play!", timeout=15_000)
    # A card on a taken cell is refused: it flies back and the server says why.
    start = page.locator('#table [data-cell][data-stone="black"]').first
    page.locator("#my-hands .hand-card").first.click()
    start.click()
    expect(page.locator("#message")).to_contain_text("is taken")
    page.screenshot(path=str(shots / "omiga-base-refused.png"))
    for _ in range(10):  # the ghost of the chosen card shows where it would lie
        if lay_any_card(page, hover=True, hover_shot=str(shots / "omiga-base-ghost.png")):
            break
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and not page.locator(".status.result").count():
        lay_any_card(page)
        page.wait_for_timeout(600)  # a person's pace: the bot (0.4 s a card) gets its chances
    expect(page.locator(".status.result")).to_be_visible()
    assert any(word in status.inner_text() for word in ("won", "Drawn"))
    page.screenshot(path=str(shots / "omiga-base-over.png"))
    record = page.request.get(page.url + "/record.json").json()
    assert record["result"] and all(isinstance(entry["t"], float) for entry in record["moves"])
    assert record["moves"] and {entry["by"] for entry in record["moves"]} <= {"white", "black"}
    assert any(r["reason"].endswith("is taken") for r in record["meta"]["rejected"])  # the card that flew back


def test_a_zen_form_completed_by_following_the_hints(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    create(page, server, {"variant": "zen", "form": "fly", "seed": "0"}, [("here", 0)])
    expect(page.locator("#zen-verdict")).to_contain_text("Solvable")
    page.screenshot(path=str(shots / "omiga-zen-start.png"))
    hint = page.locator("#zen-hint")
    for done in range(1, 20):
        if page.locator(".status.result").count():
            break
        page.click("#zen-hint-button")
        expect(hint).not_to_be_empty()
        words = hint.inner_text().split()
        if words[0] == "place":
            card = page.locator(f'#my-hands .hand-card[data-index="{int(words[1]) - 1}"]')
            card.click()
            if words[-1] == "turned":
                card.click()
                expect(card).to_have_class("hand-card selected turned")
            page.click(f'#table [data-cell="{words[2]}"]')
        else:
            page.click(f'#actions [data-action="{" ".join(words)}"]')
        expect(page.locator("#moves li")).to_have_count(min(done, 12))
    expect(page.locator(".status.result")).to_contain_text("The form is complete!")
    expect(page.locator("#zen-progress")).to_contain_text("5 of 5")
    page.screenshot(path=str(shots / "omiga-zen-done.png"))
    phone = new_page(browser, PHONE)
    phone.goto(page.url)
    expect(phone.locator(".status.result")).to_contain_text("The form is complete!")
    phone.screenshot(path=str(shots / "omiga-zen-phone.png"), full_page=True)
    phone.goto(page.url + "?lang=ru")
    expect(phone.locator(".status.result")).to_contain_text("Форма собрана!")
    expect(phone.locator("#zen-verdict")).to_contain_text("Решаема")


def test_2v2_with_bots_and_a_person_and_toddler_for_four(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    bot = ("bot", 4)  # the racer at a child's 3 s
    seats = [("here", 0), bot, ("invite", 0), bot]
    create(page, server, {"variant": "2v2", "width": "9", "height": "6"}, seats)
    expect(page.locator("#invites")).to_be_visible()
    invitation = page.locator(".invite-link").input_value()
    assert "#seats=2." in invitation
    expect(page.locator("#status")).to_contain_text("Waiting")  # the invited friend is not here yet
    friend = new_page(browser, PHONE)
    friend.goto(invitation)
    expect(friend.locator("#status")).to_contain_text("Play!", timeout=15_000)
    expect(friend.locator("#my-hands .hand-title")).to_contain_text("Your hand")
    # The bots play: the first after its 3 s reaction, later on a machine busy with other tests.
    expect(page.locator("#moves li").first).to_be_visible(timeout=30_000)
    expect(page.locator("#scores")).to_contain_text("round 1")
    page.screenshot(path=str(shots / "omiga-2v2.png"))
    friend.screenshot(path=str(shots / "omiga-2v2-phone.png"), full_page=True)

    toddler = new_page(browser)
    climber = ("bot", 0)
    create(toddler, server, {"variant": "toddler", "players": "4"}, [("here", 0), climber, climber, climber])
    expect(toddler.locator("#seats li")).to_have_count(4)
    expect(toddler.locator("#status")).to_contain_text("White to move")
    assert lay_any_card(toddler)
    expect(toddler.locator("#moves li")).to_have_count(4, timeout=15_000)  # the three bots answered in turn
    expect(toddler.locator("#status")).to_contain_text("White to move")
    toddler.screenshot(path=str(shots / "omiga-toddler.png"))
    form = new_page(browser, PHONE)
    form.goto(server + "/new/omiga")
    form.screenshot(path=str(shots / "omiga-form-phone.png"), full_page=True)
    assert WIDE["width"] > PHONE["width"]
