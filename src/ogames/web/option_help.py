"""The new-game forms' option help in the languages besides English.

English is the engine's own help text (`ogames.describe`), so it never drifts from the rules; other
languages list a text per game and option here, keyed `game.option`. A test checks that every
option of every game has one, so a new option cannot reach the Russian form in English unnoticed.
"""

from __future__ import annotations

HELP: dict[str, dict[str, str]] = {
    "ru": {
        "omny.variant": "доска и звёздные клетки: sunder, y, gyre, free-y или custom (своя)",
        "omny.size": "длина стороны, от 2 до 30 (по умолчанию 5 для sunder, gyre и своих шестиугольника и ромба; "
        "7 для y и своего треугольника)",
        "omny.sides": "a,b: длины сторон неправильного шестиугольника, каждая от 2 до 30 (free-y и своя неправильная "
        "доска; по умолчанию 5,6)",
        "omny.shape": "форма своей доски (по умолчанию шестиугольник)",
        "omny.cells": "своя доска: список обозначений клеток вместо формы (от 2 до 3000 связанных клеток)",
        "omny.stars": "звёздные клетки своей доски: all (все), perimeter (край), corners (углы), centre (центр), "
        "их сочетание через + или обозначения клеток",
        "omny.komi": "коми k: целое число или с половиной, 0 ≤ k ≤ S/2",
        "omny.pie": "правило пирога: белые могут поменяться местами в свой первый ход",
        "omny.komi_choice": "первым действием чёрные выбирают коми (komi=K); затем белые могут поменяться",
        "oddy.sides": "число сторон доски m (нечётное, от 3 до 25)",
        "oddy.size": "клеток на сторону n (от 2 до 30; по умолчанию 7 на треугольнике, 5 на полярной доске)",
        "oddy.board": "треугольник (только при m = 3, и тогда по умолчанию) или полярная доска",
        "oddy.pie": "правило пирога: после первого камня чёрных белые могут поменяться цветами",
        "omega.players": "число игроков (2–4): белые, чёрные, красные, синие",
        "omega.size": "сторона шестиугольной доски, от 4 до 12 клеток",
        "omega.pie": "правило пирога: после первого хода следующие игроки могут поменяться цветом с одним из "
        "предыдущих",
        "omega.match": "матч из двух партий, во второй цвета меняются; решает сумма очков",
        "onyx.pie": "белые могут поменяться после первого хода чёрных",
        "omiga.variant": "base (обычная), 2v2 (двое на двое), kids (детская), toddler (для малышей) или zen (дзен)",
        "omiga.width": "ширина стола в картах, от 3 до 52 (по умолчанию 15; не для дзен)",
        "omiga.height": "высота стола в картах, от 3 до 52 (по умолчанию 10; не для дзен)",
        "omiga.turning": "карты можно класть повёрнутыми на 180°",
        "omiga.seed": "зерно тасования колод, от 0 до 2^53−1 (выбирается и сохраняется, если не задано)",
        "omiga.players": "число игроков (toddler: от 2 до 6; в остальных режимах задано)",
        "omiga.form": "дзен: фигура, которую нужно сложить (по умолчанию fly; список: `ogames omiga forms`)",
        "omiga.target": "2v2: очков для победы (по умолчанию 7)",
        "omiga.pace": "детская: realtime (по умолчанию, как в правилах) или turns (по одной карте по очереди, "
        "для начинающих)",
        "omiga.cards": "набор карт: standard (по умолчанию) или коды рисунков вроде 'AB/^ BA\\v' (до 600 символов)",
    },
}


def texts(language: str) -> dict[str, str]:
    """The option help of a language, keyed `game.option` (empty for English: the engine's own)."""
    return HELP.get(language, {})
