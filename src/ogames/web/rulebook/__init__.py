"""The rules pages of the five games as the web server shows them (/rules/GAME).

The markdown here is a copy of the project's docs/rules/*.md (and the pictures they show), shipped
as package data so that an installed wheel has it; docs/rules is the one source
(`tools/sync_rules.py` copies it, and a test fails while the two differ). Pages are rendered with
markdown-it-py: headings get ids (so `omny.md#the-board-and-its-cell-names` links work), links to
another rules page go to its web page, pictures to /rules/images/, and raw HTML in the markdown is
shown as text, never run.

Some games' pages are translated: docs/rules/ru/GAME.md (shipped as ru/GAME.md). Their headings get
Russian ids, their links to another page (`omny.md#…`) go to that page in the same language, and
their pictures are `../../images/NAME` (one folder deeper). A language without a translation of a
game has none here (`translated`): the web page then shows the English text with a note.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin

GAMES = ("omny", "oddy", "omega", "onyx", "omiga")
ENGLISH = "en"
TRANSLATIONS = ("ru",)  # the languages with a folder of translated pages
PICTURE_NAME = re.compile(r"^[A-Za-z0-9_-]+\.(png|svg|jpg)$")
_RULES_LINK = re.compile(r"^(?:\./)?(omny|oddy|omega|onyx|omiga)\.md(#[\w%-]*)?$")
_PICTURE_PATH = re.compile(r"^(?:\.\./)+images/([A-Za-z0-9_.-]+)$")
_MEDIA = {"png": "image/png", "svg": "image/svg+xml", "jpg": "image/jpeg"}


def _folder() -> Any:
    return resources.files(__name__)


def _page(game: str, language: str) -> Any:
    if game not in GAMES:
        raise KeyError(game)
    if language == ENGLISH:
        return _folder() / f"{game}.md"
    if language not in TRANSLATIONS:
        raise KeyError(language)
    return _folder() / language / f"{game}.md"


def translated(game: str, language: str) -> bool:
    """Whether a game's rules page exists in a language (always in English)."""
    try:
        return bool(_page(game, language).is_file())
    except KeyError:
        return False


def markdown(game: str, language: str = ENGLISH) -> str:
    """A game's rules page as markdown; KeyError for a name that is not one of the five games or a
    language it is not translated into."""
    page = _page(game, language)
    if not page.is_file():
        raise KeyError(f"{game} in {language}")
    return str(page.read_text(encoding="utf-8"))


def picture(name: str) -> tuple[bytes, str] | None:
    """A picture the rules pages show: (bytes, media type), or None if there is no such picture."""
    if not PICTURE_NAME.match(name):
        return None
    path = _folder() / "images" / name
    if not path.is_file():
        return None
    return path.read_bytes(), _MEDIA[name.rsplit(".", 1)[1]]


def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    md.use(anchors_plugin, max_level=3, permalink=False)
    md.core.ruler.push("ogames_links", _rewrite_links)
    return md


def _rewrite_links(state: Any) -> None:
    """Links between rules pages go to their web pages, pictures to /rules/images/; a link to
    another part of the docs (not served) becomes plain text."""
    for block in state.tokens:
        for token in block.children or ():
            if token.type == "image":
                picture = _PICTURE_PATH.match(str(token.attrGet("src") or ""))
                token.attrSet("src", f"/rules/images/{picture.group(1)}" if picture else "")
                token.attrSet("loading", "lazy")
            elif token.type == "link_open":
                href = str(token.attrGet("href") or "")
                found = _RULES_LINK.match(href)
                if found:
                    token.attrSet("href", f"/rules/{found.group(1)}{found.group(2) or ''}")
                elif href.startswith("#") or href.startswith("https://"):
                    continue
                else:
                    _unlink(block.children, token)


def _unlink(children: list[Token], opening: Token) -> None:
    """Turn a link into its text: drop its opening and closing tokens."""
    start = children.index(opening)
    depth = 0
    for end in range(start, len(children)):
        if children[end].type == "link_open":
            depth += 1
        elif children[end].type == "link_close":
            depth -= 1
            if depth == 0:
                del children[end]
                del children[start]
                return


@lru_cache(maxsize=len(GAMES) * (1 + len(TRANSLATIONS)))
def html(game: str, language: str = ENGLISH) -> str:
    """A game's rules page as HTML (without its first heading, which the page shows itself)."""
    text = markdown(game, language)
    if text.startswith("# "):
        text = text.split("\n", 1)[1] if "\n" in text else ""
    rendered: str = _renderer().render(text)
    # Code blocks (the terminal drawings) and tables scroll sideways on a narrow screen: focusable,
    # a keyboard scrolls them too. (The markdown's raw HTML is off: these tags are the renderer's.)
    return rendered.replace("<pre>", '<pre tabindex="0">').replace("<table>", '<table tabindex="0">')


def title(game: str, language: str = ENGLISH) -> str:
    """The first heading of a game's rules page (`Omiga (Flanx)`)."""
    first = markdown(game, language).split("\n", 1)[0]
    return first[2:].strip() if first.startswith("# ") else game


__all__ = ["ENGLISH", "GAMES", "TRANSLATIONS", "html", "markdown", "picture", "title", "translated"]
