"""My games and the archive in Chromium: a guest's games listed waiting-for-my-move first (the
least days left first), then going on, then over; the archive's search form finds the finished
one with its replay, JSON and SGF links; both pages on a phone in Russian (screenshots).

The server runs as `ogames serve` in its own process (fixtures `server`, `browser` in conftest.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .test_browser import expect, new_page, pytestmark
from .test_browser_phone import phone

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py


def made(page: Any, server: str, **fields: Any) -> tuple[str, dict[str, str]]:
    """A correspondence game of this browser's guest against an invited friend (the page's own cookies)."""
    body = {"game": "omny", "options": {"variant": "y", "size": 4}, "seats": ["here", "invite"], **fields}
    answer = page.request.post(server + "/api/games", data=json.dumps(body), headers={"content-type": "application/json"})
    assert answer.status == 201, answer.text()
    game = answer.json()
    return game["id"], {**game["tokens"], **{seat: invited["token"] for seat, invited in game["invitations"].items()}}


def act(page: Any, server: str, path: str, body: dict[str, Any]) -> None:
    answer = page.request.post(server + path, data=json.dumps(body), headers={"content-type": "application/json"})
    assert answer.status == 200, answer.text()


def test_my_games_in_order_and_the_archive_search(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server + "/?lang=en")
    week, _ = made(page, server, days=7)
    over, over_tokens = made(page, server, days=3)
    moved, moved_tokens = made(page, server, days=2)
    day, _ = made(page, server, days=1)
    act(page, server, f"/api/games/{over}/resign", {"token": over_tokens["0"], "version": 0})
    act(page, server, f"/api/games/{moved}/moves", {"token": moved_tokens["0"], "version": 0, "move": "a1"})

    page.click(".places >> text=My games")
    expect(page).to_have_url(re.compile(r"/games/mine$"))
    listed = page.locator(".my-games li")
    expect(listed).to_have_count(4)
    assert [listed.nth(i).get_attribute("data-game") for i in range(4)] == [day, week, moved, over]
    assert [listed.nth(i).get_attribute("data-state") for i in range(4)] == ["waiting", "waiting", "going-on", "over"]
    expect(listed.nth(0).locator(".time-left")).to_have_text(re.compile(r"^2[0-3] h \d+ min left$"))
    expect(listed.nth(1).locator(".time-left")).to_have_text(re.compile(r"^6 d 2[0-3] h left$"))

    page.click("text=Search the archive of finished games")
    page.select_option("#game", "omny")
    page.select_option("#outcome", "resign")
    page.click("main button[type=submit]")
    expect(page).to_have_url(re.compile(r"/archive\?.*outcome=resign"))
    found = page.locator(f'.archive-games li[data-game="{over}"]')
    expect(found).to_have_count(1)
    for link in ("replay", "record.json", "record.sgf"):
        expect(found.locator(f'a[href="/g/{over}/{link}"]')).to_have_count(1)
    page.select_option("#outcome", "draw")
    page.click("main button[type=submit]")
    expect(page.locator(".archive-games li")).to_have_count(0)
    expect(page.locator("main")).to_contain_text("No finished game matches.")

    cookies = page.context.cookies()
    small = phone(browser)
    small.context.add_cookies(cookies)  # the same guest, on a phone, in Russian
    small.goto(server + "/games/mine?lang=ru")
    expect(small.locator("h1")).to_have_text("Мои партии")
    expect(small.locator(".my-games li").first.locator(".time-left")).to_contain_text("осталось")
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing wider than the phone
    small.screenshot(path=str(shots / "my-games-phone-ru.png"), full_page=True)
    small.goto(server + "/archive?outcome=resign")
    expect(small.locator(f'.archive-games li[data-game="{over}"]')).to_have_count(1)
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    small.screenshot(path=str(shots / "archive-phone-ru.png"), full_page=True)


def test_the_push_button_registers_the_service_worker(browser: Any, server: str) -> None:
    """As far as this machine goes: Chromium shows the button, registers the site's service worker
    at the root and asks its push service for a subscription; that service (Google's) is not
    reachable from here, so the page says the browser could not be subscribed — nothing more."""
    page = new_page(browser)
    page.context.grant_permissions(["notifications"], origin=server)
    page.goto(server + "/games/mine?lang=en")
    button = page.locator("#push-subscribe")
    expect(button).to_be_visible()
    button.click()
    said = page.locator("#push-state")
    expect(said).to_have_text(re.compile(r"could not be subscribed|will say when it is your move"), timeout=60_000)
    scope = page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => r ? r.scope : null)")
    assert scope == server + "/"
