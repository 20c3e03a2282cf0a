"""The rules pages in the web: one per game from the project's own docs/rules, shipped with the
package (and kept the same as docs/rules), with their pictures; the home page's pictures and lists."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

import ogames
from ogames.web import rulebook
from ogames.web.boards.pictures import SAMPLES, sample_svg

from .conftest import create

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import sync_rules  # noqa: E402  (the copying tool, to compare what it would ship)


def test_the_shipped_rules_are_the_same_as_docs_rules() -> None:
    want, have = sync_rules.wanted(), sync_rules.shipped()
    assert set(want) == set(have), "run tools/sync_rules.py: the shipped rules differ from docs/rules"
    for name in want:
        assert want[name] == have[name], f"{name} differs from docs: run tools/sync_rules.py"
    for game in rulebook.GAMES:  # what an installed package reads is that copy
        assert rulebook.markdown(game).encode("utf-8") == (ROOT / "docs" / "rules" / f"{game}.md").read_bytes()
    translations = [name for name in want if name.startswith("ru/")]
    assert translations, "the Russian pages (docs/rules/ru) are shipped too"
    for name in translations:
        game = name.removeprefix("ru/").removesuffix(".md")
        assert rulebook.translated(game, "ru")
        assert rulebook.markdown(game, "ru").encode("utf-8") == (ROOT / "docs" / "rules" / name).read_bytes()


def test_the_shipped_copy_follows_a_changed_translation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The drift check sees docs/rules/ru: a changed or a new Russian page is something to copy."""
    source = tmp_path / "rules"
    (source / "ru").mkdir(parents=True)
    (source / "omny.md").write_text("# Omny\n", encoding="utf-8")
    (source / "ru" / "omny.md").write_text("# Omny\n\n## Доска\n", encoding="utf-8")
    monkeypatch.setattr(sync_rules, "SOURCE", source)
    assert sync_rules.wanted() == {"omny.md": b"# Omny\n", "ru/omny.md": "# Omny\n\n## Доска\n".encode()}


def test_every_rules_page_shows_a_picture_from_docs_images() -> None:
    for game in rulebook.GAMES:
        pictures = sync_rules.pictures(rulebook.markdown(game))
        assert pictures, f"docs/rules/{game}.md shows no picture"
        for name in pictures:
            assert rulebook.picture(name) is not None


@pytest.mark.parametrize("game", rulebook.GAMES)
def test_every_game_has_its_rules_page(client: TestClient, game: str) -> None:
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200
    text = page.text
    assert f"Rules of {rulebook.title(game)}" in text
    assert '<h2 id="' in text  # headings carry anchors
    assert "<ol>" in text or "<table>" in text
    assert f'href="/new/{game}"' in text
    assert text.count('class="cell') > 5  # the sample position drawn by ogames.draw
    for source in re.findall(r'<img src="([^"]+)"', text):
        assert source.startswith("/rules/images/")
        shown = client.get(source)
        assert shown.status_code == 200 and shown.headers["content-type"] == "image/png"
        assert shown.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert re.findall(r'<img src="', text), "the rules page shows its picture"


def test_links_between_rules_pages_work_and_others_are_plain_text(client: TestClient) -> None:
    omega = client.get("/rules/omega").text
    assert 'href="/rules/omny#the-board-and-its-cell-names"' in omega
    assert 'id="the-board-and-its-cell-names"' in client.get("/rules/omny").text
    omiga = client.get("/rules/omiga").text
    assert "zen-forms.md" not in omiga  # a page of the docs the server does not serve: no dead link


def test_raw_html_in_the_markdown_is_shown_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    hostile = "# T\n\n<script>alert(1)</script> ![x](../images/a.png) [y](../secret.md)"
    rulebook.html.cache_clear()
    monkeypatch.setattr(rulebook, "markdown", lambda game, language="en": hostile)
    try:
        shown = rulebook.html("omny")
    finally:
        rulebook.html.cache_clear()
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert 'src="/rules/images/a.png"' in shown
    assert "secret" not in shown and "<a " not in shown and " y" in shown  # the link's words stay


