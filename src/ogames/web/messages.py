"""The sentences of the engine and of the web server in the pages' other languages.

The rules, the drawings and the server's refusals speak English, each sentence made by
`ogames.wording.say` with a key and its values. A page in another language shows `word(sentence,
language)`: the language's text for the key with the values filled in — a value that is itself a
sentence worded the same way, a colour in the form the text asks for (`{colour:gen}`: Russian
needs the genitive after «у», an adjective before «камень»), a list joined by commas. A sentence
whose key a language lacks, or plain text, stays English. The JSON API and the terminal keep the
English; `tests/web/test_messages.py` checks that every key the code says has a text here with
the same fields.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from functools import cache
from typing import Any

from ogames.wording import Each, Said, joined

ENGLISH = "en"

# A colour's words by grammatical form: "" the players (nominative plural), "gen" genitive plural
# (у чёрных), "dat" dative plural (чёрным), "stone" the adjective for a stone (чёрный камень),
# "card" the adjective for a card (чёрная карта).
COLOUR_FORMS: dict[str, dict[str, tuple[str, str, str, str, str]]] = {
    "ru": {
        "black": ("чёрные", "чёрных", "чёрным", "чёрный", "чёрная"),
        "white": ("белые", "белых", "белым", "белый", "белая"),
        "red": ("красные", "красных", "красным", "красный", "красная"),
        "blue": ("синие", "синих", "синим", "синий", "синяя"),
        "green": ("зелёные", "зелёных", "зелёным", "зелёный", "зелёная"),
        "yellow": ("жёлтые", "жёлтых", "жёлтым", "жёлтый", "жёлтая"),
    },
}
FORMS = ("", "gen", "dat", "stone", "card")
AND = {"ru": " и "}
QUOTES = {"ru": "«{}»"}  # a shared win ("white+black") is said as "белые и чёрные"

TEXTS: dict[str, dict[str, str]] = {
    "ru": {
        # ----- results ------------------------------------------------------------------------
        "won": "{winner} победили ({reason})",
        "drawn": "ничья ({reason})",
        "resigned": "{colour} сдались",
        "resigned-match": "{colour} сдали матч",
        "gave-up": "игрок сдался",
        "omny-win": "группа {colour:gen} ({group}) не оставляет ни одной области, где больше {most} из {stars} звёздных клеток",
        "oddy-win": "группа {colour:gen} ({group}) касается сторон {sides}",
        "onyx-win-west-east": "{colour} соединили запад и восток",
        "onyx-win-south-north": "{colour} соединили юг и север",
        "omega-highest": "больше всех очков: {scores}",
        "omega-match-equal": "суммы очков за матч равны: {scores}",
        "omega-match-higher": "больше сумма очков за матч: {scores}",
        "omega-resigned": "{colour} сдались; лучший счёт среди остальных: {scores}",
        "score-item": "{name} {score}",
        "far-edge": "{colour} дошли до дальнего края на {cell}",
        "got-behind": "{colour} зашли за карту на {behind} клеткой {cell}",
        "both-sides": "оба игрока дошли до обоих боковых краёв",
        "sides-closed": "у обоих игроков есть карты у левого и у правого края стола",
        "stuck-hand": "у {colour:gen} не осталось карт, кроме руки, и ни одну нельзя положить",
        "out-of-cards": "у {colour:gen} кончились карты: ни одну нельзя положить",
        "table-dead": "ни одну карту ни одной колоды никуда нельзя положить",
        "nobody-can-place": "никто из игроков не может положить ни одной своей карты",
        "teams-won": "{colour} набрали {points} очков против {other} (раундов: {rounds})",
        "teams-scoreless": "раундов подряд без очков: {n} (счёт {w}:{b}, раундов: {rounds})",
        "toddler-won": "{colour} дошли до дальнего края (раунд {round})",
        "toddler-shared": "{colours} дошли до дальнего края в одном раунде и делят победу (раунд {round})",
        "form-completed": "форма «{russian}» собрана",
        "decks-out": "обе колоды кончились во второй раз, а форма не собрана",
        # ----- the rules' refusals --------------------------------------------------------------
        "illegal-move": "ход {move:q} невозможен: {reason}",
        "game-over": "партия окончена: {result}",
        "occupied": "клетка {cell} уже занята ({colour:stone} камень)",
        "not-a-cell": "на этой доске нет клетки {label}",
        "not-a-hex-label": "{label} — не имя клетки: клетку называют буквами столбца и номером ряда, например c3",
        "label-not-text": "имя клетки должно быть текстом",
        "not-a-colour": "{colour} — не цвет этой партии (цвета: {colours})",
        "nothing-to-undo": "отменять нечего: ходов ещё не было",
        "move-not-text": "ход должен быть текстом, например именем клетки",
        "move-too-long": "ход — не длиннее {limit} символов",
        "time-not-number": "время хода {t} — не число секунд",
        "time-out-of-range": "время хода {t} вне допустимого: нужно от 0 до {limit} секунд",
        "time-order": "время {t} раньше последнего действия ({last}): действия идут по порядку",
        "pie-off": "правило пирога в этой партии выключено",
        "swap-first-move": "обмен возможен только первым ходом белых",
        "swap-after-komi": "обмен возможен только ответом белых на выбор коми",
        "komi-first": "сначала чёрные выбирают коми",
        "komi-first-action": "первое действие чёрных — выбрать коми: от 0 до {most} с шагом 0,5",
        "komi-fixed": "коми задано настройками партии ({komi}) и в игре не выбирается",
        "komi-chosen": "коми уже выбрано: {komi}",
        "komi-form": "коми должно быть целым числом или целым с половиной",
        "komi-range": "коми — от 0 до половины звёздных клеток: до {most} (звёздных клеток: {stars})",
        "midpoint-closed": "{cell} — середина квадрата, на углу которого есть камень ({held}): в середину можно ставить, "
        "только пока все четыре угла квадрата пусты",
        "empty-move": "пустой ход: назовите клетку, обмен или сдачу",
        "one-placement": "здесь ставится по одному камню",
        "pie-over": "время обменов прошло: меняться могут только игроки первого круга",
        "pie-first-player": "первый игрок делает обычный ход: меняться можно, начиная со второго",
        "swap-whole-turn": "обмен заменяет целый ход, а камни этого хода уже поставлены",
        "swap-form": "обмен пишется как swap или swap с цветом",
        "swap-whom": "скажите, чей цвет взять: {colours}",
        "swap-not-previous": "{colour} — не цвет игрока, ходившего раньше (можно взять: {colours})",
        "stones-left": "камней осталось поставить в этот ход: {n}",
        "not-a-cell-of-several": "на этой доске нет клетки {word} (несколько слов — это несколько камней)",
        "placement-refused": "{cell}: {reason}",
        "cell-taken": "клетка {cell} занята",
        "cell-closed": "клетка {cell} закрыта",
        "not-joined": "клетка {cell} не примыкает к картам на столе",
        "rule-1": "{problem} (правило 1)",
        "rule-2": "клетка {cell} не касается карты вашего цвета (правило 2)",
        "rule-3": "клетка {cell} не касается карты соперника (правило 3)",
        "misfit-left": "карта не подходит к карте слева, на {cell}",
        "misfit-right": "карта не подходит к карте справа, на {cell}",
        "misfit-below": "карта не подходит к карте снизу, на {cell}",
        "misfit-above": "карта не подходит к карте сверху, на {cell}",
        "frozen-left": "клетка {cell} на левом краю, где {colour} набрали очко: этот край заморожен",
        "frozen-right": "клетка {cell} на правом краю, где {colour} набрали очко: этот край заморожен",
        "frozen-left-closed": "клетка {cell} на левом краю, а он закрыт",
        "frozen-right-closed": "клетка {cell} на правом краю, а он закрыт",
        "nothing-to-discard": "у {actor:gen} нет карт в руке: сбрасывать нечего",
        "discard-fits": "карта {card} подходит, например, на {cell}: сбросить можно только карту, которой нигде нет места",
        "discard-card-fits": "карта подходит, например, на {cell}: сбросить можно только карту, которой нигде нет места",
        "discard-alone": "после сброса ничего не пишется",
        "no-turning": "в этой партии карты нельзя поворачивать",
        "no-such-card": "карты {card} нет: карты пронумерованы от 0 до {last}",
        "not-in-set": "{card} — не карта этого набора",
        "off-table": "клетка {cell} за пределами стола {width} × {height}",
        "not-in-hand": "карты {card} нет в руке у {actor:gen} (в руке: {hand})",
        "empty-hand": "пусто",
        "not-playing": "{actor} не играет (играют: {actors})",
        "acts-for-other": "{actor} не могут действовать за {other:gen}",
        "say-who-acts": "в реальном времени скажите, кто действует",
        "action-form": "действие — это выложить карту на клетку (можно повёрнутой) или сбросить руку",
        "turn-action-form": "действие — это выложить карту на клетку (можно повёрнутой) или сбросить её",
        "place-form": "выкладывая карту, назовите клетку (и, если нужно, что карта повёрнута)",
        "not-a-table-cell": "{cell} — не клетка стола: {reason}",
        "zen-say-action": "действия: начать, взять, выложить, закончить раунд или сдаться",
        "zen-start-first": "партия начинается со стартовой карты: белой или чёрной",
        "zen-end-alone": "конец раунда ничего больше не берёт: вся рука уходит в сброс",
        "zen-nothing-to-end": "заканчивать нечего: сначала возьмите карты",
        "zen-unknown-action": "неизвестное действие {verb}: начать, взять, выложить, закончить раунд или сдаться",
        "zen-name-deck": "назовите колоду: белую или чёрную",
        "zen-deck-aside": "{colour:card} колода отложена: в форме «{russian}» нет клеток этого цвета",
        "zen-only-turned": "лишнее {words}: дальше можно только указать, что карта повёрнута",
        "zen-started": "стартовая карта уже на столе",
        "zen-round-going": "раунд ещё идёт: выкладывайте карты или закончите его",
        "zen-draw-form": "скажите, из какой колоды брать: белой или чёрной",
        "zen-deck-out": "{colour:card} колода кончилась, а её сброс уже переворачивали",
        "zen-hand-empty": "рука пуста: сначала возьмите карты",
        "zen-place-form": "назовите номер карты в руке и клетку",
        "zen-not-position": "{given} — не номер карты в руке (от 1 до {n})",
        "zen-no-card": "в руке нет карты {given} (от 1 до {n})",
        "zen-off-form": "{colour:card} карта на {cell} выводит раскладку за пределы формы «{russian}»",
        # ----- the drawings' titles and labels (ogames.draw) --------------------------------------------
        "board-name": "доска {game}: {status}",
        "to-move": "ходят {colour}",
        "in-play": "идёт игра",
        "cell-title": "{label}: {words}",
        "stone": "{colour:stone} камень",
        "empty": "пусто",
        "star-cell": "звёздная клетка",
        "last-move": "последний ход",
        "winning-group": "победная группа",
        "highlighted": "выделена",
        "just-captured": "только что взят",
        "open-midpoint": "свободная середина",
        "closed-midpoint": "закрытая середина (угол занят)",
        "side": "сторона {n}",
        "stone-picture": "{colour:stone} камень ({shape})",
        "shape-disc": "круг",
        "shape-ring": "кольцо",
        "shape-triangle": "треугольник",
        "shape-square": "квадрат",
        "shape-diamond": "ромб",
        "shape-star": "звезда",
        "face": "слева {left}, справа {right}, сверху {top}, снизу {bottom}",
        "card": "{owner:card} карта ({face})",
        "form-wants": "форма ждёт здесь {colour:card} карту",
        "frozen-end": "замороженный край",
        "home": "дом: {colour}",
        "zen-form": "фигура дзена «{russian}», {level}",
        "level-easy": "лёгкая",
        "level-medium": "средняя",
        "level-hard": "трудная",
        "level-impossible": "невозможная",
        # ----- the zen solver's verdicts ---------------------------------------------------------------
        "zen-found": "решатель нашёл подходящую раскладку",
        "zen-count": "клеток цвета «{colour}» — {wanted}, а в колоде этого цвета только {n} разных карт",
        "zen-sat-budget": "ответа нет за {n} конфликтов решателя",
        "zen-sat-refuted": "решатель доказал: карты не могут подойти друг к другу так, чтобы заполнить форму",
        "zen-search-budget": "ответа нет за {n} шагов поиска",
        "zen-exhausted": "полный перебор: подходящей раскладки нет",
        # ----- the web server's refusals ----------------------------------------------------------------
        "no-such-game": "игры {game} нет (игры: {games})",
        "no-such-game-id": "такой партии нет",
        "not-in-browser": "в {game} пока нельзя играть в браузере: играйте в терминале",
        "real-time-game": "{game} с этими настройками идёт в реальном времени, а браузер этого пока не умеет",
        "computer-to-move": "ходит компьютер",
        "not-your-turn": "сейчас не ваш ход: ходят {colour}",
        "time-ran-out": "поздно: ваше время вышло, и ход не сделан ({result})",
        "too-late-over": "поздно: партия окончена ({result})",
        "no-colour-to-resign": "у этого места нет цвета, за который можно сдаться",
        "lost-on-time-no-undo": "партия проиграна по времени, это не отменить",
        "lost-on-time": "у {colour:gen} вышло время",
        "no-persons-move": "нет хода человека, который можно отменить",
        "no-move-of-yours": "нет вашего хода, который можно отменить",
        "undo-asked-already": "вы уже попросили отменить свой ход: ждём согласия остальных",
        "no-undo-asked": "никто не просил отменить ход",
        "seat-not-open": "место {n} не свободно: его уже заняли или не предлагали",
        "seat-taken": "место {n} не свободно: его уже заняли",
        "seat-not-stored": "не удалось сохранить место, поэтому оно не занято: попробуйте ещё раз",
        "bad-token": "эта ссылка не даёт места в этой партии",
        "stale-version": "партия ушла вперёд, пока это отправлялось (было для версии {sent}, а партия уже на {now})",
        "moved-on": "партия ушла вперёд: посмотрите на доску ещё раз",
        "moved-on-reload": "партия ушла вперёд: обновите страницу",
        "move-not-stored": "ход не удалось сохранить, поэтому он не сделан: попробуйте ещё раз",
        "action-not-stored": "действие не удалось сохранить, поэтому оно не сделано: попробуйте ещё раз",
        "computer-failed": "компьютер не смог сходить ({error}); обновите страницу, чтобы он попробовал снова",
        "computer-refused": "компьютер не смог сходить; обновите страницу, чтобы он попробовал снова",
        "bot-stopped": "бот {actor} остановился ({error}); обновите страницу, чтобы запустить его снова",
        "no-such-seat": "места {n} нет: в этой партии мест {seats}",
        "seat-count": "в этой партии мест {seats}: скажите, кто сидит на каждом (указано {given})",
        "one-person": "хотя бы на одном месте должен быть человек",
        "seat-n": "место {n}",
        "seat-by-number": "выберите своё место по номеру",
        "broken-record": "сохранённую запись этой партии не удаётся повторить: {reason}",
        "zen-person": "в дзен играет человек: бота на это место посадить нельзя",
        "seq-handled": "сообщение {seq} уже обработано (последнее было {last}): повторно оно не выполняется",
        "wait-signal": "дождитесь сигнала: игра ещё не началась",
        "referee-silent": "судья стола не ответил (его сервер мог остановиться): попробуйте чуть позже",
        "too-large": "запрос слишком велик (не больше {limit} байт)",
        "too-many-messages": "слишком много сообщений: не больше {rate} в секунду (подождите; если продолжать, связь закроется)",
        "too-many-requests": "слишком много запросов: не больше {rate} в секунду с одного адреса; подождите немного",
        "binary-message": "сообщения — это текст JSON, а не двоичные данные",
        "message-too-long": "сообщение слишком длинное (не больше {limit} байт)",
        "not-json": "сообщение — не JSON",
        "not-json-object": "запрос — не объект JSON",
        "nested-too-deeply": "сообщение слишком глубоко вложено",
        "message-invalid": "сообщение неверно",
        "unknown-field": "неизвестное поле {field}",
        "missing-field": "нет поля {field}",
        "message-type": "тип сообщения должен быть одним из: {types}",
        "field-problem": "поле {field} заполнено неверно",
        "problem": "запрос заполнен неверно",
        "more-problems": "{text} (и ещё ошибок: {n})",
        "no-position": "позиции {k} нет: позиции от 0 до {last} (сделано ходов)",
        "record-too-large": "запись слишком велика (не больше {limit} байт)",
        "record-too-large-kb": "запись слишком велика (не больше {kb} КБ)",
        "empty-file": "файл пуст: выберите запись партии (.json)",
        "record-refused": "правила не принимают эту запись: {reason}",
        "ply-whole": "номер позиции должен быть целым числом",
        "bad-ply": "позиции {ply} в этой партии нет (от 0 до {count})",
        "real-time-analysis": "{game} здесь идёт в реальном времени: компьютер разбирает только игры по ходам",
        "over-at-position": "в этой позиции партия окончена: искать ход не нужно",
        "analyses-busy": "компьютер занят другими анализами: попробуйте через несколько секунд",
        "analysis-too-long": "анализ может длиться не больше {limit} с, а не {seconds}",
        "analysis-failed": "компьютер не смог разобрать эту позицию ({error})",
        "analyses-yours": "у вас уже идут или ждут {count} анализа (не больше {most}): дождитесь ответа",
        "analysis-quota": "это больше вашей доли компьютера ({seconds} с анализа в минуту): попробуйте через {wait} с",
        "analysis-not-allowed": "компьютер разбирает партию, когда она окончена (или партию вдвоём за одним экраном)",
        "record-analysis-not-allowed": "компьютер разбирает запись, когда её партия окончена",
        "position-in-play": "эта позиция стоит на доске партии, которую сейчас играют против кого-то на этом сервере: "
        "компьютер разберёт её, когда та партия закончится",
        "finished-no-undo": "партия окончена ({result}): законченную партию не отменяют",
        "no-take-back": "этот ход нельзя отменить: {reason}",
        "clocks-not-kept": "часы той позиции не сохранились (партию сохранил прежний сервер)",
        "no-time-left": "у места {n} не осталось бы времени: его заработали отменяемые ходы",
        "a-card-table": "такой партии нет: это стол Омиги, по адресу {link}",
        "a-board-game": "такого стола нет: это партия с доской, по адресу {link}",
        "game-not-stored": "партию не удалось сохранить, поэтому она не создана",
        "game-not-read": "партию сейчас не удаётся прочитать",
        "seat-not-stored-now": "место не удалось сохранить, поэтому оно не занято",
        "move-not-made": "ход не удалось сохранить, поэтому он не сделан",
        "action-not-made": "действие не удалось сохранить, поэтому оно не сделано",
        "record-not-read": "запись сейчас не удаётся прочитать",
        "unavailable": "{what}: {reason}",
        "cannot-show": "сейчас это не показать: {reason}",
        "db-busy": "база данных занята: попробуйте чуть позже",
        "db-read-only": "база данных открыта только для чтения",
        "db-unwritable": "в файлы базы данных нельзя писать",
        "db-full": "диск с базой данных заполнен",
        "db-cannot-open": "базу данных не удаётся открыть",
        "db-damaged": "файл базы данных повреждён или это не база данных",
        "db-unreachable": "до базы данных не достучаться",
        "db-failed": "база данных дала сбой",
        "db-detail": "{meaning}",
        "seed-refused": "зерно тасования для стола, где играют против кого-то (бота или человека), сервер выбирает сам и "
        "тайно: не задавайте его (выбирать зерно можно только в «Дзене», где играют в одиночку)",
        "game-link": "дайте ссылку на партию (…/g/номер) или её номер",
        "upload-form": "отправьте запись через форму загрузки",
        "upload-multipart": "отправьте запись через форму загрузки (multipart/form-data)",
        "upload-unreadable": "форму загрузки не удалось прочитать",
        "upload-choose": "выберите файл записи для загрузки",
        # ----- records the rules check (an uploaded record) ------------------------------------------
        "record-wrong-mover": "в записи ходят {who}, но ход был за {colour:dat}",
        "record-leaves-out": "в записи нет {key}={value}, а правила это дают",
        "record-adds": "в записи есть {key}={value}, а правила этого не дают",
        "record-differs": "в записи {key}={value}, а по правилам {rules}",
        "record-no-captures": "запись не говорит, что взял этот ход (нет поля captures)",
        "record-unknown-fields": "неизвестные поля в записи хода: {fields}",
        "record-partial-turn": "предыдущий ход не закончен: неполным может быть только последний",
        "record-empty-move": "пустой ход",
        "record-turn-size": "за ход ставится камней: {n}, а не {given}",
        "record-cell-twice": "клетка названа дважды",
        "record-turn-written": "в записи ход записан как {given}, а правила пишут {made}",
        # ----- options of a new game ----------------------------------------------------------------
        "option-invalid": "настройка {name}={value} неверна: {want}",
        "at-least": "нужно не меньше {n}",
        "at-most": "нужно не больше {n}",
        "whole-number": "нужно целое число",
        "half-number": "нужно целое число или целое с половиной, например 3 или 3.5",
        "on-or-off": "нужно да или нет",
        "cells-invalid": "список клеток неверен: {reason}",
        "cells-too-few": "список клеток неверен: на доске должно быть хотя бы две клетки",
        "cells-not-connected": "список клеток неверен: клетки должны составлять одну связную доску",
        "stars-no-centre": "звёздные клетки {spec} неверны: у этой доски нет одной центральной клетки",
        "stars-none": "звёздные клетки {spec} неверны: они не называют ни одной клетки этой доски",
        "star-not-a-cell": "звёздные клетки неверны: {label} — не клетка этой доски",
        "star-twice": "звёздные клетки неверны: {label} названа дважды",
        "komi-with-choice": "коми {komi} нельзя задать, когда коми выбирают в игре: его выбирают чёрные первым действием",
        "komi-too-large": "коми {komi} слишком велико: не больше половины звёздных клеток, {most} (звёздных клеток: {stars})",
        "free-y-parity": "для свободного игрека нужно нечётное число клеток края (звёздных); стороны {a} и {b} дают {n}: "
        "возьмите длины сторон разной чётности",
        "odd-sides": "число сторон {m} не подходит: у доски Odd-Y нечётное число сторон (3, 5, 7, …)",
        "triangle-sides": "треугольная доска не подходит при {m} сторонах: у треугольника 3 стороны; выберите полярную",
        "form-invalid": "фигура {form} не подходит: {reason}",
        "unknown-form": "нет такой фигуры дзена: {name} (фигуры: {russian})",
        "record-not-json": "запись — не правильный JSON: {problem} (строка {line}, столбец {column})",
        "record-not-object": "запись партии — это объект JSON, а не {kind}",
        "record-format": "это не запись партии ogames: формат {given}, а нужен {format}",
        "record-lacks": "в записи нет полей: {fields}",
        "record-bad-game": "игра или настройки в записи неверны: {reason}",
        "record-bad-move": "ход {n} ({by} {move}) нельзя повторить: {reason}",
        "record-result": "итог в записи ({given}) не тот, что дают её ходы: {made}",
    },
}


def colour_words(value: str, form: str, language: str) -> str | None:
    """A colour (or a seat named by one, `white2`; a shared win, `white+black`) in a form of a
    language's words; None if the value is not a colour."""
    forms = COLOUR_FORMS.get(language, {})
    if "+" in value:
        parts = [colour_words(part, form, language) for part in value.split("+")]
        return None if None in parts else AND.get(language, " and ").join(part or "" for part in parts)
    base, number = value.rstrip("0123456789"), value[len(value.rstrip("0123456789")) :]
    if base not in forms:
        return None
    words = forms[base][FORMS.index(form) if form in FORMS else 0]
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
            return joined([self.format_field(item, format_spec) for item in value], AND.get(self.language, " and "))
        if isinstance(value, (list, tuple)):
            return ", ".join(self.format_field(item, format_spec) for item in value)
        if isinstance(value, str):
            if format_spec == "q":  # a quoted value ('a1', as `shown` writes it) in the language's quotes
                return QUOTES.get(self.language, "'{}'").format(value.strip("'\""))
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
    template = TEXTS.get(language, {}).get(text.key)
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


__all__ = ["COLOUR_FORMS", "TEXTS", "colour_words", "speaker", "word"]
