"""The new-game forms in a real browser (Playwright driving Debian's Chromium): each shows the
options of the chosen variant only, changing the variant shows its own, and what is sent starts
the game asked for."""

from __future__ import annotations

from typing import Any

import pytest

from .serving import CHROMIUM, call
from .test_browser import new_page, playwright_api

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
    pytest.mark.slow,
]
expect = playwright_api.expect

OMNY = ["variant", "size", "sides", "shape", "cells", "stars", "komi", "pie", "komi_choice"]
OMNY_SHOWN = {
    "y": {"variant", "size", "komi", "pie", "komi_choice"},
    "sunder": {"variant", "size", "komi", "pie", "komi_choice"},
    "gyre": {"variant", "size", "komi", "pie", "komi_choice"},
    "free-y": {"variant", "sides", "komi", "pie", "komi_choice"},
    "custom": set(OMNY),
}
OMIGA = ["variant", "width", "height", "turning", "seed", "players", "form", "target", "pace", "cards"]
OMIGA_SHOWN = {  # the seed for zen only: a table against someone is dealt from the server's secret seed
    "base": {"variant", "width", "height", "turning", "cards"},
    "2v2": {"variant", "width", "height", "turning", "target", "cards"},
    "kids": {"variant", "width", "height", "turning", "pace", "cards"},
    "toddler": {"variant", "width", "height", "turning", "players", "cards"},
    "zen": {"variant", "turning", "seed", "form"},
}


def shown(page: Any, names: list[str]) -> set[str]:
    """The options whose fields the form shows now."""
    return {name for name in names if page.locator(f'.field[data-option="{name}"]').is_visible()}


def game_of(page: Any) -> dict[str, Any]:
    """The game the page shows, as the API describes it."""
    expect(page.locator("#link-state")).to_have_text("live")
    return call(page.url.split("/g/")[0], "/api/games/" + page.url.rsplit("/", 1)[-1].split("#")[0])[1]


def test_omny_shows_the_options_of_the_chosen_variant(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/new/omny")
    assert shown(page, OMNY) == OMNY_SHOWN["y"]  # the default variant
    for variant in ("sunder", "free-y", "custom", "gyre", "y"):
        page.select_option("#opt_variant", variant)
        assert shown(page, OMNY) == OMNY_SHOWN[variant], variant
    # Fields filled for another variant and left behind are not sent: y starts as asked.
    page.select_option("#opt_variant", "custom")
    page.select_option("#opt_shape", "rhombus")
    page.fill("#opt_stars", "corners")
    page.select_option("#opt_variant", "y")
    page.fill("#opt_size", "5")
    page.click("button[type=submit]")
    options = game_of(page)["options"]
    assert options["variant"] == "y" and options["size"] == 5 and options["shape"] is None and options["stars"] is None
    page.context.close()


def test_free_y_and_custom_start_from_the_form(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/new/omny")
    page.select_option("#opt_variant", "free-y")
    page.fill("#opt_sides", "3,4")
    page.click("button[type=submit]")
    assert game_of(page)["options"]["sides"] == [3, 4]
    page.goto(f"{server}/new/omny")
    page.select_option("#opt_variant", "custom")
    page.select_option("#opt_shape", "triangle")
    page.fill("#opt_size", "4")
    page.fill("#opt_stars", "corners")
    page.click("button[type=submit]")
    options = game_of(page)["options"]
    assert (options["shape"], options["size"], options["stars"]) == ("triangle", 4, "corners")
    page.context.close()


@pytest.mark.parametrize(
    ("game", "names", "filled", "expected"),
    [
        ("oddy", ["sides", "size", "board", "pie"], {"sides": "5", "size": "3"}, {"sides": 5, "size": 3, "board": "polar"}),
        ("omega", ["players", "size", "pie", "match"], {"players": "3", "size": "4"}, {"players": 3, "size": 4}),
        ("onyx", ["pie"], {"pie": "true"}, {"pie": True}),
    ],
)
def test_games_without_variants_show_every_option(browser: Any, server: str, game: str, names: list[str],
                                                  filled: dict[str, str], expected: dict[str, Any]) -> None:
    page = new_page(browser)
    page.goto(f"{server}/new/{game}")
    assert shown(page, names) == set(names)
    assert page.locator(".field[data-option]").count() == len(names)
    for name, value in filled.items():
        field = page.locator(f"#opt_{name}")
        if field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.click("button[type=submit]")
    options = game_of(page)["options"]
    assert {name: options[name] for name in expected} == expected
    page.context.close()


def test_omiga_shows_the_options_of_the_chosen_mode(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/new/omiga")
    assert shown(page, OMIGA) == OMIGA_SHOWN["base"]
    for variant in ("2v2", "kids", "toddler", "zen", "base"):
        page.select_option("#opt_variant", variant)
        assert shown(page, OMIGA) == OMIGA_SHOWN[variant], variant
    page.select_option("#opt_variant", "toddler")
    page.fill("#opt_players", "3")
    expect(page.locator(".seat-row:visible")).to_have_count(3)
    page.select_option("#opt_variant", "zen")  # the toddler's player count stays behind
    page.click("button[type=submit]")
    expect(page.locator("#zen-progress")).to_be_visible()
    table = call(server, "/api/omiga/" + page.url.rsplit("/", 1)[-1].split("#")[0])[1]
    assert table["options"]["variant"] == "zen" and table["options"]["players"] == 1
    page.context.close()
