"""The sentences of the engine and of the web server in the pages' other languages.

The rules, the drawings and the server's refusals speak English, each sentence made by
`ogames.wording.say` with a key and its values. A page in another language shows `word(sentence,
language)`: the language's text for the key (its catalogue's entry under that key, web/catalogue.py)
with the values filled in — a value that is itself a sentence worded the same way, a colour in the
form the text asks for (`{colour:gen}`: Russian needs the genitive after «у», an adjective before
«камень»; the catalogue has each colour in each form), a list joined by commas. A sentence whose
key a language lacks, or plain text, stays English. The JSON API and the terminal keep the
English; `tests/web/test_catalogue.py` checks that every sentence the code says is translated, and
`tests/web/test_messages.py` that its text names only values it is given.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from functools import cache
from typing import Any

from ogames.web import catalogue
from ogames.web.catalogue import N_
from ogames.web.i18n import ENGLISH as PAGE_WORDS
from ogames.wording import Each, Said, joined

ENGLISH = "en"

# The colours' grammatical forms (`{colour:gen}`); web/catalogue.py says what each one is.
FORMS = tuple(catalogue.COLOUR_FORMS)
# How a language joins the last two of several ("black and red"), and quotes a value ('a1').
AND = N_("and", " and ")
QUOTES = N_("quotes", "'{}'")


def texts(language: str) -> dict[str, str]:
    """A language's texts of the sentences, by their key (the catalogue's entries but the pages'
    words, which may share a key with a sentence: `won`)."""
    return _texts(language)


@cache
def _texts(language: str) -> dict[str, str]:
    return {key: text for (key, english), text in catalogue.entries(language).items()
            if key and isinstance(text, str) and PAGE_WORDS.get(key) != english}


def _joiner(language: str, marked: tuple[str, str]) -> str:
    found = catalogue.text(language, *marked)
    return found if isinstance(found, str) else marked[1]


def colour_words(value: str, form: str, language: str) -> str | None:
    """A colour (or a seat named by one, `white2`; a shared win, `white+black`) in a form of a
    language's words; None if the value is not a colour."""
    if "+" in value:
        parts = [colour_words(part, form, language) for part in value.split("+")]
        return None if None in parts else _joiner(language, AND).join(part or "" for part in parts)
    base, number = value.rstrip("0123456789"), value[len(value.rstrip("0123456789")) :]
    words = catalogue.text(language, f"colour:{form}" if form in FORMS and form else "colour", base)
    if not isinstance(words, str):
        return None
    return f"{words} {number}" if number else words


class _Wording(string.Formatter):
    """`str.format` with the values worded in a language: sentences, colours, lists."""

    def __init__(self, language: str):
        super().__init__()
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Said):
            return word(value, self.language)
        if isinstance(value, Each) and value:
            return joined([self.format_field(item, format_spec) for item in value], _joiner(self.language, AND))
        if isinstance(value, (list, tuple)):
            return ", ".join(self.format_field(item, format_spec) for item in value)
        if isinstance(value, str):
            if format_spec == "q":  # a quoted value ('a1', as `shown` writes it) in the language's quotes
                return _joiner(self.language, QUOTES).format(value.strip("'\""))
            colour = colour_words(value, format_spec, self.language)
            return value if colour is None else colour
        return format(value)


def word(text: object, language: str) -> str:
    """A sentence in a language: its text for the sentence's key there with the values filled in,
    else the English it was made with (plain text too). None is the empty text."""
    if text is None:
        return ""
    if language == ENGLISH or not isinstance(text, Said):
        return str(text)
    template = texts(language).get(text.key)
    if template is None:
        return str(text)
    try:
        return _Wording(language).vformat(template, (), text.values)
    except (KeyError, IndexError, ValueError):  # a sentence made without a value the text needs: its English
        return str(text)


@cache
def speaker(language: str) -> Callable[[str], str]:
    """`word` for one language, one function per language (the drawings' caches key on it)."""
    if language == ENGLISH:
        return str
    return lambda text: word(text, language)


__all__ = ["colour_words", "speaker", "texts", "word"]
