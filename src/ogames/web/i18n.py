"""The pages' words: English written here, each under the key the templates and the page scripts
name it by; their translations in gettext catalogues (`ogames/locale/<language>/LC_MESSAGES/
ogames.po`, read by `web/catalogue.py`; docs/translating.md says how to add and update them).

Templates write most of their words in place, through Jinja's i18n extension (`{{ _("New game")
}}`, `install`); the words here are the ones the page scripts and the server's code need by key.
A language shows its catalogue's text for a key, and the English for a key it has not translated.
A text with a number in it has a form for each plural category of its language; the pages' dicts
join them by "|" in the order of the language's `plural_forms` (CLDR's categories for whole
numbers), which the page scripts read (static/words.js).
"""

from __future__ import annotations

from functools import cache

from babel import Locale
from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from ogames.web.catalogue import N_, NP_, plural_order, text, translations

LANGUAGES = {"en": "English", "ru": "Русский"}
DEFAULT = "en"

# The English of every word, by key (a text with forms by number: its singular and plural).
ENGLISH: dict[str, str | tuple[str, str]] = dict([
    N_("games", "Games"),
    N_("play", "Play"),
    N_("start", "Start the game"),
    N_("recent", "Recent games"),
    N_("rules", "Rules"),
    N_("options", "Options"),
    N_("default", "default"),
    N_("range", "from {min} to {max}"),
    N_("yes", "yes"),
    N_("no", "no"),
    N_("who", "Who plays"),
    N_("hotseat", "Two people on this screen (hotseat)"),
    N_("seat", "seat {n}"),
    N_("level", "Computer level"),
    N_("level_choice", "{n} · {word}"),
    N_("skill_1", "beginner"),
    N_("skill_2", "novice"),
    N_("skill_3", "casual"),
    N_("skill_4", "improving"),
    N_("skill_5", "average"),
    N_("skill_6", "good"),
    N_("skill_7", "strong"),
    N_("skill_8", "expert"),
    N_("skill_9", "master"),
    N_("skill_10", "strongest"),
    N_("computer_level", "computer (level {n})"),
    N_("bot_level", "bot level"),
    N_("to_move", "{colour} to move"),
    N_("places_stone", "{player} to move: the {colour} stone, {i} of {n}"),
    N_("your_turn", "your turn"),
    N_("your_move_title", "Your move"),
    N_("sound_on_move", "Sound when it is my move"),
    N_("abort", "Abort"),
    N_("confirm_abort", "Abort the game? It ends with no result."),
    N_("aborted", "The game was aborted: no result."),
    N_("claim_win", "Claim the win: {name} has left"),
    N_("claim_in", "{name} has left: you may claim the win in {s} s"),
    N_("days_left", "{d} d {h} h"),
    N_("hours_left", "{h} h {m} min"),
    N_("move_by", "Move by {time}"),
    N_("thinking", "the computer is thinking…"),
    N_("watching", "You are watching this game."),
    N_("moves", "Moves"),
    N_("result", "Result"),
    N_("resign", "Resign"),
    N_("confirm_resign", "Really resign?"),
    N_("score", "score"),
    N_("komi", "komi"),
    N_("choose_komi", "Choose this komi"),
    N_("connected", "live"),
    N_("away", "not here"),
    N_("disconnected", "reconnecting…"),
    N_("game_over", "The game is over."),
    N_("not_yours", "It is not your turn."),
    N_("not_legal_here", "{move} is not a legal move here."),
    N_("last_played", "{colour} played {move}."),
    N_("wait_computer", "Wait for the computer's move."),
    N_("home", "Home"),
    N_("players", "Players"),
    N_("computer", "computer"),
    N_("person", "person"),
    N_("ply", "move {n}"),
    NP_("moves_n", "{n} move", "{n} moves"),
    NP_("days_n", "{n} day", "{n} days"),
    NP_("days_per_move", "{n} day per move", "{n} days per move"),
    N_("mode_hotseat", "hotseat"),
    N_("mode_ai", "vs computer"),
    N_("over", "over"),
    N_("playing", "playing"),
    N_("language", "Language"),
    N_("error", "Error"),
    N_("back", "Back"),
    N_("special_moves", "Special moves"),
    N_("swap", "Swap (take the first stone)"),
    N_("c_black", "Black"),
    N_("c_white", "White"),
    N_("c_red", "Red"),
    N_("c_blue", "Blue"),
    N_("won", "{colour} won"),
    N_("draw", "Drawn"),
    N_("stored_at", "Games are stored on this server; the link of a game is permanent."),
    # the board and what is shown beside it (web/board.py, static/board.js)
    N_("position_of", "Position after move {k} of {n} (looking back, read-only)"),
    NP_(
        "start_position",
        "Start position, before the move played (looking back, read-only)",
        "Start position, before the {n} moves played (looking back, read-only)",
    ),
    N_("reviewing", "This is an earlier position: go back to the game to move."),
    N_("groups_line", "{colour}: groups {groups} = score {score}"),
    N_("groups_none", "{colour}: no stones yet (score {score})"),
    N_("placing", "{player} places the {colour} stone: {i} of {n} this turn"),
    NP_("star_cells", "{n} star cell (★)", "{n} star cells (★)"),
    N_("region_line", "{colour}: the best group's largest region holds {best} ★; a win needs at most {limit}"),
    N_("region_none", "{colour}: no stones yet; a win needs at most {limit} ★ in every region"),
    N_("captured_total", "Stones captured so far: {list}"),
    N_("captured_now", "The last move captured {cells}"),
    N_("captured_short", "× {cells}"),
    N_("winning_outlined", "The winning group is outlined on the board."),
    N_("winner_outlined", "The winner's stones are outlined on the board."),
    # pages beyond the board (web/pages.py): home lists, rules, replay, analysis
    N_("open_games", "Open games: a seat is waiting for you"),
    N_("join", "Join"),
    N_("finished", "Finished games"),
    N_("replay", "Replay"),
    N_(
        "sum_omny",
        "Take turns placing stones. Win with a group that cuts the board into pieces none of which holds more "
        "than half the star cells — the Game of Y, a ring game and more in one rule.",
    ),
    N_(
        "sum_oddy",
        "Take turns placing stones on a board with an odd number of sides. Win with a group touching sides spread "
        "around the board (on a triangle: all three sides, the Game of Y).",
    ),
    N_(
        "sum_omega",
        "For 2–4 players. Each turn you place one stone of every colour. A colour scores the product of its group "
        "sizes: keep yours in several groups, lump your opponents' together.",
    ),
    N_(
        "sum_onyx",
        "Place stones on the points of a lattice of squares and triangles to connect your two edges. Fill the "
        "corners of a square around two enemy stones to capture them.",
    ),
    N_(
        "sum_omiga",
        "A real-time card game: lay fitting cards as fast as you can, build a chain to the far edge or slip a "
        "card behind an opponent's card.",
    ),
    N_("position", "position {n} of {total}"),
    N_("replay_start", "the start"),
    N_("after_move", "after {move} by {colour}"),
    N_("first", "First position"),
    N_("previous", "Previous move"),
    N_("next", "Next move"),
    N_("last", "Last position"),
    N_("analysis", "Analysis"),
    N_("analyse", "Analyse this position"),
    N_("seconds", "Thinking time"),
    N_("analysing", "the computer is analysing…"),
    N_("best_move", "Best move"),
    N_("win_chance", "{colour}'s chance to win"),
    N_("rough", "few playouts: a rough estimate"),
    N_("proven_win", "a proven win"),
    N_("proven_loss", "a proven loss"),
    N_("line", "Expected line"),
    # The computer's review of a finished game (templates/_game_review.html, static/game_review.js)
    N_("review_title", "Computer review"),
    N_("review_loading", "Looking for the computer's review…"),
    N_("review_ask", "Ask the computer for a review"),
    N_("review_none", "Nobody has asked for this game's review yet."),
    N_("review_pending", "The computer is reviewing this game…"),
    N_("review_progress", "The computer is reviewing this game: {done} of {total} positions…"),
    N_("review_failed", "The review could not be made ({reason})."),
    N_("review_graph", "Each side's chance to win, move by move"),
    N_("review_link", "Computer review"),
    N_("mark_good", "good move"),
    N_("mark_inaccuracy", "inaccuracy"),
    N_("mark_mistake", "mistake"),
    N_("mark_blunder", "blunder"),
    N_("review_better", "Better: {move}"),
    N_("review_best_played", "The computer's choice too."),
    N_("review_choice", "The computer's own choice: {move}."),
    N_("review_chances", "{colour}'s chance: {before}% → {after}%"),
    N_("review_proven_win", "{colour} had a proven win here."),
    N_("review_proven_loss", "{colour} had a proven loss here."),
    N_("review_start", "Click a point of the graph or a move to see what the computer thought of it."),
    N_("practise", "Practise the mistakes ({n})"),
    N_("practise_find", "{colour} to play: the game went on with {played}. Click a better move."),
    N_("practise_right", "Right: {move} is the computer's move."),
    N_("practise_played", "That is the move played here: look for a better one."),
    N_("practise_other", "The computer prefers another move here. Try again, or see it."),
    N_("practise_show", "See it"),
    N_("practise_next", "Next mistake"),
    N_("practise_done", "Done: found {found} of {n} without seeing them."),
    NP_("searched", "{n} playout in {s} s", "{n} playouts in {s} s"),
    N_("c_green", "Green"),
    N_("c_yellow", "Yellow"),
    # Omiga's card tables (web/omiga_*.py, templates/omiga*.html, static/omiga*.js)
    N_("seat_here", "me, in this browser"),
    N_("seat_invite", "a friend (invitation link)"),
    N_("seat_bot", "a bot"),
    N_("bot_strategy", "bot strategy"),
    N_("bot_speed", "bot speed"),
    N_("bot_racer", "racer"),
    N_("bot_rollout", "rollout (strongest)"),
    N_("bot_greedy", "greedy"),
    N_("bot_random", "random"),
    N_("speed_toddler", "toddler (5 s a card)"),
    N_("speed_child", "child (3 s)"),
    N_("speed_casual", "casual (2 s)"),
    N_("speed_club", "club (1.2 s)"),
    N_("speed_expert", "expert (0.7 s)"),
    N_("speed_champion", "champion (0.4 s)"),
    N_("speed_machine", "machine (0.05 s)"),
    N_("variant_base", "base game"),
    N_("variant_2v2", "2 against 2"),
    N_("variant_kids", "kids"),
    N_("variant_toddler", "toddler"),
    N_("variant_zen", "zen"),
    N_("opt_variant", "mode"),
    # the board games' option names on their new-game form
    N_("label_board", "board"),
    N_("label_cells", "cells"),
    N_("label_komi", "komi"),
    N_("label_komi_choice", "komi choice"),
    N_("label_match", "match"),
    N_("label_pie", "pie"),
    N_("label_players", "players"),
    N_("label_shape", "shape"),
    N_("label_sides", "sides"),
    N_("label_size", "size"),
    N_("label_stars", "stars"),
    N_("label_variant", "variant"),
    N_("your_hand", "Your hand"),
    N_("empty_hand", "No cards in hand."),
    N_("choose_card", "Choose a card in your hand first."),
    N_("signal_in", "Omiga! in {n}…"),
    N_("waiting_players", "Waiting for every player to open the table…"),
    N_("play_now", "Play! Lay your cards as fast as you can."),
    N_("not_here", "not here yet"),
    N_("you", "you"),
    N_("in_hand", "{n} in hand"),
    N_("deck_n", "deck {n}"),
    N_("deck_white_n", "White deck {n}"),
    N_("deck_black_n", "Black deck {n}"),
    N_("discards_n", "discards {n}"),
    N_("round_n", "round {n}"),
    NP_("target_n", "{n} point wins", "{n} points win"),
    N_("act_discard", "Discard the hand"),
    N_("act_start", "Start with"),
    N_("act_draw", "Draw"),
    N_("act_end", "End the round"),
    N_("turned", "turned"),
    NP_("zen_progress", "{n} of {m} card laid", "{n} of {m} cards laid"),
    N_("zen_possible", "Solvable: the solver found a layout."),
    N_("zen_impossible", "Not solvable: no set of cards completes this form."),
    N_("zen_unknown", "The solver could not decide."),
    N_("zen_build", "Build the form: start, draw, lay cards, end the round."),
    N_("zen_done", "The form is complete!"),
    N_("zen_lost", "The decks ran out before the form was complete."),
    N_("hint", "Hint"),
    N_("hint_place", "Lay the lit card on the lit cell, {cell}, as it is."),
    N_("hint_place_turned", "Turn the lit card and lay it on the lit cell, {cell}."),
    N_("hint_press", "Press the lit button: {action}."),
    # a line of Omiga's move list: {card} is the card's small drawing, never its number
    N_("mv_place", "{card} on {cell}"),
    N_("mv_start", "started with {card} on {cell}"),
    N_("mv_discard", "discarded"),
    N_("mv_discard_card", "discarded {card}"),
    N_("mv_draw", "drew from the {colour} deck"),
    N_("mv_end", "ended the round"),
    N_("mv_resign", "resigned"),
    N_("level_easy", "easy"),
    N_("level_medium", "medium"),
    N_("level_hard", "hard"),
    N_("level_impossible", "impossible"),
    N_("invitations", "Invitations"),
    N_("copy", "Copy"),
    N_("mode_realtime", "real time"),
    N_("mode_turns", "in turns"),
    N_("score_title", "Score"),
    N_("zen_player", "Player"),
    N_("bot_climber", "climber"),
    N_("who_here", "a person on this screen"),
    N_("who_invite", "a friend, by an invitation link"),
    N_("who_open", "anyone (listed as an open game)"),
    N_("who_computer", "computer, level {n} · {word}"),
    N_("clock", "Clock"),
    N_("clock_minutes", "Minutes per player (empty: no clock)"),
    N_("clock_increment", "Seconds added after each move (Fischer increment)"),
    N_("invite_seat", "Link for seat {n}"),
    N_("copy_link", "Copy"),
    N_("copied", "Copied"),
    N_("take_seat", "Take seat {n}"),
    N_("open_seat", "waiting for a player"),
    N_("invited", "invited"),
    N_("undo", "Undo"),
    N_("hint", "Hint"),
    N_("hint_button", "Hint ({left} of {limit} left)"),
    N_("hints_none", "No hints left"),
    N_("hint_looking", "the computer looks for the best move…"),
    N_("hint_shown", "Hint: {move}"),
    N_("mode_online", "online"),
    N_("mode_seats", "Choose each seat"),
    N_("undo_asked", "{name} asks to take back their last move."),
    N_("undo_waiting", "You asked to take back your last move: waiting for the others to agree."),
    N_("accept", "Accept"),
    N_("decline", "Decline"),
    N_("undo_declined", "Your request to take back your move was declined."),
    N_("confirm_hint", "{cell} selected: tap or click it again to play."),
    N_("confirm_play", "Play {cell}"),
    N_("cancel", "Cancel"),
    N_("confirm_lay_hint", "{cell} chosen: tap or click it again to lay the card there."),
    N_("confirm_lay", "Lay on {cell}"),
    # option choices and names beyond the form's own words (common.options_text, _options.html)
    N_("variant_sunder", "sunder"),
    N_("variant_y", "y"),
    N_("variant_gyre", "gyre"),
    N_("variant_free-y", "free-y"),
    N_("variant_custom", "custom"),
    N_("choice_shape_triangle", "triangle"),
    N_("choice_shape_hexagon", "hexagon"),
    N_("choice_shape_rhombus", "rhombus"),
    N_("choice_shape_irregular", "irregular"),
    N_("choice_board_triangle", "triangle"),
    N_("choice_board_polar", "polar"),
    N_("choice_pace_realtime", "realtime"),
    N_("choice_pace_turns", "turns"),
    N_("choice_cards_standard", "standard"),
    N_("opt_width", "width"),
    N_("opt_height", "height"),
    N_("opt_turning", "turning"),
    N_("opt_seed", "seed"),
    N_("opt_players", "players"),
    N_("opt_form", "form"),
    N_("opt_target", "target"),
    N_("opt_pace", "pace"),
    N_("opt_cards", "cards"),
    # moves and seats as the pages name them (web/names.py, static/game.js, static/omiga.js)
    N_("komi_value", "komi={k}"),
    N_("take_colour", "swap {colour}"),
    N_("seat_player", "player"),
    N_("seat_player_n", "player {n}"),
    N_("clock_t", "t = {s} s"),
    N_("seconds_short", "{s} s"),
    N_("act_start_white", "Start with white"),
    N_("act_start_black", "Start with black"),
    N_("act_draw_white", "Draw white"),
    N_("act_draw_black", "Draw black"),
    N_("move_swap", "swap"),
    N_("move_swap_colour", "swap {colour}"),
    N_("move_resign", "resign"),
    N_("move_lost_on_time", "lost on time"),
    # the game's chat (static/chat.js)
    N_("chat", "Chat"),
    N_("chat_players", "Players"),
    N_("chat_spectators", "Spectators"),
    N_("chat_send", "Send"),
    N_("chat_placeholder", "Say something…"),
    N_("chat_mute", "Mute"),
    N_("chat_muted", "Muted in this browser: {names}"),
    N_("chat_unmute", "Show them again"),
    N_("chat_hidden", "An operator hid this game's chat."),
    N_("chat_nothing", "Nothing said yet."),
    N_("chat_report", "Report this game"),
    N_("chat_report_reason", "Why do you report this game? (the operators read it)"),
    N_("chat_reported", "Thank you: the operators will look at this game."),
    # the opening explorer (templates/explore*.html)
    NP_("explore_book_games", "{n} game in the book", "{n} games in the book"),
    NP_("explore_games", "{n} game from here", "{n} games from here"),
])


