"""A refused input changes nothing, byte for byte, in every Omiga variant.

Random games of every variant (base, kids in real time and in turns, 2v2, toddler, zen) mix legal
moves with inputs that are often refused — a discard while the card still fits, a card that is not
in hand, a taken or far-away cell, a zen move out of order. After every refusal the whole state is
what it was before to the last byte: every field of the state and of the objects it holds, numpy
arrays as their raw bytes, random sources as their state, and its record. Scratch space a rule
writes while answering a question (e.g. "where does this card fit?") has no place in the state.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from conformance.cases import mode_of, modes_of
from ogames.boards.graph import Board
from ogames.errors import IllegalMove
from ogames.rules.omiga.deck import Supply
from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.protocol import Game, State

VARIANTS: dict[str, dict[str, Any]] = {
    "base": {"width": 6, "height": 5},
    "kids": {"variant": "kids", "width": 5, "height": 5},
    "kids-turns": {"variant": "kids", "pace": "turns", "width": 5, "height": 5},
    "2v2": {"variant": "2v2", "width": 6, "height": 5, "target": 2},
    "toddler": {"variant": "toddler", "players": 3, "width": 7, "height": 4},
    "zen": {"variant": "zen"},
}  # small tables: a few moves crowd them, so that taken and far-away cells are tried


def test_every_omiga_mode_of_the_registry_is_tried() -> None:
    assert {mode_of(ogames.load("omiga", seed=1, **options)) for options in VARIANTS.values()} == modes_of("omiga")


def exact(value: Any, seen: frozenset[int] = frozenset()) -> Any:
    """A value as nested tuples of plain data, exact to the byte: arrays as dtype, shape and raw
    bytes, random sources as their state, objects as their fields by name. The game and the board
    are immutable and shared by every copy of a state, so they are named, not walked."""
    if isinstance(value, (Game, Board)):
        return type(value).__name__
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, random.Random):
        return ("Random", value.getstate())
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return (type(value).__name__, value)
    if id(value) in seen:
        return ("cycle", type(value).__name__)
    inside = seen | {id(value)}
    if isinstance(value, dict):
        return ("dict", tuple((exact(k, inside), exact(v, inside)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(exact(item, inside) for item in value))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, tuple(sorted((exact(item, inside) for item in value), key=repr)))
    fields = vars(value) if hasattr(value, "__dict__") else {name: getattr(value, name) for name in value.__slots__}
    # An object's fields by name (the order they were set in means nothing; a dict's order may).
    return (type(value).__name__, tuple((name, exact(fields[name], inside)) for name in sorted(fields)))


def snapshot(state: State) -> bytes:
    """Everything a state is, as bytes: its fields, everything they hold, and its record."""
    return repr((exact(state), state.record())).encode()


def refusable(state: State, draw: Any) -> str:
    """An input for the state that the rules often refuse (and sometimes take)."""
    table = state.table  # type: ignore[attr-defined]
    cell = table.label(draw(st.integers(0, table.width * table.height - 1)))
    card = draw(st.integers(0, len(table.card_set) - 1))
    turned = draw(st.sampled_from(["", " turned"]))
    if isinstance(state, RealtimeState):
        actor = draw(st.sampled_from(state.actors))
        body = draw(st.sampled_from(["discard", f"place {card} {cell}{turned}", f"place {card} at {cell}", "place 99 a1"]))
        return f"{actor}: {body}"
    if state.game.options["variant"] == "zen":
        colour = draw(st.sampled_from(["white", "black", "red"]))
        n = draw(st.integers(0, 4))
        return draw(st.sampled_from([f"start {colour}{turned}", f"draw {colour}", f"place {n} {cell}{turned}", "end", "discard"]))
    return draw(st.sampled_from(["discard", f"place {cell}{turned}", f"place 1 {cell}", f"place 2 {cell}", "place z9"]))


@settings(max_examples=120, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_a_refused_input_changes_nothing_byte_for_byte(variant: str, seed: int, data: st.DataObject) -> None:
    state = ogames.load("omiga", seed=seed, **VARIANTS[variant]).new_state()
    t = 1.0
    for _ in range(data.draw(st.integers(1, 14), label="steps")):
        legal = state.legal_moves()
        if state.is_over or not legal:
            break
        t += 0.5
        if data.draw(st.booleans(), label="legal move"):
            state.play(data.draw(st.sampled_from(legal), label="move"), t=t)
            continue
        text = refusable(state, data.draw)
        before = snapshot(state)
        try:
            state.play(text, t=t)
        except IllegalMove:
            assert snapshot(state) == before, f"{variant}: the refused {text!r} changed the state"
    # The game replays from its record to the same record: the refusals left no trace in it.
    assert ogames.replay(state.record()).record() == state.record()


def test_a_refused_kids_discard_changes_nothing_byte_for_byte() -> None:
    """The case hypothesis found: kids refuses a discard while the card fits somewhere, and finding
    where it fits once wrote the answer into a buffer the table kept."""
    state = ogames.load("omiga", variant="kids", seed=7, width=7, height=5).new_state()
    assert state.placements("white"), "the start hand fits somewhere"
    before = snapshot(state)
    for _ in range(2):
        try:
            state.play("white: discard", t=1.0)
        except IllegalMove as exc:
            assert "discarded only when it fits nowhere" in str(exc)
        assert snapshot(state) == before


def test_questions_about_a_state_change_nothing_byte_for_byte() -> None:
    """Asking for the legal moves (every variant) and cloning a state leave it as it was."""
    for variant, options in VARIANTS.items():
        state = ogames.load("omiga", seed=3, **options).new_state()
        before = snapshot(state)
        state.legal_moves()
        other = state.clone()
        assert snapshot(state) == before, variant
        assert snapshot(other) == before, variant


def test_the_snapshot_sees_a_change_anywhere() -> None:
    """The comparison is worth something: one byte in an array or one card in a deck shows."""
    state = ogames.load("omiga", variant="kids", seed=1, width=5, height=5).new_state()
    before = snapshot(state)
    state.table.seams[0, 0] += 1  # type: ignore[attr-defined]
    assert snapshot(state) != before
    state.table.seams[0, 0] -= 1  # type: ignore[attr-defined]
    assert snapshot(state) == before
    supply: Supply = state.supplies["white"]  # type: ignore[attr-defined]
    supply.cards.insert(0, supply.cards.pop())
    assert snapshot(state) != before
