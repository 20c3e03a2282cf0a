"""Terminal drawings for newcomers: every board of every game and variant at its default size fits
80 columns, carries labels on every edge, numbers the polar board's sides, and ends with a key
that explains every glyph the drawing uses."""

from __future__ import annotations

import random
import re

import pytest
from rich.console import Console
from rich.text import Text

import ogames
from conformance.cases import variants_of
from ogames.boards.hexes import column_letters, parse_label
from ogames.cli.render import render_state
from ogames.cli.render.hexgrid import key

# Every glyph a board drawing may use for a cell, a stone or a point.
GLYPHS = set("●○▲■✦·◦┼×")

DEFAULT_BOARDS = [
    *({"game": "omny", "variant": v} for v in variants_of("omny")),
    *({"game": "oddy", "sides": m} for m in (3, 5, 7, 9)),
    {"game": "oddy", "sides": 3, "board": "polar"},
    *({"game": "omega", "players": p} for p in (2, 3, 4)),
    {"game": "onyx"},
]


def ident(spec: dict) -> str:
    return "-".join(str(v) for v in spec.values())


def load(spec: dict):
    options = dict(spec)
    return ogames.load(options.pop("game"), **options)


def text_of(state) -> str:
    console = Console(width=300, color_system=None, record=True)
    console.print(render_state(state))
    return console.export_text()


def split(text: str) -> tuple[list[str], list[str]]:
    """(the lines before the key, the key's lines)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("key: "))
    end = start + 1
    while end < len(lines) and lines[end].startswith("     "):
        end += 1
    return lines[:start], lines[start:end]


def played(state, count: int, seed: int = 0):
    """The state after some random moves (stones of every colour on the board)."""
    rng = random.Random(seed)
    for _ in range(count):
        if state.is_over:
            break
        state.play(rng.choice([m for m in state.legal_moves() if m != "swap"]))
    return state


@pytest.mark.parametrize("spec", DEFAULT_BOARDS, ids=ident)
@pytest.mark.parametrize("moves", [0, 12])
def test_default_boards_fit_80_columns_and_explain_every_glyph(spec: dict, moves: int) -> None:
    state = played(load(spec).new_state(), moves)
    text = text_of(state)
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    drawing, legend = split(text)
    used = {ch for line in drawing for ch in line if ch in GLYPHS}
    explained = "\n".join(legend)
    if not used:  # an empty polar board shows every cell by its label
        assert "an empty cell shows its label" in explained
    for glyph in used:
        assert re.search(re.escape(glyph) + r" \w", explained), f"{glyph} is drawn but not in the key"


def hex_rows(drawing: list[str]) -> list[list[str]]:
    """The tokens of each drawn row of cells (lines starting with a row number)."""
    return [line.split() for line in drawing if line.split() and line.split()[0].isdigit()]


HEX_BOARDS = [s for s in DEFAULT_BOARDS if s["game"] in ("omny", "omega") or s == {"game": "oddy", "sides": 3}]


@pytest.mark.parametrize("spec", HEX_BOARDS, ids=ident)
def test_hex_boards_have_row_numbers_at_both_ends_and_column_letters_at_both_column_ends(spec: dict) -> None:
    state = load(spec).new_state()
    board = state.board
    drawing, _ = split(text_of(state))
    rows = hex_rows(drawing)
    cells = [parse_label(label) for label in board.labels]
    top, bottom = max(y for _, y in cells), min(y for _, y in cells)
    assert [row[0] for row in rows] == [str(y + 1) for y in range(top, bottom - 1, -1)]
    assert all(row[0] == row[-1] for row in rows)  # the same number at the right end
    first_row = drawing.index(next(line for line in drawing if line.split() and line.split()[0].isdigit()))
    above = drawing[first_row - 1].split()
    below = drawing[first_row + len(rows)].split()
    assert above == [column_letters(x) for x in sorted({x for x, y in cells if y == top})]
    assert below == [column_letters(x) for x in sorted({x for x, y in cells if y == bottom})]
    assert set(above) | set(below) == {column_letters(x) for x, _ in cells}


@pytest.mark.parametrize("sides", [3, 5, 7, 9])
def test_polar_board_numbers_every_side_and_explains_its_labels(sides: int) -> None:
    state = ogames.load("oddy", sides=sides, board="polar").new_state()
    drawing, legend = split(text_of(state))
    found = sorted(int(n) for n in re.findall(r"side (\d+)", "\n".join(drawing)))
    assert found == list(range(sides))
    joined = " ".join(" ".join(legend).split())
    assert "o = centre" in joined and "sector letter, ring, position" in joined
    assert "side k runs from corner k to corner k + 1" in joined


def test_polar_side_numbers_stand_outside_their_sides() -> None:
    state = ogames.load("oddy", sides=5, size=3).new_state()
    lines = split(text_of(state))[0]
    assert "side 0" in lines[0] and "side 4" in lines[0]  # the two upper sides, above the board
    assert "side 2" in lines[-1]  # the bottom side, below it
    middle = next(line for line in lines if "side 1" in line)
    assert middle.startswith("side 1") and middle.rstrip().endswith("side 3")


def test_onyx_key_explains_midpoint_labels_and_captures_only_when_drawn() -> None:
    state = ogames.load("onyx").new_state()
    _, legend = split(text_of(state))
    joined = " ".join(" ".join(legend).split())
    assert "b1* = the midpoint of the square whose lower-left corner is b1" in joined
    assert "◦ open midpoint" in joined and "· closed midpoint" in joined and "×" not in joined
    for move in ("b1", "c1", "d10", "b2", "c2"):
        state.play(move)
    _, legend = split(text_of(state))
    assert "× just captured" in " ".join(legend)


def test_omny_key_counts_the_stars_and_leaves_out_glyphs_not_drawn() -> None:
    _, legend = split(text_of(ogames.load("omny", variant="sunder").new_state()))
    joined = " ".join(legend)
    assert "S = 61 star cells" in joined and "· empty cell" not in joined  # every cell is a star
    _, legend = split(text_of(ogames.load("omny").new_state()))
    assert "S = 3 star cells" in " ".join(legend) and "· empty cell" in " ".join(legend)


def test_key_wraps_at_the_width_and_never_splits_a_pair() -> None:
    items = [(Text("●"), "black stone"), (Text("○"), "white stone")] * 6
    legend = key(items, ["a note " * 20], width=40).plain.splitlines()
    assert all(len(line) <= 40 for line in legend)
    assert legend[0].startswith("key: ● black stone")
    assert all("●" not in line or "● black stone" in line for line in legend)
    assert all(line.startswith("     ") for line in legend[1:])
