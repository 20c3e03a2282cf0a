"""What an Omiga table's page is sent, against its types (web/omiga/views.py): the view of every
mode, at every point of random games, in every language, is a `TableView` as the page reads it
(its JSON parses back to the same view), with zen's panel and a placement hint's cell only where
they apply; the view in parts a page that takes deltas holds is a `TableWire`, makes the same
whole view, and every delta between two of them makes the newer (web/core/delta.py)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import ogames
from ogames.draw import board_svg
from ogames.web.core.delta import apply_delta, make_delta, stamp
from ogames.web.i18n import LANGUAGES
from ogames.web.messages import speaker
from ogames.web.omiga.table import LiveTable
from ogames.web.omiga.views import TableView, TableWire

MODES: list[dict[str, Any]] = [{"variant": "base", "width": 9, "height": 7}, {"variant": "2v2"}, {"variant": "kids"},
                               {"variant": "kids", "pace": "turns"}, {"variant": "toddler", "players": 6},
                               {"variant": "zen", "form": "fly"}, {"variant": "toddler", "players": 2}]


def tables(options: dict[str, Any], seed: int, steps: int = 400) -> Any:
    """A live table of a seeded random game, after each of its actions (started: every hint is on)."""
    state = ogames.load("omiga", seed=seed, **options).new_state()
    live = LiveTable("t", ["human"] * len(state.players), state, {})
    live.signal_at = live.origin = time.monotonic() - 1
    rng = random.Random(seed)
    for step in range(steps):
        yield live
        legal = state.legal_moves()
        if state.is_over or not legal:
            return
        state.play(rng.choice(legal), t=float(step))


@pytest.mark.parametrize("options", MODES, ids=lambda options: "-".join(str(value) for value in options.values()))
def test_every_view_of_every_mode_is_a_table_view_as_the_page_reads_it(options: dict[str, Any]) -> None:
    seen_over = False
    for index, live in enumerate(tables(options, seed=len(str(options)))):
        if index % 7 and not live.state.is_over:
            continue  # every seventh position, and the last
        for language in LANGUAGES:
            shown = live.view(language)
            parsed = TableView.model_validate_json(json.dumps(shown))
            assert parsed.shown() == json.loads(json.dumps(shown))
            assert ("zen" in shown) == (options["variant"] == "zen")
            hint = shown.get("zen", {}).get("hint")
            if hint is not None:
                assert ("cell" in hint) == (hint["kind"] == "place")
        seen_over = seen_over or live.state.is_over
    assert seen_over or options["variant"] in ("2v2", "zen")  # the others end within the steps


@pytest.mark.parametrize("options", MODES, ids=lambda options: "-".join(str(value) for value in options.values()))
def test_the_view_in_parts_makes_the_whole_view_and_each_delta_makes_the_next(options: dict[str, Any]) -> None:
    held: dict[str, dict[str, Any]] = {}
    for index, live in enumerate(tables(options, seed=3, steps=60)):
        live.version = index
        for language in LANGUAGES:
            wire = stamp(live.wire(language))
            assert "table" not in wire and TableWire.model_validate_json(json.dumps(wire)).seq == wire["seq"]
            assert live.view(language)["table"] == board_svg(live.state, speak=speaker(language))  # drawn once, in ogames.draw
            if language in held:
                delta = make_delta(held[language], wire)
                assert apply_delta(held[language], delta) == wire
                assert set(delta.get("cells", {})) <= set(wire["cells"])  # only cells, never the frame: it never changes
                assert "table_frame" not in delta.get("set", {})
            held[language] = wire


def test_a_field_the_types_do_not_declare_is_refused() -> None:
    live = next(tables(MODES[0], seed=1))
    shown = live.view()
    with pytest.raises(ValueError, match="extra"):
        TableView.model_validate_json(json.dumps({**shown, "secret": 1}))
    with pytest.raises(ValueError):
        TableView.model_validate_json(json.dumps({**shown, "clock": "soon"}))
