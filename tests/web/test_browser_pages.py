"""The pages beyond the board in a real browser (Playwright driving Debian's Chromium): the home
page's pictures, a rules page with its picture, a record uploaded and stepped through with the
slider and the arrow keys, the computer's analysis with its best move marked, and the Russian
pages. Screenshots go to $OGAMES_SCREENSHOTS when it is set."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import ogames

from .serving import call
from .test_browser import PHONE, WIDE, expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py


def finished_game(server: str, size: int = 4, seed: int = 2) -> str:
    """A hotseat Omny game played to its end through the JSON API; its id."""
    status, made = call(server, "/api/games", {"game": "omny", "options": {"variant": "y", "size": size}})
    assert status == 201, made
    rng = random.Random(seed)
    view = made["view"]
    while not view["over"]:
        token = made["tokens"][str(view["mover"])]
        status, view = call(server, f"/api/games/{made['id']}/moves",
                            {"move": rng.choice(view["legal"]), "token": token, "version": view["version"]})
        assert status == 200, view
    return made["id"]


def stones(page: Any) -> int:
    return page.locator("#board .cell[data-stone]").count()


def test_home_and_rules_pages_show_their_pictures(browser: Any, server: str, shots: Path) -> None:
    for viewport, name in ((WIDE, "wide"), (PHONE, "phone")):
        page = new_page(browser, viewport)
        page.goto(server + "/?lang=en")
        expect(page.locator(".card .picture svg")).to_have_count(5)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(shots / f"web-home-pictures-{name}.png"), full_page=True)
        page.locator('.card[data-game="omega"] a', has_text="Rules").click()
        expect(page.locator("h1")).to_have_text("Rules of Omega")
        page.screenshot(path=str(shots / f"web-rules-omega-{name}.png"))
        picture = page.locator(".rules-text img").first
        expect(picture).to_be_visible()
        picture.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=picture.element_handle())
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.click('a[href="/rules/omny#the-board-and-its-cell-names"]')
        expect(page.locator("#the-board-and-its-cell-names")).to_be_in_viewport()
        page.context.close()


def test_a_finished_game_stepped_through_and_analysed(browser: Any, server: str, shots: Path) -> None:
    game_id = finished_game(server)
    page = new_page(browser)
    page.goto(f"{server}/g/{game_id}")
    page.click(f'a[href="/g/{game_id}/replay"]')
    slider = page.locator("#slider")
    last = int(slider.get_attribute("max"))
    expect(slider).to_have_value(str(last))
    expect(page.locator("#where")).to_contain_text("won")
    assert stones(page) == last
    expect(page.locator(".replay[data-ready]")).to_have_count(1)  # its script listens
    page.keyboard.press("ArrowLeft")  # one move back
    expect(page.locator("#counter")).to_have_text(f"position {last - 1} of {last}")
    expect(page.locator("#board .cell[data-stone]")).to_have_count(last - 1)
    slider.fill("2")  # the slider
    expect(page.locator("#board .cell[data-stone]")).to_have_count(2)
    expect(page.locator('#moves [data-ply="2"]')).to_have_attribute("aria-current", "step")
    page.locator("body").press("ArrowRight")
    expect(page.locator("#board .cell[data-stone]")).to_have_count(3)
    page.click("#analyse")
    expect(page.locator(".analysis .best-move")).to_be_visible(timeout=60_000)
    best = page.locator(".analysis .best-move").get_attribute("data-move")
    record = call(server, f"/g/{game_id}/record.json")[1]
    assert best in ogames.replay(record, upto=3).legal_moves()
    expect(page.locator(f'#board .preview[data-cell="{best}"]')).to_have_count(1)  # the best move marked
    expect(page.locator(".analysis")).to_contain_text("chance to win")
    page.screenshot(path=str(shots / "web-analysis-wide.png"), full_page=True)
    page.click("#first")
    expect(page.locator("#board .cell[data-stone]")).to_have_count(0)
    expect(page.locator(".analysis")).to_be_hidden()  # the analysis was of another position
    page.context.close()


def test_an_uploaded_record_replays_and_a_corrupt_one_is_refused(browser: Any, server: str, shots: Path,
                                                                 tmp_path: Path) -> None:
    record = call(server, f"/g/{finished_game(server, size=5, seed=7)}/record.json")[1]
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "game": "chess"}))
    for viewport, name in ((WIDE, "wide"), (PHONE, "phone")):
        page = new_page(browser, viewport)
        page.goto(server + "/replay?lang=en")
        page.set_input_files("#record", str(bad))
        page.click("form.upload button[type=submit]")
        expect(page.locator(".problem")).to_contain_text("chess")
        page.set_input_files("#record", str(good))
        page.click("form.upload button[type=submit]")
        moves = len(record["moves"])
        expect(page.locator("#slider")).to_have_value(str(moves))
        expect(page.locator(".replay[data-ready]")).to_have_count(1)  # its script listens: a click now counts
        page.click("#previous")
        expect(page.locator("#counter")).to_have_text(f"position {moves - 1} of {moves}")
        page.locator("#slider").fill(str(moves // 2))
        expect(page.locator("#board .cell[data-stone]")).to_have_count(moves // 2)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(shots / f"web-replay-{name}.png"), full_page=True)
        page.context.close()


def test_the_russian_pages(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, PHONE)
    page.goto(server + "/?lang=ru")
    expect(page.locator(".card .summary").first).to_contain_text("звёздных клеток")
    page.goto(server + "/rules/omega")  # translated: the Russian text, no "only in English" note
    expect(page.locator("h1")).to_have_text("Правила: Omega")
    expect(page.locator(".rules-text h2").first).to_have_text("Доска")
    expect(page.locator(".rules-intro .note")).to_have_count(0)
    page.locator(".rules-text a", has_text="Omny").click()  # to the Russian Omny page's heading
    expect(page.locator("#доска-и-имена-клеток")).to_be_in_viewport()
    page.screenshot(path=str(shots / "web-rules-ru-phone.png"))
    page.goto(server + "/replay")
    expect(page.locator("h1")).to_have_text("Просмотр записи партии")
    page.goto(f"{server}/g/{finished_game(server, size=3, seed=1)}/replay")
    expect(page.locator("#analyse")).to_have_text("Анализировать позицию")
    page.screenshot(path=str(shots / "web-replay-ru-phone.png"), full_page=True)
    page.context.close()
