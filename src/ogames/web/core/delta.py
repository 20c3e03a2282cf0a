"""What changed between two views of a live game, and the view a page makes of it again.

A page that asks for deltas (`/ws/g/ID?deltas=1`: the game page does) gets one full view when it
connects and then, after every change, only what changed since the view it holds: the stones put
down or taken off, the moves added, the legal cells dropped or added, and every other field that
differs, whole. Every view carries `seq`, a number no other view of this server process has; a
delta says the view it applies to (`base`) and the one it makes (`seq`), so that a page never
applies one to a view it does not hold (it reconnects and gets a full view instead, which never
happens while the server is right). The board games' views are pydantic models
(`boards.views.GameView`) and their deltas `Delta`s; Omiga's are dicts, and their deltas too.
`apply_delta` is what the page does with the JSON: `apply_delta(json(old), json(make_delta(old,
new))) == json(new)` for any two views (`written` for a model): the unit tests play random games
of every board game and Omiga mode to check it.

    delta = {"type": "delta", "base": 41, "seq": 42, "version": 7,
             "set": {"ply": 7, "to_move": "white", "mover": 1, "last": "c3"},   # fields whole
             "stones": {"c3": "black", "d4": null},                              # put down, taken off
             "lists": {"legal": {"drop": ["c3"], "add": [[5, "d4"]]}},           # by position in the new list
                                                                                 # (`board.open`: the board's `open`)
             "moves": {"keep": 6, "add": [{"n": 7, "by": "black", "move": "c3"}]}}  # the list cut, then added to

Omiga's table pages get the same kind of delta: the table's `cells` (each cell's drawing, by label)
as what changed, like `stones`, and its window of the last moves as `{"drop": 1, "keep": 11, "add":
[...]}` (the first `drop` items left out, then cut and added to).
"""

from __future__ import annotations

import itertools
from typing import Any, Generic, Literal, TypeVar, overload

from pydantic import BaseModel

from ogames.web.core.protocol import Declared

# Lists of distinct texts in an order both views agree on (board order): sent as what left and
# what came, by position in the new list.
SPLICED = ("legal", "specials", "winning", "undo_seats", "present")
BOARD_SPLICED = ("open", "marked", "winning", "captures")  # the same, in the view's `board` (named `board.open` …)
KEYED = ("stones", "cells", "pictures")  # dicts sent as the keys whose value changed (null: gone)
FRESH = itertools.count(1)


MoveT = TypeVar("MoveT")


class Splice(Declared):
    """A list of distinct texts or numbers changed: the items that left it, and those that came,
    each with its position in the new list."""

    drop: list[str | int]
    add: list[tuple[int, str | int]]


class MovesChange(Declared, Generic[MoveT]):
    """The move list changed: its first `drop` items left out (a window of the last moves:
    Omiga's), the rest cut to its first `keep`, then `add` appended."""

    drop: int | None = None
    keep: int
    add: list[MoveT]


class Delta(Declared, Generic[MoveT]):
    """What changed between two views, as it is sent (`make_delta`; the module's docstring shows
    one): the parts a delta does not carry are left unset, and a message is written without them
    (`written`). Its parts hold the views' own typed parts (a move's `MoveView`, the board's
    facts). `Delta[MoveView]` is the board games' declared delta (`boards.views.DeltaView`)."""

    type: Literal["delta"]
    base: int
    seq: int
    version: int
    set: dict[str, Any] | None = None
    unset: list[str] | None = None
    stones: dict[str, str | None] | None = None
    cells: dict[str, Any] | None = None
    pictures: dict[str, Any] | None = None
    lists: dict[str, Splice] | None = None
    moves: MovesChange[MoveT] | None = None


ViewT = TypeVar("ViewT", bound=BaseModel | dict[str, Any])


