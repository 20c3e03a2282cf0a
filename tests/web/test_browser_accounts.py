"""Identity in Chromium: a guest plays at once (named in the page header), the page's own JSON
request (the analysis) carries its CSRF token and is answered, and a guest who signs up keeps the
guest's game — it is on the account's page and stays after logging out and in again.

The server runs as `ogames serve` in its own process (fixtures `server`, `browser` in conftest.py)."""

from __future__ import annotations

import re
from typing import Any

from .test_browser import expect, new_page, pytestmark, start_omny

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
ANSWER = 120_000  # ms: the first analysis starts the server's analysis worker on a loaded machine


def test_a_guest_plays_signs_up_and_keeps_the_game(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/?lang=en")
    guest = page.locator(".visitor-name")
    expect(guest).to_have_text(re.compile(r"^guest-[a-z]+-[a-z-]+$"))
    guest_name = guest.inner_text()

    start_omny(page, server, size=4)
    game_id = str(page.locator(".game").get_attribute("data-game-id"))
    page.click('[data-cell="a1"]')
    expect(page.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "black")
    # the analysis is a JSON POST of the page's script: with its token it is answered
    page.select_option("#seconds", "1")
    page.click("#analyse")
    expect(page.locator("#analysis .best-move")).to_be_visible(timeout=ANSWER)
    expect(page.locator("#message")).not_to_contain_text("security token")

    page.click(".visitor-name")
    expect(page.locator("h1")).to_have_text(guest_name)
    expect(page.locator(f'.my-games a[href="/g/{game_id}"]')).to_have_count(1)

    page.click("text=Sign up")
    page.fill("#name", "Ada_Lovelace")
    page.fill("#password", "analytical engine")
    page.fill("#again", "analytical engine")
    page.click("main button[type=submit]")
    expect(page).to_have_url(re.compile(r"/account$"))
    expect(page.locator(".visitor-name")).to_have_text("Ada_Lovelace")
    expect(page.locator(f'.my-games a[href="/g/{game_id}"]')).to_have_count(1)

    page.click("text=Log out")
    expect(page.locator(".visitor-name")).to_have_text(re.compile(r"^guest-"))
    page.goto(server + "/login")
    page.fill("#name", "ada_lovelace")  # any case
    page.fill("#password", "analytical engine")
    page.click("main button[type=submit]")
    expect(page.locator(".visitor-name")).to_have_text("Ada_Lovelace")
    expect(page.locator(f'.my-games a[href="/g/{game_id}"]')).to_have_count(1)
    page.click(f'.my-games a[href="/g/{game_id}"]')
    expect(page.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "black")
    page.context.close()
