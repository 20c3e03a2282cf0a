"""`ogames review RECORD`: the moves with their marks and win chances, the graph, `--json`, and a
clear refusal (exit 2, no traceback) of a bad record or option. Budgets kept small."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import ogames
from ogames import sgf
from ogames.cli.app import app
from ogames.cli.review import SPARKS, sparkline
from ogames.records import dumps
from ogames.teach.review import Review

runner = CliRunner()


def run(args: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, args)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A finished Odd-Y game (the triangle, so that it also has an SGF form) with a weak side."""
    state = ogames.load("oddy", size=4).new_state(["ann", "bob"])
    strong, weak = ogames.player("mcts", iterations=300, seed=1), ogames.player("random", seed=2)
    while not state.is_over:
        state.play((strong if state.mover == 0 else weak).choose(state))
    return state.record()


def test_review_prints_every_move_with_its_mark_and_the_graph(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(record))
    code, out, err = run(["review", str(path), "--budget", "200", "--prove", "2000"])
    assert code == 0, err
    assert "Odd-Y" in out and "ann" in out and "bob" in out
    for number, entry in enumerate(record["moves"], start=1):
        assert f"{number:4d}. {entry['by']}" in out and entry["move"] in out
    graph = next(line for line in out.splitlines() if line.startswith("win chance of"))
    assert len(graph.split(": ", 1)[1].strip()) == len(record["moves"]) + 1
    assert set(graph.split(": ", 1)[1].strip()) <= set(SPARKS)
    assert "mean loss" in out


def test_review_tells_apart_two_seats_of_one_name(tmp_path: Path) -> None:
    """Two computers of one level (as the site names them) in a three-player game: the graph's and
    the tallies' lines name each with its colour."""
    state = ogames.load("omega", players=3, size=4).new_state(["ann", "bot", "bot"])
    player = ogames.player("random", seed=3)
    while not state.is_over:
        state.play(player.choose(state))
    path = tmp_path / "game.json"
    path.write_text(dumps(state.record()))
    code, out, err = run(["review", str(path), "--budget", "30", "--prove", "0"])
    assert code == 0, err
    lines = out.splitlines()
    graphs = [line.split(":")[0] for line in lines if line.startswith("win chance of")]
    assert graphs == ["win chance of ann (white)", "win chance of bot (black)", "win chance of bot (red)"]
    tallies = [line.split(":")[0] for line in lines if "mean loss" in line]
    assert tallies == ["ann", "bot (black)", "bot (red)"]


def test_review_json_is_the_review_and_reads_back(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(record))
    code, out, err = run(["review", str(path), "--budget", "150", "--prove", "0", "--json"])
    assert code == 0, err
    review = Review.from_json(out)
    assert [m.move for m in review.moves] == [e["move"] for e in record["moves"]]
    assert review.budget == 150 and review.prove == 0 and review.players == ("ann", "bob")


def test_review_reads_an_sgf_record(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(sgf.to_sgf(record))
    code, out, err = run(["review", str(path), "--budget", "100", "--prove", "0", "--json"])
    assert code == 0, err
    assert [m.move for m in Review.from_json(out).moves] == [e["move"] for e in record["moves"]]


@pytest.mark.parametrize(
    ("content", "args", "says"),
    [
        (None, [], "cannot read"),
        ("{not json", [], "not valid JSON"),
        ('{"format": "ogames-record"}', [], "version"),
        ("(;FF[4]GM[1];B[aa])", [], "GM[1]"),
        ("good", ["--budget", "0"], "budget must be"),
        ("good", ["--prove", "-5"], "prove must be"),
        ("omiga", [], "Omny, Odd-Y, Omega and Onyx"),
    ],
)
def test_a_bad_record_or_option_is_refused_with_exit_2(tmp_path: Path, record: dict[str, Any], content: str | None,
                                                       args: list[str], says: str) -> None:
    path = tmp_path / "game.json"
    if content == "good":
        path.write_text(dumps(record))
    elif content == "omiga":
        path.write_text(dumps(ogames.load("omiga", variant="toddler").new_state().record()))
    elif content is not None:
        path.write_text(content)
    code, out, err = run(["review", str(path), "--budget", "50", *args])
    assert code == 2
    assert says in err and "Traceback" not in err + out


def test_a_budget_that_is_not_a_number_is_refused_by_the_command(tmp_path: Path) -> None:
    code, _, err = run(["review", str(tmp_path / "x.json"), "--budget", "many"])
    assert code == 2 and "Traceback" not in err


def test_the_sparkline_spans_the_blocks_and_samples_long_games() -> None:
    assert sparkline([0.0, 0.5, 1.0]) == SPARKS[0] + SPARKS[4] + SPARKS[-1]
    assert len(sparkline([i / 500 for i in range(500)], width=40)) == 40


def test_the_review_json_written_is_strict_json(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(record))
    code, out, _ = run(["review", str(path), "--budget", "100", "--prove", "0", "--json"])
    assert code == 0
    json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in the review's JSON"))