def stamp(view: ViewT) -> ViewT:
    """The view with a new `seq` (a view is stamped once, when it is made, and never changed after)."""
    if isinstance(view, BaseModel):
        view.seq = next(FRESH)  # type: ignore[attr-defined]  # every stamped model declares `seq`
    else:
        view["seq"] = next(FRESH)
    return view


def fields(view: BaseModel | dict[str, Any]) -> dict[str, Any]:
    """A view's fields that were set, by name (its parts as they are, not copied); a dict as it is."""
    if not isinstance(view, BaseModel):
        return view
    given = view.model_fields_set
    return {name: value for name, value in view.__dict__.items() if name in given}


@overload
def make_delta(old: BaseModel, new: BaseModel) -> Delta[Any]: ...


@overload
def make_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]: ...


def make_delta(old: BaseModel | dict[str, Any], new: BaseModel | dict[str, Any]) -> Delta[Any] | dict[str, Any]:
    """The delta that turns the view `old` into `new` (both stamped): a `Delta` between typed views
    (the board games'), a dict between dicts (Omiga's). The board games' views share their lists'
    items (a move is made once) and their stones know what changed, so a move's delta costs what
    the move changed."""
    before_fields, after_fields = fields(old), fields(new)
    whole: dict[str, Any] = {}
    lists: dict[str, Any] = {}
    parts: dict[str, Any] = {"type": "delta", "base": before_fields["seq"], "seq": after_fields["seq"],
                             "version": after_fields["version"]}
    for key, value in after_fields.items():
        if key in ("type", "seq", "version"):
            continue
        before = before_fields.get(key, _MISSING)
        if before is value or before == value:
            continue
        if key in KEYED and isinstance(before, dict):
            parts[key] = _keyed_change(before, value)
        elif key == "moves" and isinstance(before, list):
            drop = _dropped(before, value)
            keep = _common_prefix(before[drop:] if drop else before, value)
            parts["moves"] = {"drop": drop, "keep": keep, "add": value[keep:]} if drop else {"keep": keep, "add": value[keep:]}
        elif key in SPLICED and isinstance(before, list) and (splice := _splice(before, value)) is not None:
            lists[key] = splice
        elif key == "board" and isinstance(before, BaseModel | dict) and isinstance(value, BaseModel | dict):
            was, now = fields(before), fields(value)
            if not was.keys() <= now.keys():
                whole[key] = value
                continue
            part: dict[str, Any] = {}
            for name, item in now.items():
                earlier = was.get(name, _MISSING)
                if earlier is item or earlier == item:
                    continue
                if name in BOARD_SPLICED and isinstance(earlier, list) and (splice := _splice(earlier, item)) is not None:
                    lists[f"board.{name}"] = splice
                else:
                    part[name] = item
            if part:
                whole["board"] = {**part, "$part": True}
        else:
            whole[key] = value
    gone = [key for key in before_fields if key not in after_fields and key not in ("type", "seq")]
    if whole:
        parts["set"] = whole
    if lists:
        parts["lists"] = lists
    if gone:
        parts["unset"] = gone
    if isinstance(new, BaseModel):
        return Delta(**parts)  # checked: a delta is small (its parts' items are the views' own, typed already)
    return parts


def written(message: BaseModel) -> str:
    """A view or delta as JSON text, as a page is sent it: without the parts it does not carry."""
    return message.model_dump_json(exclude_unset=True)


def jsonable(message: BaseModel) -> dict[str, Any]:
    """A view or delta as the JSON value a page receives (`written`, read back)."""
    return message.model_dump(mode="json", exclude_unset=True)


