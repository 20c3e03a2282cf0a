"""The gettext catalogues (src/ogames/locale, web/catalogue.py): every text the code marks — the
pages' words, the engine's and the server's sentences, the option help, the colours' forms — has a
translation in every language, with no field the English does not give, and the catalogue holds
nothing the code no longer says; an entry left untranslated or fuzzy is found, and the pages show
its English rather than a stale translation."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.web import catalogue, i18n, messages

from .test_messages import SAID

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]

Entry = tuple[str | None, str]  # (key, the English, its singular for a text with forms by number)
WORDS = {(key, english if isinstance(english, str) else english[0]) for key, english in i18n.ENGLISH.items()}


def extracted() -> dict[Entry, Message]:
    """What `pybabel extract -F babel.cfg` finds in the source, by (key, English)."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[Entry, Message] = {}
    for _, _, message, _, context in extract_from_dir(str(ROOT), method_map, options_map):
        english = message if isinstance(message, str) else message[0]
        found[(context, english)] = Message(message, context=context)
    return found


EXTRACTED = extracted()


def read(language: str) -> Catalog:
    with catalogue.path(language).open("rb") as source:
        return read_po(source, locale=language)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# The values each sentence is given (`say(key, english, **values)`): its text may name any of them.
GIVEN = {key: set().union(*(names for _, names, _ in calls)) for key, calls in SAID.items()}


def problems(catalog: Catalog, wanted: dict[Entry, Message]) -> list[str]:
    """What is wrong with a language's catalogue against the texts the code marks."""
    found: list[str] = []
    held = {(entry.context, entry.id if isinstance(entry.id, str) else entry.id[0]): entry for entry in catalog if entry.id}
    for where, message in wanted.items():
        entry = held.get(where)
        texts = [] if entry is None else [entry.string] if isinstance(entry.string, str) else list(entry.string)
        if entry is None or entry.fuzzy or not all(texts) or not texts:
            found.append(f"no {catalog.locale} translation of {where}")
            continue
        allowed = set().union(*(fields(text) for text in ([message.id] if isinstance(message.id, str) else message.id)))
        allowed |= GIVEN.get(where[0] or "", set()) if where not in WORDS else set()
        for text in texts:
            if not fields(text) <= allowed | {"n"}:
                found.append(f"{where}: the {catalog.locale} text uses a field the English does not give: {text!r}")
        if isinstance(message.id, tuple) and len(texts) != catalog.num_plurals:
            found.append(f"{where}: {len(texts)} forms by number, not {catalog.num_plurals}")
    found += [f"{catalog.locale} translation of a text nobody says: {where}" for where in held if where not in wanted]
    return found


def test_the_code_marks_the_pages_words_the_sentences_and_the_option_help() -> None:
    keys = {key for key, _ in EXTRACTED}
    assert set(i18n.ENGLISH) <= keys  # the pages' words
    assert {"occupied", "too-many-requests", "omny-win"} <= keys  # sentences of the rules and of the server
    assert {"omny.komi", "omiga.pace", "colour:gen", "and", "quotes"} <= keys
    assert ("won", "{colour} won") in EXTRACTED and ("won", "{winner} won ({reason})") in EXTRACTED  # a word and a sentence


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_text_has_a_translation_in_every_language(language: str) -> None:
    assert problems(read(language), EXTRACTED) == []


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_an_untranslated_or_fuzzy_entry_is_found(data: st.DataObject) -> None:
    catalog = read("ru")
    where = data.draw(st.sampled_from(sorted(EXTRACTED, key=str)))
    entry = catalog.get(where[1] if isinstance(EXTRACTED[where].id, str) else EXTRACTED[where].id, context=where[0])
    assert entry is not None
    if data.draw(st.booleans()):
        entry.flags.add("fuzzy")
    else:
        entry.string = "" if isinstance(entry.string, str) else ("",) * len(entry.string)
    assert problems(catalog, EXTRACTED) == [f"no ru translation of {where}"]


def test_a_translation_the_code_no_longer_asks_for_is_found() -> None:
    catalog = read("ru")
    catalog.add("an old sentence", "старая фраза", context="gone-key")
    assert problems(catalog, EXTRACTED) == ["ru translation of a text nobody says: ('gone-key', 'an old sentence')"]


def test_a_fuzzy_translation_is_not_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = read("ru")
    catalog.get("Games", context="games").flags.add("fuzzy")
    catalog.get("Rules", context="rules").string = ""
    written = io.BytesIO()
    write_po(written, catalog)
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "ogames.po").write_bytes(written.getvalue())
    monkeypatch.setattr(catalogue, "LOCALE", tmp_path)
    for cached in (catalogue.translations, catalogue._entries, i18n._words, messages._texts):
        cached.cache_clear()
    try:
        words = i18n.words("ru")
        assert (words["games"], words["rules"], words["resign"]) == ("Games", "Rules", "Сдаться")
    finally:
        monkeypatch.undo()
        for cached in (catalogue.translations, catalogue._entries, i18n._words, messages._texts):
            cached.cache_clear()


def test_the_words_the_scripts_and_templates_name_by_key_are_marked() -> None:
    """A word the page scripts or the templates take by key from the pages' dict must be in the
    keyed table (a word written in place in a template, `_("…")`, is not in the dict)."""
    web = ROOT / "src" / "ogames" / "web"
    scripts = "".join(path.read_text() for path in (web / "static").glob("*.js"))
    named = set(re.findall(r"\bwords\.(\w+)", scripts)) | set(re.findall(r"\bwords\[\"(\w+)\"\]", scripts))
    templates = "".join(path.read_text() for path in (web / "templates").glob("*.html"))
    named |= set(re.findall(r"\bt\.(\w+)", templates)) - {"get"}
    named = {name for name in named if not name.endswith("_")}  # (a comment's `words.mv_*`)
    assert named - {"plural_forms"} <= set(i18n.ENGLISH), named - set(i18n.ENGLISH)
    assert len(named) > 100


def test_the_russian_plural_forms_follow_cldr() -> None:
    assert catalogue.plural_order("ru") == ["one", "few", "many"]
    assert catalogue.plural_order("en") == ["one", "other"]
    assert i18n.words("ru")["moves_n"] == "{n} ход|{n} хода|{n} ходов"


def test_the_package_ships_its_catalogues() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"locale/*/LC_MESSAGES/*.po"' in pyproject
    for language in LANGUAGES:
        assert catalogue.path(language).is_file()


def entries(text: str) -> list[dict[str, str]]:
    """A catalogue's entries as written, block by block: Babel's reader forgives a stray `msgstr`
    (it keeps the previous entry's) and lets a later duplicate win silently, so both are checked
    on the text."""
    found = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#")]
        if lines:
            found.append({line.split(" ", 1)[0]: line.split(" ", 1)[-1] for line in lines if not line.startswith('"')})
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_has_its_english_once(language: str) -> None:
    written = entries(catalogue.path(language).read_text(encoding="utf-8"))
    assert all("msgid" in entry for entry in written), [entry for entry in written if "msgid" not in entry]
    keys = [(entry.get("msgctxt"), entry["msgid"]) for entry in written]
    assert len(keys) == len(set(keys)), sorted({key for key in keys if keys.count(key) > 1})


def test_a_stray_translation_is_found() -> None:
    assert entries('msgid "a"\nmsgstr "b"\n\nmsgstr "c"\n')[1] == {"msgstr": '"c"'}
