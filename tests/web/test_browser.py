"""The web pages in a real browser (Playwright driving Debian's Chromium): the server runs as its
own process on a free loopback port, and the tests click cells as a person would.

Screenshots of every page go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder); the
fixtures (`server`, `browser`, `shots`) are in conftest.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .serving import CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
    pytest.mark.slow,
]
expect = playwright_api.expect
WIDE = {"width": 1100, "height": 760}
PHONE = {"width": 390, "height": 844}


def new_page(browser: Any, viewport: dict[str, int] = WIDE) -> Any:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(20_000)
    return context.new_page()


def start_omny(page: Any, server: str, size: int = 3, **who: str) -> None:
    """Fill the Omny form (variant y) and start the game; the page is live when this returns."""
    page.goto(server + "/new/omny")
    page.fill("#opt_size", str(size))
    if who.get("mode") == "ai":
        page.check("input[name=mode][value=ai]")
        page.select_option("#level", who.get("level", "3"))
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")


def test_hotseat_omny_from_first_click_to_result(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    start_omny(page, server)
    assert "#" not in page.url  # the tokens left the address bar for the browser's storage
    status = page.locator("#status")
    expect(status).to_contain_text("Black to move")
    page.click('[data-cell="a1"]')
    expect(page.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "black")
    expect(status).to_contain_text("White to move")
    # An illegal click: the server's reason is shown and nothing changes.
    page.click('[data-cell="a1"]')
    expect(page.locator("#message")).to_contain_text("a1 is occupied by black")
    expect(status).to_contain_text("White to move")
    expect(page.locator("#moves li")).to_have_count(1)
    for cell, colour in (("b1", "white"), ("a2", "black"), ("c1", "white")):
        page.click(f'[data-cell="{cell}"]')
        expect(page.locator(f'[data-cell="{cell}"]')).to_have_attribute("data-stone", colour)
    expect(page.locator("#message")).to_be_hidden()
    page.click('[data-cell="a3"]')
    expect(status).to_contain_text("Black won")
    expect(page.locator('[data-cell="a1"]')).to_have_attribute("data-winning", "true")
    expect(page.locator("#moves li")).to_have_count(5)
    expect(page.locator("#resign")).to_be_hidden()
    page.screenshot(path=str(shots / "web-hotseat-over.png"))
    # Reloaded, the page shows the same finished game (from the server, not from memory).
    page.reload()
    expect(page.locator("#status")).to_contain_text("Black won")
    page.context.close()


def test_against_the_computer_to_the_end(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    start_omny(page, server, size=4, mode="ai", level="7")
    expect(page.locator("#seats li").nth(1)).to_contain_text("computer (level 7)")
    page.click('[data-cell="b2"]')
    expect(page.locator(".thinking")).to_be_visible()
    expect(page.locator("#moves li")).to_have_count(2, timeout=60_000)
    expect(page.locator("#status")).to_contain_text("your turn")
    page.screenshot(path=str(shots / "web-game.png"))
    for _ in range(12):
        if page.locator("#status.result").count():
            break
        count = page.locator("#moves li").count()
        page.locator("[data-cell][data-legal]").first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('#moves li').length >= n + 2 || document.querySelector('#status.result')", arg=count
        )
    expect(page.locator("#status.result")).to_contain_text("won")
    page.context.close()


def test_resign_swap_and_the_record_download(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/new/omny")
    page.fill("#opt_size", "3")
    page.select_option("#opt_pie", "true")
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")
    page.click('[data-cell="b2"]')
    page.click("#specials button[data-move=swap]")
    expect(page.locator("#seats li").first).to_contain_text("White")
    with page.expect_download() as download:
        page.click("a[download]")
    path = download.value.path()
    import ogames

    assert [m["move"] for m in ogames.replay(Path(path).read_text()).record()["moves"]] == ["b2", "swap"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#status")).to_contain_text("resigned")
    page.context.close()


def test_a_watcher_sees_moves_but_cannot_make_them(browser: Any, server: str) -> None:
    player = new_page(browser)
    start_omny(player, server)
    watcher = new_page(browser)  # another browser context: no tokens
    watcher.goto(player.url)
    expect(watcher.locator("#link-state")).to_have_text("live")
    watcher.click('[data-cell="b2"]')
    expect(watcher.locator("#message")).to_contain_text("watching")
    expect(watcher.locator("#resign")).to_be_hidden()
    player.click('[data-cell="b2"]')
    expect(watcher.locator('[data-cell="b2"]')).to_have_attribute("data-stone", "black")
    player.context.close()
    watcher.context.close()


@pytest.mark.parametrize(("viewport", "name"), [(WIDE, "wide"), (PHONE, "phone")])
def test_pages_fit_the_screen(browser: Any, server: str, shots: Path, viewport: dict[str, int], name: str) -> None:
    page = new_page(browser, viewport)
    for path, title in (("/", "home"), ("/new/omny", "new-omny"), ("/new/omiga", "new-omiga"), ("/?lang=ru", "home-ru")):
        page.goto(server + path)
        page.screenshot(path=str(shots / f"web-{title}-{name}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], path
    expect(page.locator("h1").first).to_have_text("Игры")
    page.goto(server + "/?lang=en")  # back to English (the choice is kept in a cookie)
    start_omny(page, server, size=5)
    for cell in ("c3", "b2", "d1"):
        page.click(f'[data-cell="{cell}"]')
        expect(page.locator(f'[data-cell="{cell}"][data-stone]')).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(shots / f"web-game-{name}.png"), full_page=True)
    for game in ("oddy", "omega", "onyx"):
        page.goto(f"{server}/new/{game}")
        page.click("button[type=submit]")
        expect(page.locator("#link-state")).to_have_text("live")
        page.locator("[data-cell][data-legal]").first.click()
        expect(page.locator("#moves li")).to_have_count(1)
        page.screenshot(path=str(shots / f"web-{game}-{name}.png"), full_page=True)
    page.context.close()


def test_komi_choice_offers_its_values_in_one_menu(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/new/omny")
    page.select_option("#opt_variant", "sunder")
    page.fill("#opt_size", "3")
    page.select_option("#opt_komi_choice", "true")
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")
    options = page.locator("#komi-choice option")
    assert options.count() > 4 and options.first.get_attribute("value") == "komi=0"
    page.select_option("#komi-choice", "komi=1.5")
    # Views keep arriving while the menu is open (here: a second page on the game, which every
    # page is told of); each redraws the specials, and the komi picked must stay picked.
    watcher = new_page(browser)
    watcher.goto(page.url)
    expect(watcher.locator("#link-state")).to_have_text("live")
    page.wait_for_timeout(500)
    expect(page.locator("#komi-choice")).to_have_value("komi=1.5")
    watcher.context.close()
    page.click("#specials button")
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#moves li").first).to_contain_text("komi=1.5")
    expect(page.locator("#specials button[data-move=swap]")).to_be_visible()
    page.context.close()