def choice(t: dict[str, str], option: str, value: object) -> str:
    """The words for one choice of an option (`choice_shape_hexagon`; a variant, `variant_gyre`), or
    the value itself."""
    return t.get(f"choice_{option}_{value}") or t.get(f"variant_{value}") or str(value)


def option_label(t: dict[str, str], option: str) -> str:
    """An option's name in a language's words (the board games' `label_…`, Omiga's `opt_…`)."""
    return t.get(f"label_{option}") or t.get(f"opt_{option}") or option.replace("_", " ")


def words(language: str) -> dict[str, str]:
    """Every key's text in a language (English where the language lacks a key); forms by number
    joined by "|" in the order of `plural_forms`, which the dict holds too."""
    return dict(_words(language if language in LANGUAGES else DEFAULT))


@cache
def _words(language: str) -> tuple[tuple[str, str], ...]:
    found = {"plural_forms": "|".join(plural_order(language))}
    for key, english in ENGLISH.items():
        singular = english if isinstance(english, str) else english[0]
        translated = text(language, key, singular) or english
        found[key] = translated if isinstance(translated, str) else "|".join(translated)
    return tuple(found.items())


def plural_category(n: int, language: str) -> str:
    """The CLDR plural category of a whole number in a language (Babel's CLDR data; the pages'
    scripts ask the browser's `Intl.PluralRules`, and a browser test checks they agree)."""
    return str(Locale.parse(language).plural_form(abs(n)))


