"""Omiga's card tables in a real browser (Playwright driving Debian's Chromium against `ogames serve`
in a subprocess): a real-time game against a bot played to its end by clicking cards and cells, a
refused card flying back with the server's reason, a zen form completed, 2v2 and toddler tables.

Screenshots go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder).
"""

from __future__ import annotations

import re
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
    seats = [("here", 0), ("bot", 9)]  # level 9: the rollout bot at 0.8 s a card
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
        page.wait_for_timeout(600)  # a person's pace: the bot (0.8 s a card) gets its chances
    expect(page.locator(".status.result")).to_be_visible()
    assert any(word in status.inner_text() for word in ("won", "Drawn"))
    page.screenshot(path=str(shots / "omiga-base-over.png"))
    record = page.request.get(page.url + "/record.json").json()
    assert record["result"] and all(isinstance(entry["t"], float) for entry in record["moves"])
    assert record["moves"] and {entry["by"] for entry in record["moves"]} <= {"white", "black"}
    assert any(r["reason"].endswith("is taken") for r in record["meta"]["rejected"])  # the card that flew back


def follow_the_hint(page: Any) -> None:
    """Ask for a hint and do what the table shows: lay the lit hand card (turned when it is shown
    turned) on the lit cell, or press the lit button."""
    page.click("#zen-hint-button")
    text = page.locator("#zen-hint")
    expect(text).not_to_be_empty()
    assert not text.inner_text().startswith(("place ", "start ", "draw ")), "the hint is not engine syntax"
    lit_card, lit_cell = page.locator("#my-hands .hand-card.hinted"), page.locator("#table [data-hint]")
    if not lit_card.count():
        assert lit_cell.count() == 0
        page.click("#actions .button.hinted")
        return
    expect(lit_card).to_have_count(1)
    expect(lit_cell).to_have_count(1)
    expect(page.locator("#table .hint-ghost")).to_be_visible()  # the card, faint, on its cell as it is to lie
    turned = lit_cell.get_attribute("data-hint") == "turned"
    assert ("hint-turned" in (lit_card.get_attribute("class") or "")) == turned
    cell = lit_cell.get_attribute("data-cell")
    assert cell and cell in text.inner_text()
    lit_card.click()
    if turned:
        page.locator("#my-hands .hand-card.selected").click()
        expect(page.locator("#my-hands .hand-card.selected")).to_have_class(re.compile(r"\bturned\b"))
    expect(page.locator(f'#table [data-cell="{cell}"][data-fits]')).to_have_count(1)  # it fits there, as chosen
    page.click(f'#table [data-cell="{cell}"]')


