"""Records on the replay page: reading an uploaded record, drawing any of its positions, and the
computer's analysis of a position — the plain work behind the routes of `web/boards/review.py`.

A record is always checked by the rules (`ogames.replay`): an upload is replayed whole, and a
record a page sends back to draw one position is replayed up to it, so nothing is ever drawn that
the rules would not give. Everything here is blocking; the routes run it off the event loop.
"""

from __future__ import annotations

from typing import Any

import ogames
from ogames.draw import board_svg
from ogames.errors import BadRecord, OgamesError
from ogames.rules.omiga.contract import is_table_state
from ogames.rules.protocol import TURN_BASED, State, is_board_state
from ogames.web.core.common import Refusal
from ogames.web.core.names import move_words
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.messages import speaker, word
from ogames.wording import say


def read_upload(data: bytes, limit: int) -> dict[str, Any]:
    """The record an uploaded file holds, checked whole by the rules; Refusal with the reason
    (BadRecord's words) if it is too large, not JSON, or not a record the rules accept."""
    if len(data) > limit:
        raise Refusal(say("record-too-large", "the record is too large (at most {limit} bytes)", limit=limit), "too-large", 413)
    if not data.strip():
        raise Refusal(say("empty-file", "the file is empty: choose a game record (.json)"), "bad-record", 422)
    try:
        record: dict[str, Any] = ogames.records.loads(data)
        ogames.replay(record)
    except BadRecord as exc:
        raise Refusal(not_accepted(exc), "bad-record", 422) from None
    return record


def plies(record: dict[str, Any]) -> int:
    """How many entries (moves, turns) a record has: its positions are 0 to this."""
    moves = record.get("moves") if isinstance(record, dict) else None
    return len(moves) if isinstance(moves, list) else 0


def state_at(record: Any, ply: Any) -> State:
    """The position after the first `ply` entries of a record (its end: the whole record, so the
    result is there); Refusal if the record is not accepted or the ply is not one of its positions."""
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise Refusal(say("ply-whole", "ply must be a whole number"), "invalid", 422)
    count = plies(record)
    if not 0 <= ply <= count:
        raise Refusal(say("bad-ply",
                          "ply {ply} is not a position of this game (0 to {count})", ply=ply, count=count), "bad-ply", 422)
    try:
        return ogames.replay(record) if ply == count else ogames.replay(record, upto=ply)
    except BadRecord as exc:
        raise Refusal(not_accepted(exc), "bad-record", 422) from None


def not_accepted(exc: BadRecord) -> str:
    """A record the rules refused, and why."""
    return say("record-refused", "this is not a record the rules accept: {reason}", reason=exc.said)


def position(record: Any, ply: Any, language: str = ENGLISH) -> dict[str, Any]:
    """What the replay page shows at a ply: the board drawn by `ogames.draw`, the move that led
    there (`move`, and as the page shows it, `move_text`), who is to move — the colour of the next
    stone (`to_move`) and of the player placing it (`player`: in Omega a seat places a stone of
    every colour, so they differ) — and the result at the end (in `language`)."""
    state = state_at(record, ply)
    entry = record["moves"][ply - 1] if ply > 0 else {}
    result = state.result
    return {
        "ply": ply,
        "plies": plies(record),
        "svg": board_svg(state, speak=speaker(language)),
        "move": entry.get("move"),
        **({} if language == ENGLISH else {"move_text": move_words(entry.get("move"), language)}),
        "by": entry.get("by"),
        "to_move": None if state.is_over else state.to_move,
        "player": None if state.is_over else player_colour(state),
        "over": state.is_over,
        "result": None if result is None else {"winner": result.winner, "reason": word(result.reason, language),
                                               "text": word(result.describe(), language)},
    }


def player_colour(state: State) -> str | None:
    """The colour of the seat that moves next (its first, when it holds several)."""
    return next((colour for colour, seat in state.owner.items() if seat == state.mover), state.to_move)


def analysable(state: State) -> None:
    """Refusal unless the computer can search this position (a turn-based game still going)."""
    if state.game.dynamics != TURN_BASED:
        raise Refusal(say("real-time-analysis", "{game} here is played in real time: the computer analyses turn-based games",
                          game=state.game.title), "bad-game", 422)
    if state.is_over:
        raise Refusal(say("over-at-position", "the game is over at this position: there is no move to find"), "over", 422)


def move_cells(state: State, move: str) -> list[str]:
    """The board cells a move names (`c3`; Omega `c3 d4`; Omiga `place … at c3`)."""
    if is_board_state(state):
        board = state.board
    elif is_table_state(state):
        board = state.table.board
    else:
        return []
    words = move.replace(":", " ").replace(",", " ").split()
    return [word for word in words if board.has(word)]


def analysis_view(state: State, found: dict[str, Any], language: str = ENGLISH) -> dict[str, Any]:
    """The worker's findings for the page: the figures, the best move and the expected line as the
    page shows them (`move_text`, `pv_text`), and the board with the best move marked (outlined,
    and a half-transparent stone of the mover's colour on it), in `language`."""
    move = str(found["move"])
    cells = move_cells(state, move)
    preview = (cells[0], str(state.to_move)) if len(cells) == 1 and state.to_move else None
    speak = speaker(language)
    try:
        svg = board_svg(state, highlight=cells, preview=preview, speak=speak)
    except OgamesError:
        svg = board_svg(state, speak=speak)
    texts = {} if language == ENGLISH else {"move_text": move_words(move, language),
                                            "pv_text": [move_words(step, language) for step in found.get("pv") or []]}
    return {**found, **texts, "to_move": state.to_move, "cells": cells, "svg": svg}


__all__ = ["analysable", "analysis_view", "move_cells", "plies", "position", "read_upload", "state_at"]
