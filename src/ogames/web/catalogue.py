"""The gettext catalogues of the pages' languages: `locale/<language>/LC_MESSAGES/ogames.po`.

English is the source language: every text is written in English where it is used, marked for
extraction (`pybabel extract -F babel.cfg`, see docs/translating.md), and a catalogue holds its
translation. An entry's `msgid` is the English text and its `msgctxt` the stable key the code
looks it up by (`new_game`, a sentence's key `occupied`, an option's help `omny.size`); the key
keeps apart texts that read the same in English but not in every language ("Copy" a link and
"Copy" a card), and it is what the page scripts name. Texts a template writes in place
(`{{ _("New game") }}`) need no key.

The server reads a language's `.po` once, at first use, and compiles it in memory (Babel writes
the `.mo` into a buffer): there is no compiled file to fall out of date beside the source, and an
installed package needs no build step and no write to its own folder.

The markers below do nothing at run time but hand back the key and the English; `babel.cfg` names them as
keywords, so the extractor finds every text they mark:

    N_(key, english)            a page's word or a sentence's text (`say(key, english)` too)
    NP_(key, one, other)        a text with a form for each plural category of a language
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

DOMAIN = "ogames"
LOCALE = resources.files("ogames") / "locale"

# The grammatical forms a sentence may ask a colour in (`{colour:gen}`), with what each one is,
# for the translators (web/messages.py words the colours by them).
COLOUR_FORMS = {
    "": "the players of this colour (Russian: nominative plural, «чёрные»)",
    "gen": "genitive plural, after a preposition such as «у» (Russian: «чёрных»)",
    "dat": "dative plural (Russian: «чёрным»)",
    "stone": "the adjective for a stone (Russian: «чёрный» камень)",
    "card": "the adjective for a card (Russian: «чёрная» карта)",
}
COLOURS = ("black", "white", "red", "blue", "green", "yellow")


def N_(key: str, english: str) -> tuple[str, str]:
    """Marks a text for the catalogue under a key: (key, the English)."""
    return key, english


def NP_(key: str, one: str, other: str) -> tuple[str, tuple[str, str]]:
    """Marks a text with forms by number for the catalogue under a key: (key, its English forms)."""
    return key, (one, other)


def path(language: str) -> Any:
    """Where a language's catalogue is (a `Traversable` inside the package)."""
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> Translations:
    """A language's catalogue, compiled in memory; an empty one (English: every text as it is
    written) for a language without a catalogue."""
    source = path(language)
    if not source.is_file():
        return Translations()
    with source.open("rb") as text:
        catalog = read_po(text, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # (fuzzy entries are left out, as msgfmt does)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


Text = str | tuple[str, ...]  # a translation: a text, or its forms by number in the order of `Plural-Forms`


def entries(language: str) -> dict[tuple[str | None, str], Text]:
    """A language's translated texts by (key, English): the entries that have a translation."""
    return _entries(language)


@cache
def _entries(language: str) -> dict[tuple[str | None, str], Text]:
    found: dict[tuple[str | None, str], Any] = {}
    for entry, text in translations(language)._catalog.items():  # (gettext keeps its entries there)
        index = None
        if isinstance(entry, tuple):  # one of a text's forms by number: (singular, index)
            entry, index = entry
        if not entry or not text:  # the header, or an untranslated form
            continue
        key, _, english = entry.rpartition("\x04")
        where = (key or None, english)
        if index is None:
            found[where] = text
        else:
            found.setdefault(where, {})[index] = text
    return {where: text if isinstance(text, str) else tuple(text[i] for i in sorted(text)) for where, text in found.items()}


def text(language: str, key: str | None, english: str) -> Text | None:
    """A language's translation of an English text (under a key), None if it has none."""
    return _entries(language).get((key, english))


def plural_order(language: str) -> list[str]:
    """The CLDR plural categories of a language in the order of its catalogue's plural forms
    (`one|few|many` for Russian), learnt by asking both for the same numbers."""
    choose = translations(language).plural
    rules = Locale.parse(language).plural_form
    order: dict[int, str] = {}
    for n in range(200):
        order.setdefault(choose(n), rules(n))
    return [order[index] for index in sorted(order)]


Extracted = tuple[int, str, tuple[str, ...], list[str]]  # what a Babel extractor yields: line, keyword, arguments, comments


def extract_generated(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[Extracted]:
    """A Babel extractor for the texts written by the engine rather than in this code: each game's
    option help (`ogames.games()`, keyed `game.option`) and the colours in each grammatical form
    (keyed `colour:form`). `babel.cfg` points it at this module."""
    del fileobj, keywords, comment_tags, options
    import ogames

    for game in ogames.games():
        for option in game["options"]:
            key = f"{game['name']}.{option['name']}"
            yield 0, "N_", (key, option["help"]), [f"the help of option {option['name']} on the new-game form"]
    for form, meaning in COLOUR_FORMS.items():
        for colour in COLOURS:
            yield 0, "N_", (f"colour:{form}" if form else "colour", colour), [f"a colour: {meaning}"]


__all__ = ["COLOURS", "COLOUR_FORMS", "NP_", "N_", "entries", "extract_generated", "plural_order", "text", "translations"]
