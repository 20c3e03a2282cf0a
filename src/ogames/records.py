"""Layer 3: one versioned JSON record format for every game, written and read here only.

A record (made by `State.record()`, which also names the format and version) holds the game name and its settled
options, the players and the colour each sat in at the end, every move with who made it and
(optionally) when, and the result:

    {"format": "ogames-record", "version": 1, "game": "omny", "options": {...},
     "players": ["ann", "bob"], "seats": {"black": "ann", "white": "bob"},
     "moves": [{"move": "c3", "by": "black", "t": 1718000000.123}, ...],
     "result": null | {"winner": "black", "reason": "..."}, "meta": {...}}

Moves carry what the rules give beside the move (an Omny or Odd-Y winning `group`, Onyx
`captures`, an Omiga `card`). `t` is optional: a move recorded without a time stays without one.
`meta` is written only by the real-time Omiga modes (their rejected actions, `meta.rejected`).

`replay` rebuilds the state move by move through the rules, so a record that is corrupt or has
been tampered with (an illegal move, a wrong mover, a detail the rules do not give, a result the
moves do not give) is rejected with `BadRecord` naming what is wrong — and nothing else is ever
raised, whatever the input. A record is accepted only whole: the rebuilt state writes back
exactly the record it was given (the same JSON), so replay never adds what a record lacks nor
drops what it has.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ogames.errors import BadRecord, IllegalMove, OgamesError, shown
from ogames.rules import load
from ogames.rules.protocol import REAL_TIME, RECORD_FORMAT, RECORD_VERSION, State
from ogames.wording import say

MAX_RECORD_BYTES = 20_000_000  # a record file or text larger than this is refused unread
MAX_DEPTH = 32  # nesting of JSON arrays and objects (real records nest 4 deep)
MAX_DIGITS = 40  # digits of a whole number in a record

_TOP_KEYS = {"format", "version", "game", "options", "players", "seats", "moves", "result"}
_OPTIONAL_KEYS = {"meta"}
_REJECTED_KEYS = {"move", "by", "t", "reason"}


# ----- writing (`State.record()` makes the dict) ---------------------------------------------


def dumps(record: dict[str, Any]) -> str:
    """A record as the JSON text `save` writes."""
    return json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def save(state: State, path: str | Path) -> Path:
    """Write a state's record as JSON to a file (OSError if the file cannot be written)."""
    path = Path(path)
    path.write_text(dumps(state.record()), encoding="utf-8")
    return path


# ----- reading --------------------------------------------------------------------------------


