"""Layer 3: one versioned JSON record format for every game.

A record (made by `State.record()`) holds the game name and options, the players and the colour
each sat in at the end, every move with who made it and when, and the result. `replay` rebuilds
the state move by move through the rules, so a record that is corrupt or has been tampered with
(an illegal move, a wrong mover, a result the moves do not give) is rejected, naming what is wrong.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ogames.errors import BadOption, BadRecord, IllegalMove, OgamesError
from ogames.rules import load
from ogames.rules.protocol import RECORD_FORMAT, RECORD_VERSION, State

_TOP_KEYS = {"format", "version", "game", "options", "players", "seats", "moves", "result"}
_OPTIONAL_KEYS = {"meta"}


def replay(record: dict[str, Any] | str, upto: int | None = None) -> State:
    """The state a record describes (a dict, or its JSON text); BadRecord if it is not valid.

    With `upto`, only the first `upto` moves are replayed and the stored result is not checked.
    """
    if isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise BadRecord(f"the record is not valid JSON: {exc}") from None
    _check_shape(record)
    try:
        game = load(record["game"], **record["options"])
    except BadOption as exc:
        raise BadRecord(f"the record's game or options are not valid: {exc}") from None
    try:
        state = game.new_state(record["players"])
    except OgamesError as exc:
        raise BadRecord(f"the record's players do not fit the game: {exc}") from None
    moves = record["moves"] if upto is None else record["moves"][:upto]
    for number, entry in enumerate(moves, start=1):
        _check_entry(number, entry)
        try:
            state.replay_entry(entry)
        except (IllegalMove, OgamesError, KeyError, TypeError) as exc:
            raise BadRecord(f"move {number} ({entry.get('by')} {entry.get('move')!r}) cannot be replayed: {exc}") from None
    if upto is None:
        _check_outcome(record, state)
    return state


def save(state: State, path: str | Path) -> Path:
    """Write a state's record as JSON to a file."""
    path = Path(path)
    path.write_text(json.dumps(state.record(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def load_file(path: str | Path) -> dict[str, Any]:
    """Read a record from a JSON file (not yet checked: `replay` does that)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadRecord(f"cannot read the record {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadRecord(f"{path} is not valid JSON: {exc}") from None


def _check_shape(record: Any) -> None:
    if not isinstance(record, dict):
        raise BadRecord(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise BadRecord(f"not an ogames record: format is {record.get('format')!r}, expected {RECORD_FORMAT!r}")
    if record.get("version") != RECORD_VERSION:
        raise BadRecord(f"unsupported record version {record.get('version')!r} (this ogames reads version {RECORD_VERSION})")
    missing = _TOP_KEYS - record.keys()
    if missing:
        raise BadRecord(f"the record lacks {', '.join(sorted(missing))}")
    extra = record.keys() - _TOP_KEYS - _OPTIONAL_KEYS
    if extra:
        raise BadRecord(f"the record has unknown fields: {', '.join(sorted(map(str, extra)))}")
    if not isinstance(record["game"], str):
        raise BadRecord("the record's game must be a name")
    if not isinstance(record["options"], dict):
        raise BadRecord("the record's options must be an object")
    players = record["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRecord("the record's players must be a list of names")
    if not isinstance(record["seats"], dict):
        raise BadRecord("the record's seats must map colours to player names")
    if not isinstance(record["moves"], list):
        raise BadRecord("the record's moves must be a list")
    result = record["result"]
    if result is not None and not (
        isinstance(result, dict) and set(result) == {"winner", "reason"} and all(isinstance(v, str) for v in result.values())
    ):
        raise BadRecord("the record's result must be null or {winner, reason}")


def _check_entry(number: int, entry: Any) -> None:
    if not isinstance(entry, dict):
        raise BadRecord(f"move {number} is not an object")
    if not isinstance(entry.get("move"), str) or not isinstance(entry.get("by"), str):
        raise BadRecord(f"move {number} needs a move and who made it ('by')")
    t = entry.get("t")
    if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t)):
        raise BadRecord(f"move {number} has a bad timestamp {t!r}")


def _check_outcome(record: dict[str, Any], state: State) -> None:
    stored = record["result"]
    actual = None if state.result is None else {"winner": state.result.winner, "reason": state.result.reason}
    if stored != actual:
        raise BadRecord(f"the record's result {stored!r} is not what its moves give: {actual!r}")
    if record["seats"] != state.seats:
        raise BadRecord(f"the record's seats {record['seats']!r} are not what its moves give: {state.seats!r}")