def plural(n: int, forms: str, language: str, **values: object) -> str:
    """A text's form for the number n, filled in (`{n}` and the other values):

    >>> plural(1, "{n} move|{n} moves", "en"), plural(21, "{n} ход|{n} хода|{n} ходов", "ru")
    ('1 move', '21 ход')
    >>> plural(3, "{n} ход|{n} хода|{n} ходов", "ru"), plural(12, "{n} ход|{n} хода|{n} ходов", "ru")
    ('3 хода', '12 ходов')
    """
    order = words(language)["plural_forms"].split("|")
    choices = forms.split("|")
    category = plural_category(n, language)
    index = order.index(category) if category in order else len(choices) - 1
    return choices[min(index, len(choices) - 1)].format(n=n, **values)


def pick(requested: str | None, accept: str | None = None) -> str:
    """The language to show: the one asked for if known, else the browser's first known one, else English."""
    if requested in LANGUAGES:
        return requested
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT


def install(environment: Environment) -> None:
    """Jinja's i18n extension on a template environment, speaking the page's language (the
    template's `lang`): `_()`, `gettext`, `ngettext`, `pgettext`, `npgettext` and `{% trans %}`."""
    if "jinja2.ext.InternationalizationExtension" not in environment.extensions:
        environment.add_extension("jinja2.ext.i18n")
        environment.install_gettext_callables(  # type: ignore[attr-defined]
            _gettext, _ngettext, newstyle=False, pgettext=_pgettext, npgettext=_npgettext
        )


def _language(context: Context) -> str:
    language = context.get("lang")
    return language if isinstance(language, str) and language in LANGUAGES else DEFAULT


@pass_context
def _gettext(context: Context, message: str) -> str:
    return translations(_language(context)).gettext(message)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, n: int) -> str:
    return translations(_language(context)).ngettext(singular, plural, n)


@pass_context
def _pgettext(context: Context, key: str, message: str) -> str:
    return str(translations(_language(context)).pgettext(key, message))


@pass_context
def _npgettext(context: Context, key: str, singular: str, plural: str, n: int) -> str:
    return str(translations(_language(context)).npgettext(key, singular, plural, n))