def apply_delta(old: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The view a delta makes of `old` (a new dict; `old` is not changed). ValueError if the
    delta is for another view."""
    if delta.get("base") != old.get("seq"):
        raise ValueError(f"the delta is for view {delta.get('base')}, not {old.get('seq')}")
    new = dict(old)
    new["type"], new["seq"], new["version"] = "state", delta["seq"], delta["version"]
    for key in delta.get("unset", ()):
        new.pop(key, None)
    for key, value in delta.get("set", {}).items():
        if key == "board" and isinstance(value, dict) and value.get("$part"):
            new[key] = {**old.get(key, {}), **{k: v for k, v in value.items() if k != "$part"}}
        else:
            new[key] = value
    for key in KEYED:
        if key in delta:
            kept = dict(old.get(key, {}))
            for label, value in delta[key].items():
                if value is None:
                    kept.pop(label, None)
                else:
                    kept[label] = value
            new[key] = kept
    if "moves" in delta:
        moves = delta["moves"]
        new["moves"] = [*old.get("moves", [])[moves.get("drop", 0):][: moves["keep"]], *moves["add"]]
    if any(key.startswith("board.") for key in delta.get("lists", {})):
        new["board"] = dict(new.get("board", {}))  # changed here: never the old view's
    for key, splice in delta.get("lists", {}).items():
        within, name = (new["board"], key[len("board."):]) if key.startswith("board.") else (new, key)
        dropped = set(splice["drop"])
        items = [item for item in within.get(name, []) if item not in dropped]
        for index, item in splice["add"]:
            items.insert(index, item)
        within[name] = items
    return new


_MISSING = object()


def _dropped(before: list[Any], after: list[Any]) -> int:
    """How many first items of `before` a window of the last items (Omiga's last moves) left
    behind: where `after` starts in it (0 when it starts where `before` does, or is not in it)."""
    if not before or not after or before[0] == after[0]:
        return 0
    return next((index for index, item in enumerate(before) if item == after[0]), 0)


def _common_prefix(before: list[Any], after: list[Any]) -> int:
    """How many first items two lists share: looked for from the end, as a list mostly grows or
    shrinks by a few items (a move added, an Omega turn's entry rewritten, moves taken back)."""
    keep = min(len(before), len(after))
    while keep and before[keep - 1] != after[keep - 1]:
        keep -= 1
    if keep and before[:keep] != after[:keep]:  # the lists differ further back as well (never for moves)
        keep = next(index for index, (a, b) in enumerate(zip(before, after, strict=False)) if a != b)
    return keep


def _splice(before: list[Any], after: list[Any]) -> dict[str, Any] | None:
    """A list of distinct texts (or numbers, as the views declare these lists) as what left it and
    what came (with its position in `after`); None when that would not make `after` (its items in
    another order, or repeated) or would be no shorter than `after` whole. The sets are compared in
    C: a move changes a few items of a list of hundreds."""
    try:
        old, new = set(before), set(after)
    except TypeError:
        return None  # items that are not texts (Omiga's)
    if len(old) != len(before) or len(new) != len(after):
        return None
    gone, came = old - new, new - old
    if len(gone) + len(came) >= len(after):
        return None  # the list whole is as short
    if ([item for item in before if item not in gone] if gone else before) != (
            [item for item in after if item not in came] if came else after):
        return None  # the items both hold are in another order
    return {"drop": sorted(gone, key=before.index), "add": sorted((after.index(item), item) for item in came)}


class Stones(dict[str, str]):
    """A view's stones by cell that knows the stones it was made from (`origin`, one step back:
    the position before) and the cells whose stone changed since (`changed`), so that the delta
    between the two views costs what changed, not what the board holds."""

    __slots__ = ("changed", "origin")

    def __init__(self, stones: dict[str, str], origin: dict[str, str] | None = None, changed: tuple[str, ...] = ()):
        super().__init__(stones)
        self.origin = origin
        self.changed = changed


def _keyed_change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The keys whose value differs (None: gone); of stones that know what changed since `before`, those."""
    if isinstance(after, Stones) and after.origin is before:
        return {label: after.get(label) for label in after.changed}
    changed: dict[str, Any] = {label: item for label, item in after.items() if before.get(label) != item}
    changed.update((label, None) for label in before if label not in after)
    return changed