def test_rules_pages_refuse_what_is_not_there(client: TestClient) -> None:
    assert client.get("/rules/chess").status_code == 404
    for name in ("../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "nothing.png", "x.exe", "README.md"):
        assert client.get(f"/rules/images/{name}").status_code == 404
    assert rulebook.picture("../omny.md") is None


def test_the_home_page_has_a_picture_summary_and_links_per_game(client: TestClient) -> None:
    text = client.get("/").text
    for game in ogames.games():
        card = text.split(f'data-game="{game["name"]}"', 1)[1].split("</li>", 1)[0]
        assert card.count("<svg") == 1 and 'class="cell' in card
        assert f'href="/rules/{game["name"]}"' in card and f'href="/new/{game["name"]}"' in card
    russian = client.get("/?lang=ru").text
    assert "звёздных клеток" in russian and "Правила" in russian


def test_every_game_has_a_sample_picture() -> None:
    assert set(SAMPLES) == {game["name"] for game in ogames.games()}
    for game in SAMPLES:
        svg = sample_svg(game)
        assert svg.startswith("<svg") and "data-stone" in svg, game


def test_home_lists_open_playing_and_finished_games(client: TestClient) -> None:
    assert "Open games" not in client.get("/").text  # nothing waiting: no list at all
    playing, _ = create(client)
    finished, tokens = create(client)
    for ply, move in enumerate(["a1", "b1", "a2", "c1", "a3"]):
        client.post(f"/api/games/{finished}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
    store = client.app.state.store
    waiting, _ = create(client, seats=["here", "open"])  # a seat anyone may take
    assert [row["id"] for row in store.open_games()] == [waiting]
    assert [row["id"] for row in store.finished_games()] == [finished]
    text = client.get("/").text
    open_part = text.split('class="open-games"', 1)[1].split("</section>", 1)[0]
    playing_part = text.split('class="playing"', 1)[1].split("</section>", 1)[0]
    finished_part = text.split('class="finished"', 1)[1].split("</section>", 1)[0]
    assert f"/g/{waiting}" in open_part and "Join" in open_part
    assert f"/g/{playing}" in playing_part and f"/g/{finished}" not in playing_part
    assert f'href="/g/{finished}/replay"' in finished_part and "Black won" in finished_part


TRANSLATED = [game for game in rulebook.GAMES if (ROOT / "docs" / "rules" / "ru" / f"{game}.md").is_file()]


@pytest.mark.parametrize("game", TRANSLATED)
def test_a_translated_rules_page_is_shown_in_russian(client: TestClient, game: str) -> None:
    page = client.get(f"/rules/{game}?lang=ru")
    assert page.status_code == 200
    text = page.text
    russian_heading = re.search(r"^## (.+)$", rulebook.markdown(game, "ru"), re.M)
    assert russian_heading and re.search("[а-я]", russian_heading.group(1))
    assert f">{russian_heading.group(1)}</h2>" in text
    assert "только на английском" not in text  # no fallback note
    assert '<div class="rules-text" lang="ru">' in text
    assert f"Правила: {rulebook.title(game, 'ru')}" in text
    for source in re.findall(r'<img src="([^"]+)"', text):
        assert client.get(source).status_code == 200  # ../../images/ pictures are served
    english = client.get(f"/rules/{game}?lang=en").text
    assert russian_heading.group(1) not in english and "Rules of" in english


@pytest.mark.parametrize("game", rulebook.GAMES)
def test_an_untranslated_rules_page_falls_back_to_english_with_a_note(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """Every game's page is translated today; the fallback is for the next game or language, so
    each game is shown as if its translation were missing."""
    monkeypatch.setattr(rulebook, "translated", lambda game, language: False)
    text = client.get(f"/rules/{game}?lang=ru").text
    assert "только на английском" in text
    assert '<div class="rules-text" lang="en">' in text
    assert rulebook.html(game) in text  # the English text itself


def test_links_between_russian_rules_pages_land_on_their_headings(client: TestClient) -> None:
    """A Russian page's link to another game's page keeps the reader in Russian; its anchor is a
    heading there (in Russian if that page is translated, else in English)."""
    found = 0
    for game in TRANSLATED:
        text = client.get(f"/rules/{game}?lang=ru").text
        for target, anchor in re.findall(r'href="/rules/(omny|oddy|omega|onyx|omiga)(?:#([^"]*))?"', text):
            found += 1
            if anchor:
                shown = client.get(f"/rules/{target}?lang=ru").text
                assert f'id="{unquote(anchor)}"' in shown, f"{game} links to a missing heading {target}#{anchor}"
    assert found


def test_an_unknown_language_is_refused_by_the_rulebook() -> None:
    assert not rulebook.translated("omny", "xx") and not rulebook.translated("chess", "ru")
    with pytest.raises(KeyError):
        rulebook.markdown("omny", "xx")
