"""The server's pages: the games, a form per game made from its options, the game page, the
language switch, and the `ogames serve` command."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import ogames
from ogames.web import i18n, option_help
from ogames.web.core.common import options_text, script_json

from .conftest import create


class Fields(HTMLParser):
    """The form controls of a page by name, with their attributes (and a select's options)."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: dict[str, dict[str, str | None]] = {}
        self.options: dict[str, list[tuple[str, bool]]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("input", "select", "textarea") and values.get("name"):
            self.controls[values["name"]] = values
            if tag == "select":
                self._select = values["name"]
                self.options[self._select] = []
        elif tag == "option" and self._select:
            self.options[self._select].append((values.get("value") or "", "selected" in values))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def fields_of(html: str) -> Fields:
    parser = Fields()
    parser.feed(html)
    return parser


def test_the_home_page_lists_the_five_games(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for game in ogames.games():
        assert f'href="/new/{game["name"]}"' in page.text
        assert game["title"] in page.text
    assert "No games yet." in page.text
    game_id, _ = create(client)
    assert f'href="/g/{game_id}"' in client.get("/").text


@pytest.mark.parametrize("game", ogames.games(), ids=lambda game: game["name"])
def test_every_option_of_every_game_is_in_its_form(client: TestClient, game: dict) -> None:
    page = client.get(f"/new/{game['name']}")
    assert page.status_code == 200
    form = fields_of(page.text)
    for option in game["options"]:
        control = form.controls[f"opt_{option['name']}"]
        if option["kind"] in ("int", "half"):
            if option.get("minimum") is not None:
                assert float(control["min"]) == option["minimum"]
            if option.get("maximum") is not None:
                assert float(control["max"]) == option["maximum"]
            shown = control["value"]
            assert shown == ("" if option["default"] is None else str(option["default"]))
        elif option["kind"] == "bool":
            chosen = [value for value, selected in form.options[f"opt_{option['name']}"] if selected]
            assert chosen == ["true" if option["default"] else "false"]
        elif option["kind"] == "choice":
            values = [value for value, _ in form.options[f"opt_{option['name']}"]]
            assert [v for v in values if v] == [str(choice) for choice in option["choices"]]
            chosen = [value for value, selected in form.options[f"opt_{option['name']}"] if selected]
            assert chosen == ([] if option["default"] is None else [str(option["default"])])
        assert option["help"].split(" (")[0][:30] in page.text.replace("&#39;", "'")
    if game["name"] == "omiga":
        assert {"seat0_kind", "seat0_level"} <= set(form.controls) and 'type="submit"' in page.text
    else:
        assert {"mode", "seat", "level"} <= set(form.controls)


def test_the_form_creates_a_game_and_hands_the_tokens_over_in_the_fragment(client: TestClient) -> None:
    form = {"opt_variant": "y", "opt_size": "4", "opt_komi": "0", "opt_pie": "true", "opt_komi_choice": "false"}
    form["mode"] = "hotseat"
    response = client.post("/new/omny", data=form, follow_redirects=False)
    assert response.status_code == 303
    match = re.fullmatch(r"/g/([\w-]+)#seats=0\.([\w-]{43}),1\.([\w-]{43})", response.headers["location"])
    assert match
    game_id, first, second = match.groups()
    view = client.get(f"/api/games/{game_id}").json()
    assert view["options"]["size"] == 4 and view["options"]["pie"] is True
    # The tokens from the fragment hold the seats.
    moved = client.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": first, "version": 0})
    assert moved.status_code == 200
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200 and first not in page.text and second not in page.text
    assert 'data-cell="a1"' in page.text and 'id="view"' in page.text


def test_the_form_leaves_out_options_of_other_variants_and_empty_ones(client: TestClient) -> None:
    form = {"opt_variant": "zen", "opt_width": "9", "opt_form": "", "opt_turning": "true", "opt_seed": ""}
    response = client.post("/new/omiga", data=form, follow_redirects=False)
    # Zen takes no width (the field belongs to other modes) and an empty form means the default one.
    assert response.status_code == 303
    table_id = response.headers["location"].split("#")[0].rsplit("/", 1)[1]
    options = client.get(f"/api/omiga/{table_id}").json()["options"]
    assert options["variant"] == "zen" and options["form"] == "fly" and "width" not in options


@pytest.mark.parametrize(
    ("variant", "given", "kept"),
    [
        ("y", {"size": "4", "sides": "5,6", "shape": "rhombus", "cells": "a1 b1", "stars": "all"}, {"size": 4}),
        ("free-y", {"size": "4", "sides": "3,4", "shape": "rhombus", "stars": "all"}, {"sides": [3, 4]}),
        ("sunder", {"size": "3", "sides": "5,6", "cells": "a1 b1"}, {"size": 3}),
        ("custom", {"shape": "rhombus", "size": "3", "stars": "corners"}, {"shape": "rhombus", "size": 3, "stars": "corners"}),
    ],
)
def test_a_form_without_its_script_sends_every_field_and_only_the_variants_count(
    client: TestClient, variant: str, given: dict[str, str], kept: dict[str, object]
) -> None:
    """A browser without the form's script sends the fields of every variant: those of other
    variants are ignored instead of refused."""
    form = {"opt_variant": variant, **{f"opt_{name}": value for name, value in given.items()}, "mode": "hotseat"}
    response = client.post("/new/omny", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    game_id = response.headers["location"].split("#")[0].rsplit("/", 1)[1]
    options = client.get(f"/api/games/{game_id}").json()["options"]
    assert options["variant"] == variant
    assert {name: options[name] for name in kept} == kept
    for name in set(given) - set(kept):
        assert options.get(name) is None, name  # not of this variant (or not with this shape)


def test_omiga_players_count_only_for_toddler_in_the_form(client: TestClient) -> None:
    base = client.post("/new/omiga", data={"opt_variant": "base", "opt_players": "4", "seat0_kind": "here", "seat1_kind": "bot"},
                       follow_redirects=False)
    assert base.status_code == 303, base.text  # base has two players: the toddler field is ignored, not refused
    table_id = base.headers["location"].split("#")[0].rsplit("/", 1)[1]
    assert client.get(f"/api/omiga/{table_id}").json()["options"]["players"] == 2
    page = fields_of(client.get("/new/omiga").text)
    assert "opt_players" in page.controls
    assert 'data-option="players" data-applies-to="toddler"' in client.get("/new/omiga").text


def test_a_bad_option_shows_the_form_again_with_the_reason(client: TestClient) -> None:
    response = client.post("/new/oddy", data={"opt_sides": "4", "opt_size": "5", "mode": "ai", "seat": "2", "level": "8"})
    assert response.status_code == 400
    assert 'role="alert"' in response.text and "sides" in response.text
    form = fields_of(response.text)
    assert form.controls["opt_sides"]["value"] == "4"  # what was typed is kept
    assert [value for value, selected in form.options["seat"] if selected] == ["2"]
    assert [value for value, selected in form.options["level"] if selected] == ["8"]
    bad_seat = client.post("/new/oddy", data={"mode": "ai", "seat": "x"})
    assert bad_seat.status_code == 400 and "seat" in bad_seat.text


@pytest.mark.parametrize("path", ["/new/omny", "/new/omiga"])
def test_a_malformed_or_invalid_form_is_shown_again_saying_why_and_makes_no_game(client: TestClient, path: str) -> None:
    before = client.get("/api/open-games").json()
    too_many = client.post(path, data={f"field{n}": "x" for n in range(61)}, follow_redirects=False)
    assert too_many.status_code == 400 and 'role="alert"' in too_many.text and "fields" in too_many.text
    invalid = client.post(path, data={"opt_variant": "nonesuch"}, follow_redirects=False)
    assert invalid.status_code == 400 and 'role="alert"' in invalid.text and "variant" in invalid.text
    assert client.get("/api/open-games").json() == before


def test_a_game_against_the_computer_from_the_form(client: TestClient) -> None:
    form = {"opt_pie": "false", "mode": "ai", "seat": "1", "level": "7"}
    response = client.post("/new/onyx", data=form, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    assert re.fullmatch(r"/g/[\w-]+#seats=0\.[\w-]{43}", location)  # only the person's seat
    view = client.get("/api/games/" + location.split("/")[2].split("#")[0]).json()
    assert view["seats"][1]["computer"] and not view["seats"][0]["computer"]
    assert (view["seats"][1]["level"], view["seats"][1]["name"]) == (7, "computer (level 7)")
    # A page from before levels sends a name: read as its level.
    old = client.post("/new/onyx", data={**form, "level": "hard"}, follow_redirects=False)
    view = client.get("/api/games/" + old.headers["location"].split("/")[2].split("#")[0]).json()
    assert view["seats"][1]["level"] == 9


@pytest.mark.parametrize(
    ("language", "first", "last", "who"),
    [
        ("en", "1 · beginner", "10 · strongest", "computer, level 10 · strongest"),
        ("ru", "1 · новичок", "10 · сильнейший", "компьютер, уровень 10 · сильнейший"),
    ],
)
def test_the_forms_offer_the_levels_1_to_10(client: TestClient, language: str, first: str, last: str, who: str) -> None:
    page = client.get(f"/new/omny?lang={language}")
    form = fields_of(page.text)
    assert [value for value, _ in form.options["level"]] == [str(n) for n in range(1, 11)]
    assert [value for value, selected in form.options["level"] if selected] == ["5"]  # the default
    assert first in page.text and last in page.text
    seat_values = [value for value, _ in form.options["who_2"]]
    assert seat_values == ["here", "invite", "open"] + [f"computer:{n}" for n in range(1, 11)]
    assert who in page.text
    omiga = fields_of(client.get(f"/new/omiga?lang={language}").text)
    assert [value for value, _ in omiga.options["seat1_level"]] == [str(n) for n in range(1, 11)]
    assert [value for value, selected in omiga.options["seat1_level"] if selected] == ["5"]


def test_a_form_with_a_level_out_of_range_is_refused(client: TestClient) -> None:
    for level in ("0", "11", "x"):
        response = client.post("/new/omny", data={"mode": "ai", "seat": "1", "level": level})
        assert response.status_code == 400 and "level" in response.text and "Traceback" not in response.text
        omiga = {"opt_variant": "base", "seat0_kind": "here", "seat1_kind": "bot", "seat1_level": level}
        refused = client.post("/new/omiga", data=omiga)
        assert refused.status_code == 400 and "level" in refused.text


def test_unknown_pages_and_games(client: TestClient) -> None:
    assert client.get("/new/chess").status_code == 404
    missing = client.get("/g/nothing-here")
    assert missing.status_code == 404 and "no such game" in missing.text
    assert client.get("/g/nothing-here/record.json").status_code == 404
    assert client.get("/nowhere").status_code == 404


def test_pages_carry_security_headers(client: TestClient) -> None:
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"


def test_every_page_links_the_icon_that_is_served_where_browsers_look(client: TestClient) -> None:
    game_id, _ = create(client)
    for path in ("/", "/new/omny", "/new/omiga", "/rules/onyx", "/replay", f"/g/{game_id}", "/nowhere"):
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in client.get(path).text, path
    linked = client.get("/static/favicon.svg")
    asked = client.get("/favicon.ico")  # browsers ask for it whatever the page links
    assert linked.status_code == asked.status_code == 200
    assert asked.headers["content-type"] == "image/svg+xml" and asked.content == linked.content
    assert asked.content.startswith(b"<svg") and b"<script" not in asked.content


def test_the_language_switch(client: TestClient) -> None:
    english = client.get("/")
    assert "Finished games" in english.text and 'lang="en"' in english.text
    russian = client.get("/?lang=ru")
    assert "Законченные партии" in russian.text and 'lang="ru"' in russian.text
    assert russian.cookies.get("lang") == "ru"
    assert "Законченные партии" in client.get("/").text  # the cookie keeps the choice
    client.cookies.clear()
    assert "Законченные партии" in client.get("/", headers={"accept-language": "ru-RU,ru;q=0.9"}).text
    assert "Finished games" in client.get("/?lang=xx", headers={"accept-language": "de"}).text


def test_the_board_games_forms_speak_the_page_language(client: TestClient) -> None:
    russian = client.get("/new/omny?lang=ru").text
    assert '<label for="opt_komi_choice">выбор коми</label>' in russian
    assert '<label for="opt_size">размер</label>' in russian
    assert i18n.words("ru")["sum_omny"].split(".")[0] in russian
    english = client.get("/new/omny?lang=en").text
    assert '<label for="opt_komi_choice">komi choice</label>' in english  # as the command line names it
    assert '<label for="opt_board">' in client.get("/new/oddy?lang=en").text


def test_the_forms_option_help_is_in_the_page_language(client: TestClient) -> None:
    russian = client.get("/new/oddy?lang=ru").text
    assert html.escape(option_help.texts("ru")["oddy.sides"]) in russian
    assert "number of board sides" not in russian
    assert "number of board sides m (odd, 3 to 25)" in client.get("/new/oddy?lang=en").text  # the engine's own
    omiga = client.get("/new/omiga?lang=ru").text
    assert html.escape(option_help.texts("ru")["omiga.pace"]) in omiga and "table width in cards" not in omiga


def test_every_option_of_every_game_has_its_help_in_every_language() -> None:
    wanted = {f"{game['name']}.{option['name']}" for game in ogames.games() for option in game["options"]}
    for language in i18n.LANGUAGES:
        if language != i18n.DEFAULT:
            assert set(option_help.texts(language)) == wanted, language


def test_every_language_has_every_word() -> None:
    # (test_catalogue.py checks that every word has a translation: here, that they keep their fields)
    english = i18n.words(i18n.DEFAULT)
    for language in i18n.LANGUAGES:
        assert set(i18n.words(language)) == set(english), language
        for key, text in i18n.words(language).items():
            assert set(re.findall(r"{\w+}", text)) == set(re.findall(r"{\w+}", english[key])), key


def test_every_text_with_forms_by_number_has_one_for_each_plural_category() -> None:
    for language in i18n.LANGUAGES:
        words = i18n.words(language)
        categories = words["plural_forms"].split("|")
        for key, text in words.items():
            if "|" in text and key != "plural_forms":
                assert len(text.split("|")) == len(categories), (language, key)
        for n in range(0, 1000):  # every number falls in one of the language's categories
            assert i18n.plural_category(n, language) in categories


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", {0: "0 moves", 1: "1 move", 2: "2 moves", 5: "5 moves", 11: "11 moves", 21: "21 moves"}),
        ("ru", {0: "0 ходов", 1: "1 ход", 2: "2 хода", 5: "5 ходов", 11: "11 ходов", 12: "12 ходов", 21: "21 ход",
                22: "22 хода", 101: "101 ход", 111: "111 ходов", 114: "114 ходов", 124: "124 хода"}),
    ],
)
def test_a_count_of_moves_takes_the_form_of_its_number(language: str, expected: dict[int, str]) -> None:
    for n, text in expected.items():
        assert i18n.plural(n, i18n.words(language)["moves_n"], language) == text


def test_the_home_page_counts_moves_in_the_right_form(client: TestClient) -> None:
    one, tokens = create(client)
    client.post(f"/api/games/{one}/moves", json={"move": "a1", "token": tokens["0"], "version": 0})
    two, tokens = create(client)
    for version, (seat, cell) in enumerate([("0", "a1"), ("1", "b1")]):
        client.post(f"/api/games/{two}/moves", json={"move": cell, "token": tokens[seat], "version": version})
    english = client.get("/?lang=en").text
    assert '<td class="count">1 move</td>' in english and '<td class="count">2 moves</td>' in english
    assert "1 moves" not in english
    russian = client.get("/?lang=ru").text
    assert '<td class="count">1 ход</td>' in russian and '<td class="count">2 хода</td>' in russian


def test_page_data_cannot_close_its_script_tag() -> None:
    text = script_json({"name": "</script><script>alert(1)</script>", "x": "a & b"})
    assert "<" not in text and ">" not in text and "&" not in text
    import json

    assert json.loads(text)["name"].startswith("</script>")


def test_options_are_shown_in_the_forms_words() -> None:
    shown = options_text({"variant": "y", "size": 5, "stars": None, "pie": True, "komi_choice": False, "sides": [5, 6]})
    assert shown == "variant: y · size: 5 · pie: yes · komi choice: no · sides: 5,6"
    russian = options_text({"variant": "y", "size": 5, "pie": True}, "ru")
    assert russian == "вариант: Игрек · размер: 5 · правило пирога: да"


def test_serve_command_is_mounted_and_says_where_to_open() -> None:
    from ogames.cli.app import app
    from ogames.cli.serve import address

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for flag in ("--host", "--port", "--database"):
        assert flag in result.output
    assert address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert address("0.0.0.0", 80) == "http://127.0.0.1:80/"
    assert address("::1", 8000) == "http://[::1]:8000/"
    assert address("localhost", 8000) == "http://localhost:8000/"


def test_serve_refuses_a_database_it_cannot_open_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from ogames.cli.app import app as cli

    for url in ("bogus://x", f"sqlite:///{tmp_path}/file.txt/inside.db"):
        if "file.txt" in url:
            (tmp_path / "file.txt").write_text("a file, not a folder")
        result = CliRunner().invoke(cli, ["serve", "--database", url, "--port", "8199"])
        assert result.exit_code == 1, result.output
        assert "cannot use the database" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("lease", ["abc", "-1", "0", "inf", "nan"])
def test_serve_refuses_a_bad_bus_lease_in_one_line(lease: str, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ogames.cli.app import app as cli

    monkeypatch.setenv("OGAMES_BUS_LEASE", lease)
    result = CliRunner().invoke(cli, ["serve", "--database", f"sqlite:///{tmp_path}/g.sqlite3", "--port", "8199"])
    assert result.exit_code == 1 and "OGAMES_BUS_LEASE must be a positive number of seconds" in result.output
    assert "Traceback" not in result.output and "unexpected" not in result.output
