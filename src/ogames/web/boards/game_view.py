"""What everyone watching a board game sees (`view`: no secrets, so every watcher gets the same
one: a `views.GameView`), with the board's drawing for a page that takes no deltas (`drawn`),
and the position's facts made ahead, off the event loop for a large board, from the position
shown before (`live_position`)."""

from __future__ import annotations

from typing import Any, Literal

from ogames.rules.protocol import State
from ogames.web.boards.board import Position, board_part, cells, position_drawn, position_facts
from ogames.web.boards.endings import abort_refusal, claims
from ogames.web.boards.live import (
    HUMAN,
    INVITED,
    OPEN,
    LiveGame,
    describe_result,
    may_analyse,
    may_rematch,
    on_time_reason,
    undo_seats,
)
from ogames.web.boards.views import (
    ClaimView,
    ClockView,
    GameView,
    HintsView,
    RematchView,
    ResultView,
    SeatView,
    UndoRequestView,
)
from ogames.web.core.common import heavy
from ogames.web.core.computer import level_shown
from ogames.web.core.names import move_words, seat_name
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.messages import word
from ogames.web.ratings.views import RatingChangeView

SMALL_BOARD = 250  # cells: a position of a board up to this size is drawn on the event loop (milliseconds)

def large(state: State) -> bool:
    """Whether a state's board is large enough that its views are made off the event loop."""
    return cells(state) > SMALL_BOARD

def live_position(live: LiveGame, language: str = ENGLISH) -> Position:
    """The facts of a live game's position in a language (`board.position_facts`), made from those
    of the position its views showed last: a move costs what it changed, not what the game holds."""
    state = live.state
    position = position_facts(state, language, live.positions.get(language))
    live.positions[language] = (state, position)
    return position


async def draw_position(live: LiveGame, language: str = ENGLISH) -> None:
    """Make a live game's position's facts (`live_position`) before a view of it is made: at once
    for a small board or a position made already, else in the thread of heavy work (a 25-sided polar
    board takes a second), so that the event loop serves every other game meanwhile."""
    if large(live.state) and not position_drawn(live.state, language):
        await heavy(live_position, live, language)
    else:
        live_position(live, language)


def view(live: LiveGame, language: str = ENGLISH) -> GameView:
    """What everyone watching a game sees (no secrets): position, turn, moves, result, seats; its
    sentences, names and drawing in `language` (the JSON API's views are English). Its parts are
    typed as they are made (each move's once, when it is made); the whole is put together from them
    without walking its lists again (`model_construct`): the tests check every field of it."""
    state = live.state
    position = live_position(live, language)  # made once per position (Hub.prepare: off the loop for a large board)
    over = live.ended  # a result, or aborted
    mover = None if over else state.mover
    computer_to_move = live.is_computer(mover)
    moves = position.moves
    if moves and live.clock is not None and live.clock.flagged is not None:
        lost = {"move": "lost on time"}  # the record writes it as a resignation
        if language != ENGLISH:
            lost["text"] = move_words("lost on time", language)
        moves = [*moves[:-1], moves[-1].model_copy(update=lost)]
    offered = not over and not computer_to_move
    legal, specials = (position.legal, position.specials) if offered else ([], [])
    seats = seat_views(live, language)
    result = state.result
    late = on_time_reason(live)
    asker = live.pending_undo()
    may_undo = undo_seats(live)
    return GameView.model_construct(
        type="state",
        id=live.id,
        game=state.game.name,
        title=state.game.title,
        options=state.game.jsonable_options(),
        mode=live.mode,
        colours=list(state.game.colours),
        ply=state.ply,
        version=live.version,
        over=over,
        to_move=None if over else state.to_move,
        mover=mover,
        seats=seats,
        moves=moves,
        stones=position.stones,
        last=position.last,
        legal=legal,
        specials=specials,
        winning=position.winning,
        scores=_plain(state.scores),
        result=None if result is None else ResultView(
            winner=result.winner,
            reason=word(late or result.reason, language),
            text=word(describe_result(live), language),
            on_time=bool(late),
        ),
        thinking=live.thinking,
        problem=None if live.problem is None else word(live.problem, language),
        board=position.board,
        clock=None if live.clock is None else ClockView(**live.clock.view(mover)),
        undo=bool(may_undo),
        undo_seats=may_undo,  # the page offers Undo to a browser holding one of these seats
        undo_request=None if asker is None else UndoRequestView(seat=asker, agreed=sorted(live.undo_agreed)),
        undo_declined=live.declined_undo(),  # the seat whose request the others declined just now
        analysis=may_analyse(live),
        present=sorted(live.present),  # seats with a page open, on every server process
        pages=live.pages,
        aborted=live.aborted,  # ended before every person had moved: no result
        abort=abort_refusal(live) is None,  # the page offers Abort (web/boards/endings.py)
        # People away from a live game: the win may be claimed over them (web/boards/endings.py).
        claims=[ClaimView(**claim) for claim in claims(live)],
        rated=live.rated,  # its end changes the players' ratings (web/ratings/)
        # Once a rated game is rated: each person's rating before and after, seat by seat (web/ratings/finish.py).
        ratings=None if live.rating_changes is None else [RatingChangeView(**change) for change in live.rating_changes],
        # Who has offered a rematch, and the new game once made: pushed to both players' pages (web/lobby/rematch.py).
        rematch=RematchView(offered=sorted(live.rematch.offered), game=live.rematch.game) if may_rematch(live) else None,
        # A learner's hints, in a casual game against the computer only (web/boards/learner_hints.py).
        hints=None if not live.hint_limit else HintsView(used=live.hints_used, left=max(0, live.hint_limit - live.hints_used),
                                                          limit=live.hint_limit),
    )

SeatKind = Literal["person", "invited", "open", "computer"]
SEAT_KINDS: dict[str, SeatKind] = {HUMAN: "person", INVITED: "invited", OPEN: "open"}


def seat_views(live: LiveGame, language: str) -> list[SeatView]:
    """Who sits where, as the views show it: made again only when a seat, its kind or its colours
    change (a seat taken, a swap), so that a view's seats are the very same list as the last one's."""
    state = live.state
    key = (tuple(state.players), tuple(state.owner.items()), tuple(live.seat_kinds))
    kept = live.seats_shown.get(language)
    if kept is not None and kept[0] == key:
        return kept[1]
    seats = []
    for seat, name in enumerate(state.players):
        colours = [colour for colour, owner in state.owner.items() if owner == seat]
        kind = live.seat_kinds[seat]
        computer = live.is_computer(seat)
        shown_kind: SeatKind = "computer" if computer else SEAT_KINDS[kind]
        level = level_shown(kind) if computer else None  # None: a person, or a computer stored before levels
        seats.append(SeatView(seat=seat, name=seat_name(name, language), computer=computer, level=level, colours=colours,
                              kind=shown_kind))
    live.seats_shown[language] = (key, seats)
    return seats


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def drawn(live: LiveGame, shown: GameView, language: str = ENGLISH) -> GameView:
    """A view of a game with its board's drawing (`board.board_part`, made once per position and
    language): what the JSON API answers and a page that takes no deltas is sent."""
    if not shown.board.model_fields_set:
        return shown
    board = shown.board.model_copy(update={"svg": board_part(live.state, language)["svg"]})
    return shown.model_copy(update={"board": board})


__all__ = ["SMALL_BOARD", "draw_position", "drawn", "large", "live_position", "view"]
