"""The opening explorer's tree (ogames.teach.explorer): counts and results from known records,
transpositions meeting in the stone games (and not in Omega, keyed by its line), records of other
boards or tampered ones left out, and the shipped book's verdicts checked against docs/solved.md and
against plain minimax (a second method)."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import IllegalMove
from ogames.players.solvers.connection import winning_moves_reference
from ogames.teach.explorer import Tree, board_key, next_moves, position, position_key, shipped_book

ROOT = Path(__file__).resolve().parents[2]
Y4 = {"variant": "y", "size": 4}


def finished(game: str, options: dict[str, Any], opening: list[str], seed: int = 0) -> dict[str, Any]:
    """A finished game's record: the opening, then moves chosen at random (seeded) until it ends."""
    rng = random.Random(seed)
    state = ogames.load(game, **options).new_state(["ann", "bob"])
    for move in opening:
        state.play(move)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return state.record()


def rows_at(tree: Tree, path: list[str]) -> dict[str, Any]:
    state = position(tree.game, path)
    return {row.move: row for row in next_moves(state, path, [tree])}


def test_counts_and_results_from_known_records() -> None:
    records = [finished("omny", Y4, ["b2"], seed) for seed in range(3)] + [finished("omny", Y4, ["a1"], 9)]
    tree = Tree.of("omny", Y4)
    assert all(tree.add_record(record) for record in records)
    root = rows_at(tree, [])
    assert set(root) == {"b2", "a1"}
    assert root["b2"].games == 3 and root["a1"].games == 1
    winners = [record["result"]["winner"] for record in records[:3]]
    assert root["b2"].wins == {colour: winners.count(colour) for colour in set(winners)}
    assert root["b2"].score == pytest.approx(winners.count("black") / 3)  # Black moves first: the score is Black's
    assert root["a1"].score == (1.0 if records[3]["result"]["winner"] == "black" else 0.0)
    # One level down: White's replies after b2, each with its own games; the score is now White's.
    replies = rows_at(tree, ["b2"])
    assert sum(row.games for row in replies.values()) == 3
    for record in records[:3]:
        reply = replies[record["moves"][1]["move"]]
        assert reply.games >= 1
    for row in replies.values():
        assert row.score == pytest.approx(row.wins.get("white", 0) / row.games)
    # Most played first.
    assert next_moves(position(tree.game, []), [], [tree])[0].move == "b2"


def test_transpositions_meet_in_the_stone_games() -> None:
    one = finished("omny", Y4, ["a1", "b2", "c1"], 1)
    other = finished("omny", Y4, ["c1", "b2", "a1"], 2)
    tree = Tree.of("omny", Y4)
    assert tree.add_record(one) and tree.add_record(other)
    here, there = position(tree.game, ["a1", "b2", "c1"]), position(tree.game, ["c1", "b2", "a1"])
    assert position_key(here, ["a1", "b2", "c1"]) == position_key(there, ["c1", "b2", "a1"])
    assert rows_at(tree, ["a1", "b2", "c1"]) == rows_at(tree, ["c1", "b2", "a1"])
    assert sum(row.games for row in rows_at(tree, ["a1", "b2", "c1"]).values()) == 2
    # The colour to move is part of the position: the same stones with the other side to move are not.
    assert position_key(position(tree.game, ["a1"]), ["a1"]) != position_key(position(tree.game, []), [])


def test_omega_is_keyed_by_its_line() -> None:
    options = {"players": 2, "size": 4}
    game = ogames.load("omega", **options)
    record = finished("omega", options, [], 3)
    tree = Tree(game)
    assert tree.add_record(record)
    first = record["moves"][0]["move"].split()[0]
    assert rows_at(tree, [])[first].games == 1
    assert position_key(position(game, [first]), [first]).startswith("line|")


