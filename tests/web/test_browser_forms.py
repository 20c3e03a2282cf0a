"""The new-game forms in a real browser (Playwright driving Debian's Chromium): each shows the
options of the chosen variant only, changing the variant shows its own, and what is sent starts
the game asked for. The games, variants and options come from the registry (`ogames.games()`),
so a new one is checked here as soon as it is offered."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance.cases import CASES, Case, registry, variant_of, variants_of
from ogames.web.core.common import FORM_VARIANTS

from .serving import call
from .test_board_browser import fill_options, form_values
from .test_browser import expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py

# What each variant's form shows, from the registry (`ogames.games()`): the options that apply to
# it, and those the web form keeps to some variants although the rules take them for every one.
def options_of(game: str) -> list[str]:
    return [option["name"] for option in registry()[game]["options"]]


def shown_for(game: str, variant: str | None) -> set[str]:
    """The options a game's form shows for a variant (None: a game without variants shows all)."""
    return {
        option["name"]
        for option in registry()[game]["options"]
        if variant is None or variant in (option.get("applies_to") or FORM_VARIANTS.get((game, option["name"])) or [variant])
    }


WITH_VARIANTS = [name for name, described in registry().items() if described["variants"]]
WITHOUT_VARIANTS = [name for name, described in registry().items() if not described["variants"]]


def telling_case(game: str) -> Case:
    """The game's conformance case that sets the most options (what the form is filled with)."""
    return max((case for case in CASES if case.game == game), key=lambda case: len(case.options))


def shown(page: Any, names: list[str]) -> set[str]:
    """The options whose fields the form shows now."""
    return {name for name in names if page.locator(f'.field[data-option="{name}"]').is_visible()}


def game_of(page: Any) -> dict[str, Any]:
    """The game the page shows, as the API describes it."""
    expect(page.locator("#link-state")).to_have_text("live")
    return call(page.url.split("/g/")[0], "/api/games/" + page.url.rsplit("/", 1)[-1].split("#")[0])[1]


@pytest.mark.parametrize("game", WITH_VARIANTS)
def test_each_variant_shows_its_own_options(browser: Any, server: str, game: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/new/{game}")
    names = options_of(game)
    first = variant_of(game, {})
    assert shown(page, names) == shown_for(game, first)  # the default variant
    for variant in [*(v for v in variants_of(game) if v != first), first]:
        page.select_option("#opt_variant", variant)
        assert shown(page, names) == shown_for(game, variant), variant
    page.context.close()


def test_omny_fields_left_behind_by_another_variant_are_not_sent(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/new/omny")
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


@pytest.mark.parametrize("game", WITHOUT_VARIANTS)
def test_games_without_variants_show_every_option_and_start_as_filled(browser: Any, server: str, game: str) -> None:
    case = telling_case(game)
    page = new_page(browser)
    page.goto(f"{server}/new/{game}")
    names = options_of(game)
    assert shown(page, names) == shown_for(game, None) == set(names)
    assert page.locator(".field[data-option]").count() == len(names)
    fill_options(page, form_values(case.options))
    page.click("button[type=submit]")
    options = game_of(page)["options"]
    assert options == json.loads(json.dumps(case.load().jsonable_options())), case.id
    page.context.close()


def test_omiga_seats_follow_the_toddlers_players_and_zen_is_played_alone(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/new/omiga")
    page.select_option("#opt_variant", "toddler")
    page.fill("#opt_players", "3")
    expect(page.locator(".seat-row:visible")).to_have_count(3)
    page.select_option("#opt_variant", "zen")  # the toddler's player count stays behind
    page.click("button[type=submit]")
    expect(page.locator("#zen-progress")).to_be_visible()
    table = call(server, "/api/omiga/" + page.url.rsplit("/", 1)[-1].split("#")[0])[1]
    assert table["options"]["variant"] == "zen" and table["options"]["players"] == 1
    page.context.close()