def test_a_zen_form_completed_by_following_the_hints_lit_on_the_table(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    create(page, server, {"variant": "zen", "form": "fly", "seed": "0"}, [("here", 0)])
    expect(page.locator("#zen-verdict")).to_contain_text("Solvable")
    table = page.url
    page.screenshot(path=str(shots / "omiga-zen-start.png"))
    shot_taken = False
    for done in range(1, 20):
        if page.locator(".status.result").count():
            break
        follow_the_hint(page)
        expect(page.locator("#moves li")).to_have_count(min(done, 12))
        expect(page.locator("#zen-hint")).to_be_empty()  # a hint is for one position
        if not shot_taken and page.locator("#my-hands .hand-card").count() >= 2:
            page.click("#zen-hint-button")
            if page.locator("#my-hands .hand-card.hinted").count():
                page.screenshot(path=str(shots / "omiga-zen-hint.png"))
                for query, name in (("?lang=en", "omiga-zen-hint-phone.png"), ("?lang=ru", "omiga-zen-hint-phone-ru.png")):
                    phone = page.context.new_page()  # this browser's seat, on a phone's screen
                    phone.set_viewport_size(PHONE)
                    phone.goto(table + query)
                    phone.click("#zen-hint-button")
                    expect(phone.locator("#my-hands .hand-card.hinted")).to_have_count(1)
                    expect(phone.locator("#zen-hint")).to_contain_text("подсвеченн" if query.endswith("ru") else "lit")
                    phone.screenshot(path=str(shots / name), full_page=True)
                    phone.close()
                shot_taken = True
            page.goto(table + "?lang=en")  # the hint asked for here is followed by the loop
            expect(page.locator("#link-state")).to_have_text("live")
    assert shot_taken
    expect(page.locator(".status.result")).to_contain_text("The form is complete!")
    expect(page.locator("#zen-progress")).to_contain_text("5 of 5")
    page.screenshot(path=str(shots / "omiga-zen-done.png"))
    phone = new_page(browser, PHONE)
    phone.goto(table)
    expect(phone.locator(".status.result")).to_contain_text("The form is complete!")
    phone.screenshot(path=str(shots / "omiga-zen-phone.png"), full_page=True)
    phone.goto(table + "?lang=ru")
    expect(phone.locator(".status.result")).to_contain_text("Форма собрана!")
    expect(phone.locator("#zen-verdict")).to_contain_text("Решаема")


def numbers_fit(page: Any) -> list[dict[str, Any]]:
    """Each shown move's number: its text, whether it is cut (wider than its box, or out of the list's
    box) and how many lines it takes."""
    return page.evaluate(
        """() => {
        const list = document.getElementById("moves").getBoundingClientRect();
        return [...document.querySelectorAll("#moves li")].map((li) => {
          const n = li.querySelector(".n"), box = n.getBoundingClientRect();
          const line = parseFloat(getComputedStyle(n).lineHeight) || parseFloat(getComputedStyle(n).fontSize) * 1.4;
          const said = li.querySelector(".said").cloneNode(true);
          said.querySelectorAll(".cell-name").forEach((c) => c.remove());
          return {text: n.textContent, n: li.dataset.n, cut: n.scrollWidth > n.clientWidth + 0.5 || box.left < list.left - 0.5
                  || box.right > list.right + 0.5, lines: Math.round(box.height / line), said: said.textContent,
                  cards: li.querySelectorAll(".said .mini-card svg").length};
        });
      }"""
    )


def test_the_move_list_speaks_to_people_and_fits_three_digit_numbers(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    create(page, server, {"variant": "base"}, [("here", 0), ("here", 0)])  # both seats in this browser, nobody else
    expect(page.locator("#status")).to_contain_text("Play!", timeout=15_000)
    count = 0
    while count < 104:  # discards, the action there always is, up to three-digit numbers
        page.locator('#actions [data-action="discard"]').nth(count % 2).click()
        count += 1
        expect(page.locator("#moves li").last).to_have_attribute("data-n", str(count))
    for _ in range(5):  # then a card (a first card cannot win); with no card fitting anywhere, a discard and again
        assert lay_any_card(page)
        count += 1
        expect(page.locator("#moves li").last).to_have_attribute("data-n", str(count))
        if page.locator("#moves li").last.locator(".mini-card svg").count():
            break
    for viewport, name in ((None, "omiga-moves.png"), ("en", "omiga-moves-phone.png"), ("ru", "omiga-moves-phone-ru.png")):
        shown = page
        if viewport is not None:
            shown = page.context.new_page()
            shown.set_viewport_size(PHONE)
            shown.goto(page.url + "?lang=" + viewport)
        expect(shown.locator("#moves li")).to_have_count(12)
        shown.locator("#moves").scroll_into_view_if_needed()
        lines = numbers_fit(shown)
        assert [line["text"] for line in lines] == [line["n"] for line in lines] == [str(n) for n in range(count - 11, count + 1)]
        assert all(not line["cut"] and line["lines"] == 1 for line in lines), lines
        assert all(not re.search(r"\d", line["said"]) for line in lines), lines  # no card numbers: only cells have digits
        assert lines[-1]["cards"] == 1 and all(line["cards"] == 0 for line in lines[:-1])  # the card laid, drawn
        said = "сброс" if viewport == "ru" else "discarded"
        expect(shown.locator("#moves li").nth(0)).to_contain_text(said)
        shown.screenshot(path=str(shots / name), full_page=viewport is not None)
        if shown is not page:
            shown.close()


def test_2v2_with_bots_and_a_person_and_toddler_for_four(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    bot = ("bot", 4)  # the greedy bot at 1.25 s a card
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
    # The bots play: the first after its reaction time, later on a machine busy with other tests.
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
