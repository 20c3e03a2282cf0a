"""The SVG drawings (`ogames.draw.svg`) for every game, variant and mode of the conformance suite:
well-formed SVG that scales (a viewBox, no fixed size), one clickable `data-cell` per board cell
with the board's exact labels, stones (or cards) exactly where `state.stone_at` says, each colour
by its own shape, Omny's star cells, and the last move, highlight, preview and capture marks when
there is something to mark; a property test over random positions of random cases."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from conformance.cases import CASE_IDS, make
from ogames.draw import svg as draw
from ogames.draw.style import LOOKS
from ogames.errors import UnknownLabel
from ogames.rules.omiga.cards import STANDARD, Face

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in classes(e)]


def cells(root: ET.Element) -> dict[str, ET.Element]:
    """The cell groups by label; fails if a label comes twice."""
    out: dict[str, ET.Element] = {}
    for e in with_class(root, "cell"):
        label = e.get("data-cell")
        assert label is not None, "a cell without data-cell"
        assert label not in out, f"{label} is drawn twice"
        out[label] = e
    return out


def board_of(state):
    return draw.board_of(state)


def positions(case: str, seed: int, samples: int = 4) -> list:
    """The start, some positions of one random game, and its end."""
    rng = random.Random(f"svg:{case}:{seed}")
    state = make(case).new_state()
    path = [state.clone()]
    while not state.is_over and len(path) < 400:
        state.play(rng.choice(state.legal_moves()))
        path.append(state.clone())
    picks = {0, len(path) - 1, *(rng.randrange(len(path)) for _ in range(samples - 2))}
    return [path[i] for i in sorted(picks)]


def check_drawing(state, **options) -> ET.Element:
    """Everything every drawing of a state must satisfy; returns the parsed SVG."""
    root = parse(draw.board_svg(state, **options))
    assert root.get("viewBox") and len(root.get("viewBox").split()) == 4
    assert root.get("width") is None and root.get("height") is None, "a fixed size would not scale on a phone"
    assert root.find(f"{NS}title") is not None and root.get("aria-label")
    board = board_of(state)
    found = cells(root)
    assert list(found) == list(board.labels), "one cell per board cell, with the board's own labels"
    for label, group in found.items():
        colour = state.stone_at(label)
        assert group.get("data-stone") == colour, f"{label}: drawn {group.get('data-stone')}, the state says {colour}"
        tip = group.find(f"{NS}title")
        assert tip is not None and tip.text.startswith(f"{label}: "), f"{label} has no title naming it"
        assert (colour is None) == ("empty" in tip.text), tip.text
        if state.game.name == "omiga":
            cards = [e for e in group.iter() if "card" in classes(e)]
            assert len(cards) == (0 if colour is None else 1)
            if colour is not None:
                placed = state.table.at(state.table.cell(label))
                assert cards[0].get("data-owner") == colour and cards[0].get("data-face") == placed.face.code
        else:
            stones = [e for e in group.iter() if "stone" in classes(e)]
            assert len(stones) == (0 if colour is None else 1), f"{label}: {len(stones)} stones drawn"
            if colour is not None:
                assert f"stone-{colour}" in classes(stones[0])
    # Nothing outside the cells claims to be a stone or a card.
    inside = {id(e) for g in found.values() for e in g.iter()}
    for e in root.iter():
        if {"stone", "card"} & classes(e):
            assert id(e) in inside, "a stone drawn outside its cell"
    return root


# ----- every case ----------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASE_IDS)
def test_every_case_draws_its_cells_and_stones(case):
    for state in positions(case, seed=1):
        check_drawing(state)
        check_drawing(state, coordinates=False, last_move=False)


@pytest.mark.parametrize("case", CASE_IDS)
def test_last_move_is_marked_on_the_stones_it_placed(case):
    for state in positions(case, seed=2):
        root = check_drawing(state)
        marked = {e.get("data-cell") for e in with_class(root, "last-move")}
        expected = {board_of(state).labels[c] for c in draw.last_move_cells(state)}
        expected = {label for label in expected if state.stone_at(label) is not None}
        assert marked == expected
        assert not with_class(parse(draw.board_svg(state, last_move=False)), "last-move")


@pytest.mark.parametrize("case", CASE_IDS)
def test_preview_draws_a_ghost_on_the_asked_cell(case):
    state = positions(case, seed=3)[1]
    board = board_of(state)
    empty = next(label for label in board.labels if state.stone_at(label) is None)
    colour = state.game.colours[-1]
    root = check_drawing(state, preview=(empty, colour))
    ghosts = with_class(root, "preview")
    assert [(g.get("data-cell"), g.get("data-colour")) for g in ghosts] == [(empty, colour)]
    assert ghosts[0].get("pointer-events") == "none"
    assert cells(root)[empty].get("data-stone") is None, "a preview is not a stone"
    with pytest.raises(UnknownLabel):
        draw.board_svg(state, preview=("zz99", colour))


@pytest.mark.parametrize("case", CASE_IDS)
def test_highlight_outlines_the_asked_cells(case):
    state = positions(case, seed=4)[1]
    labels = list(board_of(state).labels[:3])
    root = check_drawing(state, highlight=labels)
    marks = with_class(root, "highlight")
    assert marks, "nothing highlighted"
    drawn = set()
    for mark in marks:
        drawn |= set((mark.get("data-cells") or mark.get("data-cell")).split())
    assert drawn == set(labels)
    assert all("highlighted" in cells(root)[label].find(f"{NS}title").text for label in labels)
    assert not with_class(parse(draw.board_svg(state, highlight=[])), "highlight")


@pytest.mark.parametrize("case", [c for c in CASE_IDS if c.startswith(("omny", "oddy"))])
def test_the_winning_group_is_highlighted_at_the_end(case):
    for seed in range(3):
        state = positions(case, seed=seed, samples=2)[-1]
        if state.winning_group is None:  # the game ended by resignation or is cut short
            continue
        root = check_drawing(state)
        (mark,) = with_class(root, "highlight")
        assert sorted(mark.get("data-cells").split()) == sorted(state.winning_group)
        for label in state.winning_group:
            assert "winning group" in cells(root)[label].find(f"{NS}title").text


@pytest.mark.parametrize("case", [c for c in CASE_IDS if c.startswith("omny")])
def test_star_cells_are_marked(case):
    for state in positions(case, seed=5, samples=3):
        root = check_drawing(state)
        board = state.board
        stars = {board.labels[c] for c in state.game.star_cells}
        found = cells(root)
        assert {label for label, g in found.items() if g.get("data-star") == "true"} == stars
        for label in stars:
            group = found[label]
            assert "star cell" in group.find(f"{NS}title").text
            if state.stone_at(label) is None:
                assert [e for e in group.iter() if "star" in classes(e) and e.tag == f"{NS}polygon"], f"{label}: no star drawn"


def test_coordinates_label_every_row_and_column_of_a_hex_board():
    state = ogames.load("omny", variant="y", size=5).new_state()
    coords = {e.text for e in with_class(parse(draw.board_svg(state)), "coord")}
    assert {"a", "b", "c", "d", "e", "1", "2", "3", "4", "5"} <= coords
    assert not with_class(parse(draw.board_svg(state, coordinates=False)), "coord")


def test_polar_boards_number_their_sides_and_label_empty_cells():
    state = ogames.load("oddy", sides=7, size=3).new_state()
    state.play("o")
    root = parse(draw.board_svg(state))
    sides = sorted(int(e.get("data-side")) for e in with_class(root, "side"))
    assert sides == list(range(7))
    texts = {e.text for e in with_class(root, "coord")}
    assert "a1-0" in texts and "o" not in texts, "empty cells show their labels, occupied ones their stone"
    plain = parse(draw.board_svg(state, coordinates=False))
    assert {e.text for e in with_class(plain, "coord")} == {f"side {s}" for s in range(7)}


def test_onyx_captures_are_marked_and_midpoints_open_or_closed():
    state = ogames.load("onyx").new_state()
    for move in ("b1", "c1", "d5", "b2", "c2"):  # Black closes the square b1-c1-c2-b2 round White's c1 and b2
        state.play(move)
    assert state.last_captures == ["c1", "b2"]
    root = check_drawing(state)
    assert {e.get("data-cell") for e in with_class(root, "captured")} == {"c1", "b2"}
    found = cells(root)
    assert "closed" in classes(found["b1*"]), "b1*'s square has stones on its corners"
    assert "open" in classes(found["e6*"])
    assert "just captured" in found["c1"].find(f"{NS}title").text


def test_omega_marks_every_stone_of_the_last_turn():
    state = ogames.load("omega", players=3, size=4).new_state()
    state.play("a4 b4 c4")
    root = check_drawing(state)
    assert {e.get("data-cell") for e in with_class(root, "last-move")} == {"a4", "b4", "c4"}


def test_each_colour_has_its_own_shape():
    shapes = {look.shape for look in LOOKS.values()}
    assert len(shapes) == len(LOOKS)
    drawn = {}
    for colour in LOOKS:
        root = parse(draw.stone_svg(colour))
        (stone,) = with_class(root, "stone")
        drawn[colour] = (stone.tag, stone.get("fill"), stone.get("stroke-width"))
    assert len(set(drawn.values())) == len(drawn)
    assert drawn["black"][0] == drawn["white"][0] == f"{NS}circle"  # black a disc, white a ring: told apart by rim and fill
    assert float(drawn["white"][2]) > 2 * float(drawn["black"][2])


def test_omiga_cards_on_the_table_and_in_the_hand():
    state = ogames.load("omiga", seed=5, width=7, height=6).new_state()
    root = check_drawing(state)
    homes = {e.get("data-owner") for e in with_class(root, "home")}
    assert homes == {"white", "black"}
    for code in ("AB^/", "BA\\v", "AA//", "BB^^"):
        for owner in ("white", "black", "red", "yellow"):
            card = parse(draw.card_svg(code, owner))
            (group,) = with_class(card, "card")
            assert group.get("data-face") == code and group.get("data-owner") == owner
            hues = [e for e in card.iter() if "hue" in classes(e)]
            assert len(hues) == 2 and {f"hue-{code[0]}", "hue-left"} <= classes(hues[0])
            assert bool(with_class(card, "owner-mark")) == (owner not in ("white", "black"))
    for face in STANDARD.designs:
        parse(draw.card_svg(face, "black"))
        parse(draw.card_svg(face.turned(), "white"))
    ghost = parse(draw.board_svg(state, preview=("a1", "black", Face.from_code("AB^/"))))
    (preview,) = with_class(ghost, "preview")
    assert preview.get("data-cell") == "a1" and with_class(preview, "hue")


def test_zen_shows_no_home_edges_and_the_form_once_its_place_is_settled():
    state = ogames.load("omiga", variant="zen", seed=1).new_state()
    root = check_drawing(state)
    assert not with_class(root, "home") and not with_class(root, "form")
    form = parse(draw.form_svg(state.form))
    assert len(with_class(form, "form")) == len(state.form.cells)
    rng = random.Random(0)
    for _ in range(5000):  # lay cards until the layout fits the form one way only
        if len(state.offsets) == 1 and not state.is_over:
            break
        if state.is_over:
            state = ogames.load("omiga", variant="zen", seed=rng.randrange(100)).new_state()
        moves = state.legal_moves()
        state.play(rng.choice([m for m in moves if m.startswith("place")] or moves))
    (dx, dy), = state.offsets
    wanted = {state.table.label(state.table.number(c + dx, r + dy)): colour for (c, r), colour in state.form.cells.items()}
    root = check_drawing(state)
    shown = {}
    for cell in with_class(root, "cell"):
        for mark in with_class(cell, "form"):
            shown[cell.get("data-cell")] = (classes(mark) - {"form"}).pop().removeprefix("form-")
    assert shown == {label: colour for label, colour in wanted.items() if state.stone_at(label) is None}


def test_labels_and_names_are_escaped():
    state = ogames.load("omny", variant="y", size=3).new_state(players=["<b>&\"x\"", "y"])
    parse(draw.board_svg(state))
    parse(draw.card_svg("BA\\v", "white", label="a <card> & \"quotes\""))


@pytest.mark.parametrize("name", ["omny", "oddy", "omega", "onyx", "omiga"])
def test_legend_names_every_colour(name):
    game = ogames.load(name)
    entries = draw.legend(game)
    colours = [e["colour"] for e in entries if e["kind"] == "colour"]
    assert colours == list(game.colours)
    for entry in entries:
        if "svg" in entry:
            parse(entry["svg"])
    root = parse(draw.legend_svg(game))
    words = {e.text for e in root.iter(f"{NS}text")}
    assert all(entry["words"] in words for entry in entries)


# ----- property: random positions of random cases ------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASE_IDS), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120),
       coordinates=st.booleans(), last=st.booleans())
def test_random_positions_draw_exactly_their_stones(case, seed, plies, coordinates, last):
    rng = random.Random(seed)
    state = make(case).new_state()
    for _ in range(plies):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    root = check_drawing(state, coordinates=coordinates, last_move=last)
    board = board_of(state)
    occupied = {label for label in board.labels if state.stone_at(label) is not None}
    assert {label for label, g in cells(root).items() if g.get("data-stone")} == occupied


def test_a_board_drawn_with_the_cell_cache_warm_is_the_one_drawn_cold() -> None:
    """The tiled boards keep each unmarked cell's drawing; marks (last move, highlight) must still
    show, and a cell must change when its stone does."""
    from ogames.draw import board_svg, boards

    for name, options in (("omny", {"variant": "sunder", "size": 4}), ("oddy", {"sides": 5, "size": 3}), ("omega", {"size": 4})):
        state = ogames.load(name, **options).new_state()
        rng = random.Random(3)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            state.play(move)
            highlight = [move] if move in state.board.labels else None
            warm = board_svg(state, last_move=True, highlight=highlight)
            boards._tiles.cache_clear()
            assert board_svg(state, last_move=True, highlight=highlight) == warm, (name, state.ply)
            assert board_svg(state, last_move=False) != warm or highlight is None
