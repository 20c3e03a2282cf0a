"""The sentences of the engine and the web server in the pages' other languages (web/messages.py):
every sentence the code says has a text in every language with fields it is given, refusals and
reasons are always sentences (never bare English a page could not translate), and the wording of
values — nested sentences, colours in their grammatical forms, quotes — is right."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ogames
from ogames.errors import IllegalMove
from ogames.web import i18n
from ogames.web.catalogue import COLOURS
from ogames.web.core.names import move_words, seat_name
from ogames.web.messages import colour_words, texts, word
from ogames.wording import Said, as_json, from_json, say

SOURCE = Path(ogames.__file__).parent
LANGUAGES = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]


def said_calls() -> dict[str, list[tuple[str, set[str], str]]]:
    """Every `say(key, english, **values)` in the package: key → [(English, value names, where)]."""
    found: dict[str, list[tuple[str, set[str], str]]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "say":
                key, text = node.args[0], node.args[1]
                where = f"{path.relative_to(SOURCE)}:{node.lineno}"
                literal = isinstance(key, ast.Constant) and isinstance(text, ast.Constant)
                assert literal, f"{where}: say() needs a literal key and text"
                names = {keyword.arg for keyword in node.keywords if keyword.arg}
                found.setdefault(key.value, []).append((text.value, names, where))
    return found


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


SAID = said_calls()


def test_the_code_says_many_things_each_key_meaning_one_english_sentence() -> None:
    assert len(SAID) > 200
    for key, calls in SAID.items():
        assert len({text for text, _, _ in calls}) == 1, f"{key} is said in different words: {calls}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_has_a_text_in_every_language_with_the_fields_it_is_given(language: str) -> None:
    # (test_catalogue.py checks that the catalogue translates each of them and nothing else)
    said = texts(language)
    missing = sorted(key for key in SAID if key not in said)
    assert not missing, f"no {language} text for: {missing}"
    for key, calls in SAID.items():
        for english, names, where in calls:
            assert fields(english) <= names, f"{where}: the English of {key} uses a field it is not given"
            assert fields(said[key]) <= names, f"{where}: the {language} text of {key} uses a field it is not given"


def raised_messages(class_name: str, argument: int) -> list[tuple[str, ast.expr]]:
    """The message argument of every `class_name(...)` call in the package."""
    out = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == class_name and node.args:
                if len(node.args) > argument:
                    out.append((f"{path.relative_to(SOURCE)}:{node.lineno}", node.args[argument]))
    return out


@pytest.mark.parametrize(("name", "argument", "packages"), [
    ("Refusal", 0, ("web",)),  # what the web server refuses, shown on the page
    ("IllegalMove", 1, ("rules", "boards")),  # the rules' reasons, shown on the page
    ("Result", 1, ("rules",)),  # why a game ended
])
def test_refusals_and_reasons_are_sentences_never_bare_text(name: str, argument: int, packages: tuple[str, ...]) -> None:
    """A message written as an f-string or a string constant could not be translated: each must be a
    `say(...)` (or a sentence made elsewhere: a name, `exc.said`, a helper's call)."""
    bare = [where for where, node in raised_messages(name, argument)
            if where.split("/")[0] in packages and isinstance(node, (ast.JoinedStr, ast.Constant, ast.BinOp))]
    assert not bare, f"{name} with bare English at {bare}"
    named = {node.id for where, node in raised_messages(name, argument)
             if where.split("/")[0] in packages and isinstance(node, ast.Name)}
    for package in packages:
        for path in sorted((SOURCE / package).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:  # a module's constants used as messages
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in named for t in node.targets):
                    said = isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "say"
                    assert said, f"{path.relative_to(SOURCE)}:{node.lineno}: a constant message that is not a sentence"


def test_a_refusal_reaches_russian_words_through_nested_sentences() -> None:
    state = ogames.load("omny", variant="y", size=3).new_state()
    state.play("a1")
    with pytest.raises(IllegalMove) as refused:
        state.play("a1")
    assert str(refused.value) == "illegal move 'a1': a1 is occupied by black"  # the library's English is as before
    assert word(refused.value.said, "ru") == "ход «a1» невозможен: клетка a1 уже занята (чёрный камень)"
    assert word(refused.value.said, "en") == str(refused.value)
    state.resign("white")
    assert word(state.result.describe(), "ru") == "чёрные победили (белые сдались)"


def test_colours_take_the_form_the_text_asks_for() -> None:
    assert word(say("out-of-cards", "{colour} has run out", colour="white"), "ru").startswith("у белых кончились карты")
    assert colour_words("white2", "", "ru") == "белые 2"
    assert colour_words("white+black", "gen", "ru") == "белых и чёрных"
    assert colour_words("purple", "", "ru") is None
    assert word(say("score-item", "{name} {score}", name="red", score=3), "ru") == "красные 3"
    assert all(colour_words(colour, form, "ru") for colour in COLOURS for form in ("", "gen", "dat", "stone", "card"))


def test_an_omega_tie_says_in_russian_who_tied_and_the_rule() -> None:
    game = ogames.load("omega", players=3, size=4)
    state = game.new_state()
    chooser = ogames.player("random", seed=4)  # a game that ends with Black and Red tied on top
    while not state.is_over:
        state.play(chooser.choose(state), t=0)
    assert state.scores == {"white": 16, "black": 18, "red": 18} and state.winner == "red"
    assert word(state.result.reason, "ru") == (
        "у чёрных столько же очков, а при равенстве побеждает цвет, который ходит позже: белые 16, чёрные 18, красные 18")


def test_text_without_a_translation_stays_english() -> None:
    assert word(say("no-such-key-anywhere", "plain {x}", x="words"), "ru") == "plain words"
    assert word("just text", "ru") == "just text"
    assert word(None, "ru") == ""


sentences = st.deferred(lambda: st.builds(
    lambda key, values: say(key, " ".join(f"{{{name}}}" for name in values), **values),
    st.sampled_from(sorted(SAID)),
    st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), st.one_of(st.text(max_size=8), st.integers(), sentences),
                    max_size=3),
))