def test_records_of_other_boards_or_tampered_are_left_out() -> None:
    tree = Tree.of("omny", Y4)
    other_board = finished("omny", {"variant": "y", "size": 5}, [], 1)
    unfinished = ogames.load("omny", **Y4).new_state(["ann", "bob"]).record()
    tampered = copy.deepcopy(finished("omny", Y4, ["b2"], 4))
    tampered["result"]["winner"] = "white" if tampered["result"]["winner"] == "black" else "black"
    illegal = copy.deepcopy(finished("omny", Y4, ["b2"], 5))
    illegal["moves"][1]["move"] = "b2"
    for record in (other_board, unfinished, tampered, illegal, {"game": "omny"}, "junk", finished("onyx", {}, [], 1)):
        assert not tree.add_record(record)  # type: ignore[arg-type]
    assert tree.nodes == {} and tree.lines == 0


def test_a_line_the_rules_refuse_is_not_added() -> None:
    tree = Tree.of("omny", Y4)
    with pytest.raises(IllegalMove):
        tree.add_line(["b2", "b2"], "black")
    assert tree.nodes == {}
    with pytest.raises(IllegalMove):
        position(tree.game, ["b2", "z9"])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_every_game_is_counted_once_at_the_root_and_along_its_line(seeds: list[int]) -> None:
    tree = Tree.of("omny", Y4)
    records = [finished("omny", Y4, [], seed) for seed in seeds]
    for record in records:
        tree.add_record(record)
    assert sum(row.games for row in rows_at(tree, []).values()) == len(records)
    line = [entry["move"] for entry in records[0]["moves"]]
    for ply, move in enumerate(line):
        assert rows_at(tree, line[:ply])[move].games >= 1


# ----- the shipped book's verdicts ----------------------------------------------------------------


def solved_page_lists(title: str) -> tuple[set[str], set[str]]:
    """The winning and losing first moves docs/solved.md lists under a board's heading."""
    text = (ROOT / "docs" / "solved.md").read_text(encoding="utf-8")
    section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]

    def listed(kind: str) -> set[str]:
        found = re.search(rf"^{kind} first moves \(\d+\): (.*?)\s*$", section, re.M)
        assert found, (title, kind)
        return set() if found.group(1) == "none" else set(found.group(1).split())

    return listed("Winning"), listed("Losing")


def test_every_book_board_is_on_solved_md_with_the_same_first_move_verdicts() -> None:
    from solve_openings import BOARDS

    book = shipped_book()
    solved = {board_key(ogames.load(b.game, **b.options)): b.title for b in BOARDS}
    assert book.trees, "the book has boards"
    for key, tree in book.trees.items():
        assert key in solved, f"the book's board {key} has no section on docs/solved.md: add it to tools/solve_openings.py"
        game = tree.game
        rows = next_moves(game.new_state(), [], [book.tree(game)], book.verdicts)
        wins, losses = solved_page_lists(solved[key])
        assert {row.move for row in rows if row.verdict == "win"} == wins, key
        assert {row.move for row in rows if row.verdict == "loss"} == losses, key
        played = next_moves(game.new_state(), [], [Tree(game)], book.verdicts, unplayed=False)
        assert played == []  # with no games, no move is listed unless asked for


def test_the_books_y4_verdicts_agree_with_plain_minimax() -> None:
    book = shipped_book()
    game = ogames.load("omny", **Y4)
    tree = book.tree(game)
    assert tree.lines > 0, "the book has Y 4 games"
    memo: dict[Any, int] = {}
    checked = 0
    for path in [[], *[[move] for move in rows_at(tree, [])]]:
        state = position(game, path)
        proven = {row.move: row.verdict for row in next_moves(state, path, [tree], book.verdicts) if row.verdict}
        if not proven:
            continue
        winning = set(winning_moves_reference(state, memo))
        assert proven == {move: "win" if move in winning else "loss" for move in proven}, path
        checked += len(proven)
    assert checked >= 10 + 9  # the first moves, and the replies of at least one of them