def loads(text: str | bytes | bytearray) -> Any:
    """JSON text (or UTF-8 bytes) as plain values; BadRecord if it is not strict JSON of a sane
    size: no NaN or Infinity, no key twice in an object, no number too large, not nested deeper
    than MAX_DEPTH, at most MAX_RECORD_BYTES long."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_RECORD_BYTES:
            raise BadRecord(f"the record is too large: {len(text)} bytes (at most {MAX_RECORD_BYTES})")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadRecord(f"the record is not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x})") from None
    if len(text) > MAX_RECORD_BYTES:
        raise BadRecord(f"the record is too large: {len(text)} characters (at most {MAX_RECORD_BYTES})")
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark some editors write
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_int=_whole, parse_float=_finite, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise BadRecord(say("record-not-json", "the record is not valid JSON: {problem} (line {line}, column {column})",
                            problem=exc.msg, line=exc.lineno, column=exc.colno)) from None
    except RecursionError:
        raise BadRecord(f"the record is not a game record: it is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except _JunkNumber as exc:
        raise BadRecord(f"the record is not valid JSON: {exc}") from None
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:
        raise BadRecord(f"the record is not valid JSON: {type(exc).__name__}") from None
    return _plain(value)


def load_file(path: str | Path) -> dict[str, Any]:
    """Read a record from a JSON file (not yet checked against the rules: `replay` does that);
    BadRecord if it cannot be read, is too large, is not UTF-8 or is not strict JSON."""
    where = _path_text(path)
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a path with a NUL byte
        why = getattr(exc, "strerror", None) or str(exc)
        raise BadRecord(f"cannot read the record {where}: {why}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise BadRecord(f"{where} is too large for a record (more than {MAX_RECORD_BYTES} bytes)")
    try:
        return loads(data)
    except BadRecord as exc:
        raise BadRecord(f"{where}: {exc}") from None


def _path_text(path: str | Path) -> str:
    """A path for a message: whole, or its last 100 characters (where the file name is)."""
    text = str(path)
    return text if len(text) <= 160 else f"…{text[-100:]}"


def replay(record: dict[str, Any] | str | bytes, upto: int | None = None) -> State:
    """The state a record describes (a dict, or its JSON text or UTF-8 bytes); BadRecord — and
    only BadRecord — if it is not a valid record.

    With `upto`, only the first `upto` moves are replayed and the rest of the record (its result,
    the seats at the end) is not checked.
    """
    data: dict[str, Any] = loads(record) if isinstance(record, (str, bytes, bytearray)) else _plain(record)
    _check_shape(data)
    if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(data["moves"])):
        raise BadRecord(f"upto={shown(upto)}: the record has moves 0 to {len(data['moves'])}")
    state = _start(data)
    moves = data["moves"] if upto is None else data["moves"][:upto]
    for number, entry in enumerate(moves, start=1):
        replay_move(state, number, entry)
    if upto is None:
        _check_outcome(data, state)
        _restore_meta(data, state)
        _check_whole(data, state)
    return state


# ----- reading: the parts -----------------------------------------------------------------------


class _JunkNumber(ValueError):
    """A number JSON may write but a record may not hold."""


def _no_constant(name: str) -> Any:
    raise _JunkNumber(f"{name} is not a number a record may hold")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _JunkNumber(f"a whole number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _JunkNumber(f"{shown(text)} is too large a number")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _JunkNumber(f"the key {shown(key)} appears twice in one object")
        out[key] = value
    return out


def _plain(value: Any, depth: int = 0) -> Any:
    """A copy of a record made of JSON values only (tuples become lists); BadRecord for anything
    else: other types, keys that are not text, nesting deeper than MAX_DEPTH, numbers too large."""
    if depth > MAX_DEPTH:
        raise BadRecord(f"the record is not a game record: it is nested too deeply (at most {MAX_DEPTH} levels)")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        if value.bit_length() > 3 * MAX_DIGITS:
            raise BadRecord(f"the record holds a whole number of {value.bit_length()} bits, too large for any field")
        return int(value)
    if isinstance(value, float):
        return float(value)  # NaN and infinities are refused where a number is read (timestamps, options)
    if isinstance(value, dict):
        out = {}
        for key, child in value.items():
            if not isinstance(key, str):
                raise BadRecord(f"the record has a key {shown(key)} that is not text")
            out[str(key)] = _plain(child, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(child, depth + 1) for child in value]
    raise BadRecord(f"the record holds a {type(value).__name__}, which JSON cannot")


def _check_shape(record: Any) -> None:
    if not isinstance(record, dict):
        raise BadRecord(say("record-not-object", "a record is a JSON object, not {kind}", kind=_json_type(record)))
    if record.get("format") != RECORD_FORMAT or not isinstance(record.get("format"), str):
        raise BadRecord(say("record-format", "not an ogames record: format is {given}, expected {format}",
                            given=shown(record.get("format")), format=repr(RECORD_FORMAT)))
    version = record.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != RECORD_VERSION:
        raise BadRecord(f"unsupported record version {shown(version)} (this ogames reads version {RECORD_VERSION})")
    missing = _TOP_KEYS - record.keys()
    if missing:
        raise BadRecord(say("record-lacks", "the record lacks {fields}", fields=sorted(missing)))
    extra = record.keys() - _TOP_KEYS - _OPTIONAL_KEYS
    if extra:
        raise BadRecord(f"the record has unknown fields: {', '.join(k if len(k) <= 40 else shown(k) for k in sorted(extra))}")
    if not isinstance(record["game"], str):
        raise BadRecord("the record's game must be a name")
    if not isinstance(record["options"], dict):
        raise BadRecord("the record's options must be an object")
    players = record["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRecord("the record's players must be a list of names")
    seats = record["seats"]
    if not isinstance(seats, dict) or not all(isinstance(v, str) for v in seats.values()):
        raise BadRecord("the record's seats must map colours to player names")
    if not isinstance(record["moves"], list):
        raise BadRecord("the record's moves must be a list")
    result = record["result"]
    if result is not None and not (
        isinstance(result, dict) and set(result) == {"winner", "reason"} and all(isinstance(v, str) for v in result.values())
    ):
        raise BadRecord("the record's result must be null or {winner, reason}")


def _start(record: dict[str, Any]) -> State:
    """The starting state of a (well-shaped) record's game, with its players."""

    try:
        game = load(record["game"], **record["options"])
    except Exception as exc:  # the boundary: whatever the options make the rules raise
        raise BadRecord(say("record-bad-game",
                            "the record's game or options are not valid: {reason}", reason=_why(exc))) from None
    written = game.jsonable_options()
    if "seed" in record["options"] and record["options"]["seed"] is None and written.get("seed") is not None:
        # The web server's download of a card game still being played: its seed stays secret.
        raise BadRecord("the record's seed is hidden (options.seed is null): a card game's record leaves it out while "
                        "the game is on, and without it the decks cannot be dealt again — replay the record of the "
                        "finished game")
    if not _same(written, record["options"]):
        where = _difference(record["options"], written, "options")
        raise BadRecord(f"the record's options are not written as ogames writes them ({where})")
    try:
        return game.new_state(record["players"])
    except Exception as exc:  # e.g. a card set or form the mode refuses only when it deals
        raise BadRecord(f"the record's game cannot start with these players and options: {_why(exc)}") from None


