"""Omega's terminal drawing: board, groups and scores per colour, the turn, the match line."""

from __future__ import annotations

from rich.console import Console

import ogames
from ogames.cli.render import render_state
from ogames.cli.render.omega import format_score, render
from test_omega_helpers import SEED_ENDGAME, play_position


def text_of(renderable) -> str:
    console = Console(width=120, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def test_seed_endgame_shows_groups_and_scores():
    state = play_position(ogames.load("omega", players=4).new_state(["ann", "bob", "cy", "di"]), SEED_ENDGAME)
    out = text_of(render_state(state))
    assert "white  ann     4·3·2·2·1" in out
    assert out.rstrip().endswith("36") and "places" not in out  # the play loop announces the result
    for line in ("black  bob     7·4·1", "red    cy      5·4·2·1", "blue   di      6·3·2·1"):
        assert line in out
    # 12 stones of each colour plus one per colour in the key and in the table, each colour with its own shape.
    assert [out.count(shape) for shape in "○●▲■"] == [14, 14, 14, 14]


def test_turn_line_names_the_player_and_the_next_stone_and_pie_choices():
    state = ogames.load("omega", players=3, pie=True).new_state(["ann", "bob", "cy"])
    state.play("e5 c3 a5", t=0)
    out = text_of(render(state))
    assert "bob (black) places ○ white's stone — 1 of 3 this turn; pie rule: play, or swap white" in out
    state.play("swap", t=0)
    state.play("d4", t=0)
    out = text_of(render(state))
    assert "cy (red) places ● black's stone — 2 of 3 this turn" in out
    assert "white  bob     1·1" in out


def test_match_line_and_empty_colours():
    state = ogames.load("omega", match=True, size=4).new_state(["ann", "bob"])
    out = text_of(render(state))
    assert "match game 1 of 2 · totals of finished games: ann 0, bob 0" in out
    assert "white  ann     —" in out


def test_last_turn_is_highlighted():
    state = ogames.load("omega").new_state()
    state.play("e5 c3", t=0)
    console = Console(width=120, color_system="truecolor", record=True)
    console.print(render_state(state))
    styled = console.export_text(styles=True)
    assert styled.count(";7;") == 2  # both stones of the turn drawn reversed, nothing else


def test_last_turn_highlight_covers_red_and_blue_shapes():
    state = ogames.load("omega", players=4).new_state()
    state.play("e5 c3 a5 i1", t=0)
    console = Console(width=120, color_system="truecolor", record=True)
    console.print(render_state(state))
    assert console.export_text(styles=True).count(";7;") == 4


def test_gigantic_scores_are_shortened_for_display_only():
    assert format_score(48) == "48"
    assert format_score(10**30 + 5) == "1.000e30 (31 digits)"
