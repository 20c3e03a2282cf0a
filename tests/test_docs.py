"""The rules pages in docs/rules/ cannot silently fall behind the code: every game has a page that
the README links, every option and variant of a game is named on its page, the links inside the
pages resolve, nothing points outside the repository, and the drawings on the pages are the ones
the program makes today."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

import ogames
from ogames.cli.describe import rules_index, rules_page
from ogames.cli.render import render_state
from ogames.rules import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
README = (ROOT / "README.md").read_text(encoding="utf-8")
GAMES = {g["name"]: g for g in ogames.games()}


def page(name: str) -> str:
    return (RULES / f"{name}.md").read_text(encoding="utf-8")


def code_blocks(text: str) -> list[list[str]]:
    """The fenced blocks of a page, each as its lines without trailing blanks."""
    return [[line.rstrip() for line in block.splitlines()] for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S)]


def drawing(state) -> list[str]:
    console = Console(width=200, color_system=None, record=True)
    console.print(render_state(state))
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_every_game_has_a_page_linked_from_the_readme_and_the_index() -> None:
    index = (RULES / "README.md").read_text(encoding="utf-8")
    assert "docs/rules/README.md" in README
    for name in REGISTRY:
        assert (RULES / f"{name}.md").is_file(), f"docs/rules/{name}.md is missing"
        assert f"(docs/rules/{name}.md)" in README, f"README does not link docs/rules/{name}.md"
        assert f"({name}.md)" in index
        assert Path(rules_page(name)).is_file()  # what `ogames play GAME --help` points to
    assert Path(rules_index()).is_file()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_option_and_variant_is_named_on_the_games_page(name: str) -> None:
    text = page(name)
    for option in GAMES[name]["options"]:
        assert f"`{option['name']}`" in text, f"option {option['name']!r} of {name} is not on docs/rules/{name}.md"
        for choice in option.get("choices", ()):
            assert f"`{choice}`" in text, f"{option['name']}={choice} of {name} is not on docs/rules/{name}.md"
    for variant in GAMES[name]["variants"]:
        assert f"`{variant}`" in text


TRANSLATED = sorted(path.stem for path in (RULES / "ru").glob("*.md"))


@pytest.mark.parametrize("name", TRANSLATED)
def test_a_translated_page_keeps_the_options_drawings_and_headings_of_the_english_one(name: str) -> None:
    """docs/rules/ru/GAME.md names the same options and variants, shows the same drawings and
    commands (the program's output is not translated), has the same heading structure and the
    same pictures as docs/rules/GAME.md, and its links resolve from its own folder."""
    english, russian = page(name), (RULES / "ru" / f"{name}.md").read_text(encoding="utf-8")
    for option in GAMES[name]["options"]:
        assert f"`{option['name']}`" in russian, f"option {option['name']!r} is not on docs/rules/ru/{name}.md"
        for choice in option.get("choices", ()):
            assert f"`{choice}`" in russian, f"{option['name']}={choice} is not on docs/rules/ru/{name}.md"
    assert code_blocks(russian) == code_blocks(english)
    levels = [re.findall(r"^(#+) ", text, re.M) for text in (english, russian)]
    assert levels[0] == levels[1], "the headings differ in number or level"
    pictures = [re.findall(r"\]\((?:\.\./)+(images/[^)]+)\)", text) for text in (english, russian)]
    assert pictures[0] == pictures[1]
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", russian):
        if not target.startswith("https://"):
            assert (RULES / "ru" / target).resolve().is_file(), f"docs/rules/ru/{name}.md links to {target}: not there"


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCED = re.compile(r"^```.*?^```", re.S | re.M)


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated heading numbered -1, -2 …"""
    found: set[str] = set()
    times: dict[str, int] = {}
    for heading in re.findall(r"^#+ +(.+?) *#*$", FENCED.sub("", text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(f"{slug}-{times[slug]}" if slug in times else slug)
        times[slug] = times.get(slug, 0) + 1
    return found


def test_anchors_follow_githubs_rule() -> None:
    page = "# A map of the code\n## How it is built (`ogames.arena`)\n## Three- and four-player Omega's own ladder\n"
    assert anchors(page) == {
        "a-map-of-the-code",
        "how-it-is-built-ogamesarena",
        "three--and-four-player-omegas-own-ladder",
    }
    assert anchors("## Tests\n## Tests\n```\n# not a heading\n```\n") == {"tests", "tests-1"}


@pytest.mark.parametrize("path", PAGES, ids=lambda path: str(path.relative_to(ROOT)))
def test_links_resolve_and_nothing_points_outside_the_repository(path: Path) -> None:
    """Every relative link of the README and of every page in docs/ names a file or folder of the
    repository, and a link to a heading (`page.md#heading`) names a heading that page has."""
    text = path.read_text(encoding="utf-8")
    assert "shared/" not in text and "RULES.md" not in text, f"{path.name} points outside the project"
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", FENCED.sub("", text)):
        if "://" in target or target.startswith("mailto:"):
            continue
        linked = (path.parent / target).resolve() if target else path
        assert linked.exists(), f"{path.relative_to(ROOT)} links to {target}, which does not exist"
        assert ROOT in linked.parents or linked == ROOT, f"{path.relative_to(ROOT)} links outside the repository: {target}"
        if anchor and linked.suffix == ".md":
            headings = anchors(linked.read_text(encoding="utf-8"))
            assert anchor in headings, f"{path.relative_to(ROOT)} links to {target}#{anchor}: no such heading"


def test_pages_carry_drawings_and_fit_80_columns() -> None:
    for name in GAMES:
        blocks = code_blocks(page(name))
        assert blocks, f"docs/rules/{name}.md has no drawing"
        for block in blocks:
            assert all(len(line) <= 80 for line in block)


def test_project_decisions_are_written_down() -> None:
    omiga = " ".join(page("omiga").split())
    assert "drawn after three scoreless rounds in a row" in omiga
    assert "both play at the same time" in omiga  # kids is real time, as the booklet says
    # The card notations the program writes today, each explained: face codes, the owner letter of
    # the turn-based faces, and the half-circle drawing of the real-time faces.
    assert "left hue, right hue, top seam, bottom seam" in omiga
    assert "owner letter + face code" in omiga and "`wAA\\/`" in omiga
    assert "`◖` top-seam bottom-seam `◗`" in omiga and "red for A" in omiga


@pytest.mark.parametrize(
    ("name", "options", "moves"),
    [
        ("omny", {}, []),
        ("omny", {"size": 5}, ["c2", "b3", "b2", "c3", "d1", "a3", "a2", "a4", "d2"]),
        ("oddy", {}, []),
        ("oddy", {"sides": 5, "size": 3}, []),
        ("omega", {"size": 4}, ["d4 d2", "e4 e2", "f4 b4", "b6 b5", "c6 g3"]),
        ("onyx", {}, []),
    ],
)
def test_the_drawings_on_the_pages_are_the_programs(name: str, options: dict, moves: list[str]) -> None:
    state = ogames.load(name, **options).new_state(["ann", "bob"] if name == "omega" else None)
    for move in moves:
        state.play(move)
    drawn = drawing(state)
    for block in code_blocks(page(name)):
        if block == drawn[: len(block)] and len(block) >= 8:
            return
    pytest.fail(f"docs/rules/{name}.md no longer shows the program's drawing of {options or 'the default'} {moves}")