@given(sentences)
def test_a_sentence_crosses_json_with_its_key_and_words(sentence: Said) -> None:
    """What crosses Redis between server processes (web/omiga/relay.py) is worded the same after."""
    import json

    again = from_json(json.loads(json.dumps(as_json(sentence))))
    assert again == sentence and isinstance(again, Said) and again.key == sentence.key
    assert word(again, "ru") == word(sentence, "ru")


def test_seats_and_moves_in_the_page_language() -> None:
    assert seat_name("player 2", "ru") == "игрок 2"
    assert seat_name("computer (level 7)", "ru") == "компьютер (уровень 7)"
    assert seat_name("Ann", "ru") == "Ann"
    assert seat_name("player 2", "en") == "player 2"
    assert [move_words(move, "ru") for move in ("c3", "swap", "swap red", "komi=1.5", "resign", "lost on time")] == [
        "c3", "обмен", "обмен: красные", "Коми 1.5", "сдача", "время вышло"]


def test_every_language_has_the_fields_english_has() -> None:
    for language in LANGUAGES:
        translated, english = i18n.words(language), i18n.words(i18n.DEFAULT)
        for key in i18n.ENGLISH:
            assert fields(translated[key]) <= fields(english[key]) | {"colour"}, key


# ----- the server: a page's language over the socket and the API; the API's own English ------------------


def test_a_page_socket_in_russian_and_one_in_english_watch_the_same_game(client) -> None:
    from .conftest import create, receive_state

    game_id, tokens = create(client)
    with client.websocket_connect(f"/ws/g/{game_id}?lang=ru") as russian, \
            client.websocket_connect(f"/ws/g/{game_id}") as english:
        receive_state(russian), receive_state(english)
        russian.send_json({"type": "move", "move": "a1", "token": tokens["0"], "version": 0})
        moved = lambda view: view["version"] == 1  # noqa: E731
        seen_ru, seen_en = receive_state(russian, moved), receive_state(english, moved)
        assert seen_ru["seats"][0]["name"] == "игрок 1" and seen_en["seats"][0]["name"] == "player 1"
        assert "a1: чёрный камень" in seen_ru["board"]["svg"]
        assert "a1: black stone" in seen_en["board"]["svg"]
        russian.send_json({"type": "move", "move": "a1", "token": tokens["1"], "version": 1})  # taken
        refusal = next(message for message in iter(russian.receive_json, None) if message["type"] == "error")
        taken = "ход «a1» невозможен: клетка a1 уже занята (чёрный камень)"
        assert refusal == {"type": "error", "code": "illegal", "message": taken}
        russian.send_json({"type": "resign", "token": tokens["1"], "version": 1})
        over_ru, over_en = receive_state(russian, lambda view: view["over"]), receive_state(english, lambda view: view["over"])
        assert over_ru["result"]["text"] == "чёрные победили (белые сдались)"
        assert over_en["result"]["text"] == "black won (white resigned)"
        assert [move.get("text") for move in over_ru["moves"]] == ["a1", "сдача"]
        assert all("text" not in move for move in over_en["moves"])  # the English view is as it always was


def test_the_api_answers_in_english_unless_a_page_asks_for_its_language(client) -> None:
    from .conftest import create

    game_id, tokens = create(client)
    body = {"move": "zz9", "token": tokens["0"], "version": 0}
    english = client.post(f"/api/games/{game_id}/moves", json=body).json()
    russian = client.post(f"/api/games/{game_id}/moves?lang=ru", json=body).json()
    assert english == {"error": "illegal move 'zz9': 'zz9' is not a cell of this board", "code": "illegal"}
    assert russian == {"error": "ход «zz9» невозможен: на этой доске нет клетки 'zz9'", "code": "illegal"}
    assert client.get("/api/games/nope?lang=ru").json()["error"] == "такой партии нет"
    assert client.get(f"/api/games/{game_id}").json()["seats"][0]["name"] == "player 1"


def test_pages_show_refusals_in_their_language(client) -> None:
    form = {"opt_variant": "custom", "opt_cells": "a1 zz99"}  # two cells far apart
    page = client.post("/new/omny?lang=ru", data=form)
    assert page.status_code == 400
    assert "список клеток неверен: клетки должны составлять одну связную доску" in page.text
    english = client.post("/new/omny?lang=en", data=form)
    assert "option cells is not valid: the cells must form one connected board" in english.text
    assert "такой партии нет" in client.get("/g/nope?lang=ru").text
