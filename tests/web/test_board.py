"""The board part of the web views (`ogames.web.boards.board`) and the earlier-position endpoint: the real
drawing of every board kind, the cells outlined as the win, Omny's largest region, Omega's groups,
Onyx's captures, the stone places the page puts its hover preview on, and the positions of the
move list."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ogames
from conformance.cases import registry_variants, variant_of
from ogames.draw import board_svg as draw_board
from ogames.draw.boards import stone_places
from ogames.kernels.omny import region_stars_reference
from ogames.rules.protocol import State
from ogames.web.boards.board import board_part, board_setup, move_list, position_state, position_view, winning_cells

from .conftest import create

NS = "{http://www.w3.org/2000/svg}"
KINDS = [
    ("omny", {"variant": "y", "size": 4}),
    ("omny", {"variant": "sunder", "size": 3}),
    ("omny", {"variant": "gyre", "size": 3}),
    ("omny", {"variant": "free-y", "sides": (2, 3)}),
    ("omny", {"variant": "custom", "shape": "rhombus", "size": 4, "stars": "corners"}),
    ("oddy", {"size": 4}),
    ("oddy", {"sides": 5, "board": "polar", "size": 3}),
    ("omega", {"players": 3, "size": 4}),
    ("onyx", {}),
]
IDS = [f"{game}-{'-'.join(str(v) for v in options.values()) or 'standard'}" for game, options in KINDS]


def test_the_boards_drawn_here_cover_every_board_game_variant() -> None:
    """The boards above are small ones picked for speed; a variant the registry adds must join them."""
    board_games = {(game, variant) for game, variant in registry_variants() if game != "omiga"}
    assert {(game, options.get("variant", variant_of(game, options))) for game, options in KINDS} == board_games


def finished(game: str, options: dict[str, Any], seed: int = 1) -> State:
    """A random game played to its end (no swaps), decided by someone (not a draw)."""
    for attempt in range(50):
        rng = random.Random(seed * 1000 + attempt)
        state = ogames.load(game, **options).new_state()
        while not state.is_over:
            state.play(rng.choice([move for move in state.legal_moves() if move != "swap"]))
        if state.winner != "draw":
            return state
    raise AssertionError("every game was drawn")


def cell_groups(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {e.get("data-cell", ""): e for e in root.iter(f"{NS}g") if "cell" in e.get("class", "").split()}


@pytest.mark.parametrize(("game", "options"), KINDS, ids=IDS)
def test_every_board_is_drawn_with_a_clickable_cell_per_label(game: str, options: dict[str, Any]) -> None:
    state = finished(game, options)
    part = board_part(state)
    groups = cell_groups(part["svg"])
    assert sorted(groups) == sorted(state.board.labels)  # type: ignore[attr-defined]
    for label, element in groups.items():
        assert element.get("data-stone") == state.stone_at(label)
    # The win is outlined, and the page is told which cells it is.
    assert part["winning"], "a decided game outlines its win"
    assert all(state.stone_at(label) == state.winner for label in part["winning"])
    assert 'class="highlight"' in part["svg"]


@pytest.mark.parametrize(("game", "options"), KINDS, ids=IDS)
def test_the_hover_preview_goes_where_the_drawing_puts_a_stone(game: str, options: dict[str, Any]) -> None:
    state = ogames.load(game, **options).new_state()
    board = state.board  # type: ignore[attr-defined]
    places = stone_places(board)
    setup = board_setup(state)
    for label in random.Random(3).sample(board.labels, 5):
        if state.stone_at(label) is not None:
            continue
        drawn = ET.fromstring(draw_board(state, preview=(label, "black")))
        ghost = next(e for e in drawn.iter(f"{NS}circle") if e.get("class") == "ghost")
        x, y, r = places[board.index(label)]
        drawn_at = [float(ghost.get(name, "")) for name in ("cx", "cy", "r")]
        assert drawn_at == pytest.approx([x, y, r], abs=0.01)
        assert [float(v) for v in setup["places"][label]] == pytest.approx([x, y, r], abs=0.01)
    assert set(setup["ghosts"]) == set(state.game.colours) == set(setup["stones"])
    assert setup["ghosts"]["black"].startswith("<circle")  # a shape at the origin, radius 1, for the page to place


def test_omny_regions_on_the_page_agree_with_the_plain_reference() -> None:
    for seed in range(25):
        rng = random.Random(seed)
        variant = rng.choice(["y", "sunder", "gyre"])
        game = ogames.load("omny", variant=variant, size=4, komi=rng.choice([0, 1, 1.5]))
        state = game.new_state()
        for _ in range(rng.randrange(0, 25)):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
        stones = [int(v) for v in state.stones]
        stars = [c in game.star_cells for c in range(len(game.board))]
        for turn, item in enumerate(board_part(state)["regions"]):
            largest = [max(region_stars_reference(stones, game.board.neighbours, stars, c)[1], default=0)
                       for c, v in enumerate(stones) if v == turn + 1]
            assert item["best"] == (min(largest) if largest else None)
            assert item["limit"] == state.bound(turn) // 2
            assert item["stars"] == game.total_stars


def test_omny_regions_wait_for_the_komi_choice() -> None:
    state = ogames.load("omny", variant="y", size=3, komi_choice=True).new_state()
    assert board_part(state)["regions"] == []
    state.play("komi=1")
    assert [item["limit"] for item in board_part(state)["regions"]] == [0, 2]


def test_omega_shows_group_sizes_and_which_stone_of_the_turn_is_next() -> None:
    state = ogames.load("omega", players=3, size=4).new_state()
    state.play("d1")
    state.play("d4")
    part = board_part(state)
    assert part["groups"] == {"white": [1], "black": [1], "red": []}
    assert part["placing"] == {"index": 3, "of": 3}


def test_onyx_captures_are_marked_and_listed() -> None:
    state = finished("onyx", {}, seed=2)
    moves = move_list(state)
    capturing = [m for m in moves if m.get("captures")]
    assert capturing, "this game captures"
    first = capturing[0]
    earlier = position_state(state, first["n"])
    part = board_part(earlier)
    assert part["captures"] == first["captures"]
    assert all(earlier.stone_at(label) is None for label in part["captures"])
    for label in part["captures"]:
        assert f'class="captured" data-cell="{label}"' in part["svg"]
    assert sum(part["captured"].values()) >= len(first["captures"])


def test_the_winning_path_is_the_group_of_the_last_stone_and_nothing_after_a_resignation() -> None:
    state = finished("onyx", {})
    cells = set(winning_cells(state))
    assert state.history[-1]["move"] in cells
    onyx_sides = {label[0] for label in cells if "*" not in label}
    assert {"a", "l"} <= onyx_sides or {"1", "12"} <= {label[1:] for label in cells if "*" not in label}
    omega = finished("omega", {"players": 2, "size": 4})
    assert set(winning_cells(omega)) == {label for label in omega.board.labels if omega.stone_at(label) == omega.winner}  # type: ignore[attr-defined]
    resigned = ogames.load("omny", variant="y", size=3).new_state().play("a1").resign()
    assert winning_cells(resigned) == [] and board_part(resigned)["winning"] == []


def test_earlier_positions_are_the_game_replayed_to_that_move() -> None:
    state = finished("omega", {"players": 2, "size": 4, "pie": True})
    for k in (0, 1, len(state.history) // 2, len(state.history)):
        earlier = position_state(state, k)
        assert earlier.history == state.history[:k]
        shown = position_view(state, k)
        assert (shown.k, shown.of) == (k, len(state.history))
        assert cell_groups(shown.board.svg or "").keys() == set(state.board.labels)  # type: ignore[attr-defined]
    last = position_view(state, len(state.history)).result
    assert last is not None and last.winner == state.winner
    with pytest.raises(ValueError, match="no position"):
        position_state(state, len(state.history) + 1)


def test_views_carry_the_drawing_and_earlier_positions_are_served(client: TestClient) -> None:
    game_id, tokens = create(client, "onyx", {})
    view = client.get(f"/api/games/{game_id}").json()
    assert set(cell_groups(view["board"]["svg"])) >= {"a1", "b1*", "l12"}
    for move, seat in (("c3", "0"), ("d4", "1")):
        body = {"move": move, "token": tokens[seat], "version": view["version"]}
        view = client.post(f"/api/games/{game_id}/moves", json=body).json()
    assert [m["move"] for m in view["moves"]] == ["c3", "d4"]
    start = client.get(f"/api/games/{game_id}/position/0")
    assert start.status_code == 200
    body = start.json()
    assert body["k"] == 0 and body["of"] == 2 and body["to_move"] == "black"
    assert 'data-cell="c3"' in body["board"]["svg"] and 'data-stone="black"' in body["board"]["svg"]  # the set-up stones
    assert cell_groups(client.get(f"/api/games/{game_id}/position/1").json()["board"]["svg"])["c3"].get("data-stone") == "black"
    for bad in ("3", "-1", "x", "1e3", "99999999999"):
        answer = client.get(f"/api/games/{game_id}/position/{bad}")
        assert answer.status_code == 404 and answer.json()["code"] == "not-found", bad
    assert client.get("/api/games/nosuchgame/position/0").status_code == 404
    assert not any(token in client.get(f"/api/games/{game_id}/position/2").text for token in tokens.values())


def test_the_game_page_carries_the_drawing_and_the_board_setup(client: TestClient) -> None:
    game_id, _ = create(client, "omny", {"variant": "sunder", "size": 2})
    page = client.get(f"/g/{game_id}").text
    assert 'id="board-setup"' in page and "/static/board.js" in page and 'id="coords-toggle"' in page
    assert 'class="ogames-board"' in page and 'data-star="true"' in page


def test_a_position_is_drawn_once_however_often_it_is_viewed() -> None:
    state = ogames.load("omega", players=3, size=4).new_state()
    state.play("d1")
    first = board_part(state)
    assert board_part(state) is first  # the same view again (the computer thinking, more watchers)
    state.play("d4")  # the same turn's entry grows in place: a new position all the same
    assert board_part(state) is not first and board_part(state)["groups"]["black"] == [1]
