"""The pages' words, by language. Templates and the page script use keys; a language is one dict.

English is complete; every other language lists the same keys (a test checks it), and a key a
language lacks falls back to English. The games' own texts (summaries, option help, results) come
from the rules in English.
"""

from __future__ import annotations

LANGUAGES = {"en": "English", "ru": "Русский"}
DEFAULT = "en"

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "site": "ogames",
        "tagline": "Five abstract games with exact rules. Play on one screen with a friend, or against the computer.",
        "games": "Games",
        "new_game": "New game",
        "play": "Play",
        "start": "Start the game",
        "recent": "Recent games",
        "no_recent": "No games yet.",
        "rules": "Rules",
        "options": "Options",
        "default": "default",
        "range": "from {min} to {max}",
        "yes": "yes",
        "no": "no",
        "who": "Who plays",
        "hotseat": "Two people on this screen (hotseat)",
        "vs_ai": "Against the computer",
        "your_seat": "Your seat",
        "seat": "seat {n}",
        "level": "Computer level",
        "easy": "easy",
        "medium": "medium",
        "hard": "hard",
        "not_in_browser": "Omiga is played in real time with cards; it comes to the browser later. "
        "Play it in the terminal for now: ogames omiga kids, ogames omiga zen.",
        "to_move": "{colour} to move",
        "your_turn": "your turn",
        "thinking": "the computer is thinking…",
        "watching": "You are watching this game.",
        "moves": "Moves",
        "no_moves": "No moves yet.",
        "result": "Result",
        "resign": "Resign",
        "confirm_resign": "Really resign?",
        "download": "Download the record (JSON)",
        "score": "score",
        "komi": "komi",
        "choose_komi": "Choose this komi",
        "connected": "live",
        "disconnected": "reconnecting…",
        "game_over": "The game is over.",
        "not_yours": "It is not your turn.",
        "wait_computer": "Wait for the computer's move.",
        "home": "Home",
        "players": "Players",
        "computer": "computer",
        "person": "person",
        "ply": "move {n}",
        "moves_n": "{n} moves",
        "mode_hotseat": "hotseat",
        "mode_ai": "vs computer",
        "over": "over",
        "playing": "playing",
        "language": "Language",
        "error": "Error",
        "back": "Back",
        "not_found": "There is no such page.",
        "special_moves": "Special moves",
        "swap": "Swap (take the first stone)",
        "c_black": "Black",
        "c_white": "White",
        "c_red": "Red",
        "c_blue": "Blue",
        "won": "{colour} won",
        "draw": "Drawn",
        "stored_at": "Games are stored on this server; the link of a game is permanent.",
    },
    "ru": {
        "site": "ogames",
        "tagline": "Пять абстрактных игр с точными правилами. Играйте вдвоём за одним экраном или против компьютера.",
        "games": "Игры",
        "new_game": "Новая игра",
        "play": "Играть",
        "start": "Начать игру",
        "recent": "Последние партии",
        "no_recent": "Партий пока нет.",
        "rules": "Правила",
        "options": "Настройки",
        "default": "по умолчанию",
        "range": "от {min} до {max}",
        "yes": "да",
        "no": "нет",
        "who": "Кто играет",
        "hotseat": "Двое за этим экраном",
        "vs_ai": "Против компьютера",
        "your_seat": "Ваше место",
        "seat": "место {n}",
        "level": "Сила компьютера",
        "easy": "слабый",
        "medium": "средний",
        "hard": "сильный",
        "not_in_browser": "Омига — карточная игра в реальном времени; в браузере она появится позже. "
        "Пока играйте в терминале: ogames omiga kids, ogames omiga zen.",
        "to_move": "ходят {colour}",
        "your_turn": "ваш ход",
        "thinking": "компьютер думает…",
        "watching": "Вы наблюдаете за партией.",
        "moves": "Ходы",
        "no_moves": "Ходов ещё нет.",
        "result": "Итог",
        "resign": "Сдаться",
        "confirm_resign": "Точно сдаться?",
        "download": "Скачать запись партии (JSON)",
        "score": "счёт",
        "komi": "коми",
        "choose_komi": "Выбрать коми",
        "connected": "на связи",
        "disconnected": "переподключение…",
        "game_over": "Партия окончена.",
        "not_yours": "Сейчас не ваш ход.",
        "wait_computer": "Дождитесь хода компьютера.",
        "home": "Главная",
        "players": "Игроки",
        "computer": "компьютер",
        "person": "человек",
        "ply": "ход {n}",
        "moves_n": "ходов: {n}",
        "mode_hotseat": "вдвоём",
        "mode_ai": "против компьютера",
        "over": "окончена",
        "playing": "идёт",
        "language": "Язык",
        "error": "Ошибка",
        "back": "Назад",
        "not_found": "Такой страницы нет.",
        "special_moves": "Особые ходы",
        "swap": "Обмен (забрать первый камень)",
        "c_black": "Чёрные",
        "c_white": "Белые",
        "c_red": "Красные",
        "c_blue": "Синие",
        "won": "{colour} победили",
        "draw": "Ничья",
        "stored_at": "Партии хранятся на сервере; ссылка на партию постоянна.",
    },
}


def words(language: str) -> dict[str, str]:
    """Every key's text in a language (English where the language lacks a key)."""
    return {**WORDS[DEFAULT], **WORDS.get(language, {})}


def pick(requested: str | None, accept: str | None = None) -> str:
    """The language to show: the one asked for if known, else the browser's first known one, else English."""
    if requested in LANGUAGES:
        return requested
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT
