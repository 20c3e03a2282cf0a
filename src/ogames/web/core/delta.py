"""What changed between two views of a live game, and the view a page makes of it again.

A page that asks for deltas (`/ws/g/ID?deltas=1`: the game page does) gets one full view when it
connects and then, after every change, only what changed since the view it holds: the stones put
down or taken off, the moves added, the legal cells dropped or added, and every other field that
differs, whole. Every view carries `seq`, a number no other view of this server process has; a
delta says the view it applies to (`base`) and the one it makes (`seq`), so that a page never
applies one to a view it does not hold (it reconnects and gets a full view instead, which never
happens while the server is right). `apply_delta(old, make_delta(old, new)) == new` for any two
views: the unit tests play random games of every board game and Omiga mode to check it.

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
from typing import Any

# Lists of distinct texts in an order both views agree on (board order): sent as what left and
# what came, by position in the new list.
SPLICED = ("legal", "specials", "winning", "undo_seats", "present")
BOARD_SPLICED = ("open", "marked", "winning", "captures")  # the same, in the view's `board` (named `board.open` …)
KEYED = ("stones", "cells", "pictures")  # dicts sent as the keys whose value changed (null: gone)
FRESH = itertools.count(1)


def stamp(view: dict[str, Any]) -> dict[str, Any]:
    """The view with a new `seq` (a view is stamped once, when it is made, and never changed after)."""
    view["seq"] = next(FRESH)
    return view


def make_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The delta that turns the view `old` into `new` (both stamped)."""
    delta: dict[str, Any] = {"type": "delta", "base": old["seq"], "seq": new["seq"], "version": new["version"]}
    whole: dict[str, Any] = {}
    lists: dict[str, Any] = {}
    for key, value in new.items():
        if key in ("type", "seq", "version"):
            continue
        before = old.get(key, _MISSING)
        if before is value or before == value:
            continue
        if key in KEYED and isinstance(before, dict):
            delta[key] = {label: value.get(label) for label in before.keys() | value.keys()
                          if before.get(label) != value.get(label)}
        elif key == "moves" and isinstance(before, list):
            drop = _dropped(before, value)
            keep = _common_prefix(before[drop:], value)
            delta["moves"] = {"drop": drop, "keep": keep, "add": value[keep:]} if drop else {"keep": keep, "add": value[keep:]}
        elif key in SPLICED and isinstance(before, list) and (splice := _splice(before, value)) is not None:
            lists[key] = splice
        elif key == "board" and isinstance(before, dict) and isinstance(value, dict) and before.keys() <= value.keys():
            part: dict[str, Any] = {}
            for name, item in value.items():
                was = before.get(name, _MISSING)
                if was == item:
                    continue
                if name in BOARD_SPLICED and isinstance(was, list) and (splice := _splice(was, item)) is not None:
                    lists[f"board.{name}"] = splice
                else:
                    part[name] = item
            if part:
                whole["board"] = {**part, "$part": True}
        else:
            whole[key] = value
    gone = [key for key in old if key not in new and key not in ("type", "seq")]
    if whole:
        delta["set"] = whole
    if lists:
        delta["lists"] = lists
    if gone:
        delta["unset"] = gone
    return delta


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
    """A list of distinct texts as what left it and what came (with its position in `after`); None
    when that would not make `after` (its items in another order, repeated, not texts) or would be
    no shorter than `after` whole."""
    if not all(isinstance(item, (str, int)) for item in after):
        return None
    old, new = set(before), set(after)
    if len(old) != len(before) or len(new) != len(after):
        return None
    splice = {"drop": [item for item in before if item not in new],
              "add": [[index, item] for index, item in enumerate(after) if item not in old]}
    if len(splice["drop"]) + len(splice["add"]) >= len(after):
        return None  # the list whole is as short
    kept = [item for item in before if item in new]
    if kept != [item for item in after if item in old]:
        return None  # the items both hold are in another order
    return splice