def replay_move(state: State, number: int, entry: Any) -> None:
    """Make move `number` (from 1) of a record again on a state, as `replay` does: BadRecord if it
    cannot be; its history entry then holds exactly the record's time (or none)."""
    _check_entry(number, entry)
    try:
        state.replay_entry(entry)
        made = state.history[-1]
    except Exception as exc:  # the boundary: whatever the rules raise for this entry
        by = entry["by"] if isinstance(entry["by"], str) and len(entry["by"]) <= 40 else shown(entry["by"])
        raise BadRecord(say("record-bad-move", "move {n} ({by} {move}) cannot be replayed: {reason}", n=number, by=by,
                            move=shown(entry["move"]), reason=_why(exc))) from None
    if "t" in entry:
        made["t"] = entry["t"]  # the record's own number (ogames rounds times it makes to milliseconds)
    else:
        made.pop("t", None)  # a move recorded without a time stays without one


def _check_entry(number: int, entry: Any) -> None:
    if not isinstance(entry, dict):
        raise BadRecord(f"move {number} is not an object")
    if not isinstance(entry.get("move"), str) or not isinstance(entry.get("by"), str):
        raise BadRecord(f"move {number} needs a move and who made it ('by') as text")
    if "t" in entry:
        t = entry["t"]
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise BadRecord(f"move {number} has a bad timestamp {shown(t)}: seconds as a number are needed")


def _check_outcome(record: dict[str, Any], state: State) -> None:
    stored = record["result"]
    actual = None if state.result is None else {"winner": state.result.winner, "reason": state.result.reason}
    if stored != actual:
        raise BadRecord(say("record-result", "the record's result {given} is not what its moves give: {made}",
                            given=shown(stored, 200), made=shown(actual, 200)))
    if record["seats"] != state.seats:
        given, got = shown(record["seats"], 200), shown(state.seats, 200)
        raise BadRecord(f"the record's seats {given} are not what its moves give: {got}")


def _restore_meta(record: dict[str, Any], state: State) -> None:
    """Give a real-time state back the rejected actions its record lists (the only meta records hold)."""
    real_time = state.game.dynamics == REAL_TIME
    if "meta" not in record:
        if real_time:
            raise BadRecord("the record lacks meta: real-time records list their rejected actions under meta.rejected")
        return
    if not real_time:
        raise BadRecord(f"the record has meta, which only real-time records hold, not {_mode(state)}")
    meta = record["meta"]
    if not isinstance(meta, dict) or set(meta) != {"rejected"} or not isinstance(meta["rejected"], list):
        raise BadRecord("the record's meta must be {\"rejected\": [...]}")
    for number, entry in enumerate(meta["rejected"], start=1):
        if not isinstance(entry, dict) or set(entry) != _REJECTED_KEYS:
            raise BadRecord(f"rejected action {number} in meta must be an object of {', '.join(sorted(_REJECTED_KEYS))}")
        t = entry["t"]
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or not isinstance(entry["reason"], str):
            raise BadRecord(f"rejected action {number} in meta needs a time in seconds and a reason")
    from ogames.rules.omiga.realtime import RealtimeState  # (only real-time records get here: Omiga's cost stays out)

    if not isinstance(state, RealtimeState):
        raise BadRecord(f"the record has meta, which only real-time records hold, not {_mode(state)}")
    state.rejected = [dict(entry) for entry in meta["rejected"]]


def _check_whole(record: dict[str, Any], state: State) -> None:
    """The last word: the rebuilt state writes back exactly this record."""
    try:
        written = _plain(state.record())
    except BadRecord as exc:  # pragma: no cover - the rules write JSON values only
        raise BadRecord(f"the rebuilt game cannot be written back: {exc}") from None
    if not _same(written, record):
        raise BadRecord(f"the record is not what its game writes back ({_difference(record, written, 'record')})")


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: the same types (true is not 1, 1 is not 1.0), keys and values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _difference(given: Any, written: Any, path: str) -> str:
    """Where and how a record differs from what the game writes, for the message."""
    if isinstance(given, dict) and isinstance(written, dict):
        for key in sorted(given.keys() | written.keys()):
            if key not in written:
                return f"{path}.{key} is not something this game writes"
            if key not in given:
                return f"{path}.{key} is missing; it would be {shown(written[key])}"
            if not _same(given[key], written[key]):
                return _difference(given[key], written[key], f"{path}.{key}")
    if isinstance(given, list) and isinstance(written, list):
        if len(given) != len(written):
            return f"{path} has {len(given)} entries; the game writes {len(written)}"
        for i, (x, y) in enumerate(zip(given, written, strict=True)):
            if not _same(x, y):
                return _difference(x, y, f"{path}[{i}]")
    return f"{path} is {shown(given)}; the game writes {shown(written)}"


def _why(exc: BaseException) -> str:
    """An exception as a clause of a BadRecord message (the type where the text says little)."""
    if isinstance(exc, IllegalMove):
        return exc.reason if len(exc.reason) < 300 else str(exc)
    if isinstance(exc, OgamesError):
        return exc.said
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _mode(state: State) -> str:
    variant = state.game.options.get("variant")
    return f"{state.game.name} {variant}" if isinstance(variant, str) else state.game.name


def _json_type(value: Any) -> str:
    return {list: "an array", str: "text", int: "a number", float: "a number", bool: "true or false"}.get(
        type(value), "null" if value is None else type(value).__name__
    )
