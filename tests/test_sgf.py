"""SGF export and import for the hex-board games (ogames.sgf, `ogames sgf`): records go to SGF and
come back the same; the written form is HexGui's; corrupt or hostile SGF gives BadRecord with a
clear message, and the command line never shows a traceback."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import ogames
from conformance.cases import CASES, Case, variants_of
from ogames import sgf
from ogames.cli.app import app
from ogames.errors import BadRecord


def writes_sgf(case: Case) -> bool:
    try:
        sgf.hex_board_check(case.load().new_state())
    except BadRecord:
        return False
    return True


# Every conformance case SGF is written for (which those are is checked just below).
HEX_CASES = [case for case in CASES if writes_sgf(case)]


def test_sgf_is_written_for_every_omny_variant_and_odd_y_on_the_triangle():
    assert {case.variant for case in HEX_CASES if case.game == "omny"} == set(variants_of("omny"))
    assert {case.game for case in HEX_CASES} == {"omny", "oddy"}
    assert all(case.load().options["board"] == "triangle" for case in HEX_CASES if case.game == "oddy")


def without_times(record: dict) -> dict:
    for entry in record["moves"]:
        entry.pop("t", None)
    return record


def random_record(case: int, seed: int, stop: int | None, resign: bool) -> dict:
    rng = random.Random(seed)
    state = HEX_CASES[case].load().new_state(["ann", "b]o\\b"])
    while not state.is_over and (stop is None or state.ply < stop):
        state.play(rng.choice(state.legal_moves()))
    if resign and not state.is_over:
        state.resign()
    return without_times(state.record())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.integers(0, len(HEX_CASES) - 1),
    seed=st.integers(0, 2**32),
    stop=st.none() | st.integers(0, 30),
    resign=st.booleans(),
)
def test_records_go_to_sgf_and_come_back_the_same(case, seed, stop, resign):
    record = random_record(case, seed, stop, resign)
    text = sgf.to_sgf(record)
    assert text.startswith("(;FF[4]GM[11]") and text.rstrip().endswith(")")
    assert sgf.from_sgf(text) == record
    assert sgf.from_sgf(text.encode()) == record


def test_the_written_form_is_hexguis():
    state = ogames.load("oddy", size=4).new_state(["ann", "bob"])
    for move in ("b2", "swap", "a1", "c1"):
        state.play(move, t=0.0)
    state.resign("white", t=0.0)
    text = sgf.to_sgf(state)
    assert text == (
        '(;FF[4]GM[11]AP[ogames:0.1.0]SZ[4]PB[ann]PW[bob]RE[B+R]OG[oddy]OO[{"board":"triangle","pie":true,"sides":3,"size":4}]\n'
        ";B[b2];W[swap-sides];W[a1];B[c1];W[resign])\n"
    )
    assert sgf.parse(text)[0][2] == {"W": ["swap-sides"]}


def test_non_square_boards_write_width_and_height():
    state = ogames.load("omny", variant="custom", cells="a1 b1 c1 d1 a2", stars="all").new_state()
    assert "SZ[4:2]" in sgf.to_sgf(state)
    assert sgf.board_size(ogames.load("omny", variant="sunder", size=3).new_state()) == (5, 5)


def test_a_plain_hex_file_is_read_with_the_game_given():
    text = "(;FF[4]GM[11]SZ[3]PB[x]PW[y];B[b2];W[swap-sides];W[a1](;B[c1])(;B[a3]))"
    record = sgf.from_sgf(text, game="omny", options={"variant": "custom", "shape": "rhombus", "size": 3, "pie": True})
    assert [m["move"] for m in record["moves"]] == ["b2", "swap", "a1", "c1"]  # the main line only
    assert record["players"] == ["x", "y"] and record["seats"] == {"black": "y", "white": "x"}


def test_escapes_and_soft_line_breaks_in_values():
    assert sgf.parse("(;C[a\\]b\\\\c\\\nd])") == [[{"C": ["a]b\\cd"]}]]


HOSTILE = [
    ("", "starts with"),
    ("hello", "starts with"),
    ("(;GM[11]SZ[3];B[a1]", "')' is missing"),
    ("(;GM[11]SZ[3];B[a1", "not closed"),
    ("(;GM[11]SZ[3];B[a1\\", "not closed"),
    ("(;GM[11]SZ[3];B[a1]))", "unexpected"),
    ("(;GM[11]SZ[3];B)", "no [value]"),
    ("(;gm[11])", "capital letters"),
    ("(;GM[11]GM[11])", "twice"),
    ("(GM[11])", "starts with a node"),
    ("(;GM[1]SZ[19];B[dd])", "not Hex"),
    ("(;FF[9]GM[11])", "SGF version"),
    ("(;GM[11]SZ[3];B[a1])", "no OG property"),
    ('(;GM[11]OG[chess]OO[{}])', "cannot be set up"),
    ('(;GM[11]OG[omega]OO[{}])', "hex-board games only"),
    ('(;GM[11]OG[oddy]OO[{"size":3,"board":"polar","sides":3}])', "hex-board games only"),
    ('(;GM[11]OG[oddy]OO[{"size":"x"}])', "cannot be set up"),
    ('(;GM[11]OG[oddy]OO[[1,2\\]])', "JSON object"),
    ('(;GM[11]OG[oddy]OO[{nope])', "not JSON"),
    ('(;GM[11]OG[oddy]OO[{"size":3}]SZ[4])', "SZ[3]"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];B[z9])', "node 1"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];W[a1])', "black's turn"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];B[a1];W[a1])', "occupied"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];B[a1];W[swap-pieces])', "swap-sides"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];B[a1];W[])', "pass"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];B[a1]W[b1])', "more than one move"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];B[a1][b1])', "2 values"),
    ('(;GM[11]OG[oddy]OO[{"size":3}]AB[a1])', "set-up stones"),
    ('(;GM[11]OG[oddy]OO[{"size":3}]RE[W+];B[a1])', "moves give nobody"),
    ('(;GM[11]OG[oddy]OO[{"size":3}]RE[X+];B[a1])', "not a result"),
    ('(;GM[11]OG[oddy]OO[{"size":3}];KC[1])', "komi"),
    ('(;GM[11]OG[omny]OO[{"variant":"y","size":3,"komi_choice":true}];KC[9])', "komi is from 0 to half the star cells"),
    ("(;GM[11]OG[oddy]PB[" + "x" * 300 + "])", "200 characters"),
    ("(;GM[11]" + "(;C[x]" * 2000, "nested more than"),
    ("(;GM[11]" + ";C[x]" * 20_001 + ")", "more than 20000 nodes"),
    ("(;GM[11]C[" + "x" * 2_000_001 + "])", "larger than"),
]


@pytest.mark.parametrize(("text", "why"), HOSTILE, ids=[f"hostile-{i}" for i in range(len(HOSTILE))])
def test_corrupt_sgf_is_refused_with_a_clear_message(text, why):
    with pytest.raises(BadRecord, match=re.escape(why)) as caught:
        sgf.from_sgf(text)
    assert len(str(caught.value)) <= 600


def test_bytes_that_are_not_utf8_are_refused():
    with pytest.raises(BadRecord, match="UTF-8"):
        sgf.from_sgf(b"(;GM[11]C[\xff])")


def test_a_resignation_written_only_in_the_result_is_kept():
    record = sgf.from_sgf('(;GM[11]OG[oddy]OO[{"size":3}]RE[W+R];B[a1])')
    assert record["moves"][-1] == {"move": "resign", "by": "black"}
    assert record["result"]["winner"] == "white"


def test_games_without_hex_boards_are_not_exported():
    for name, options in (("onyx", {}), ("omega", {"size": 4}), ("oddy", {"sides": 5, "size": 3})):
        with pytest.raises(BadRecord, match="hex-board games only"):
            sgf.to_sgf(ogames.load(name, **options).new_state().record())


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="();[]\\ABWGMSZOGa1b2\n{}\":,", max_size=80) | st.binary(max_size=60))
def test_any_input_gives_a_record_or_bad_record(text):
    try:
        sgf.from_sgf(text)
    except BadRecord:
        pass


def test_the_command_line_exports_and_imports(tmp_path):
    runner = CliRunner()
    record = random_record(0, 5, None, False)
    (tmp_path / "game.json").write_text(ogames.records.dumps(record))
    done = runner.invoke(app, ["sgf", "export", str(tmp_path / "game.json"), "-o", str(tmp_path / "game.sgf")])
    assert done.exit_code == 0, done.output
    done = runner.invoke(app, ["sgf", "import", str(tmp_path / "game.sgf")])
    assert done.exit_code == 0
    assert ogames.records.loads(done.stdout) == record
    (tmp_path / "hex.sgf").write_text("(;GM[11]SZ[3];B[b2];W[a1])")
    options = ["--option", "variant=custom", "--option", "shape=rhombus", "--option", "size=3"]
    done = runner.invoke(app, ["sgf", "import", str(tmp_path / "hex.sgf"), "--game", "omny", *options])
    assert done.exit_code == 0 and '"b2"' in done.stdout


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["sgf", "import", "{dir}/bad.sgf"], "(;GM[11];B[a1", "not a valid SGF"),
        (["sgf", "import", "{dir}/missing.sgf"], None, "cannot read"),
        (["sgf", "import", "{dir}/bad.sgf", "--option", "size=3"], "(;GM[11])", "needs --game"),
        (["sgf", "import", "{dir}/bad.sgf", "--game", "omny", "--option", "colour=3"], "(;GM[11])", "no such option"),
        (["sgf", "export", "{dir}/bad.sgf"], "(;GM[11])", "not valid JSON"),
        (["sgf", "export", "{dir}/bad.sgf"], '{"format": "ogames-record"}', "bad.sgf"),
    ],
)
def test_the_command_line_reports_bad_input_in_one_line(tmp_path, args, content, message):
    if content is not None:
        (tmp_path / "bad.sgf").write_text(content)
    done = CliRunner().invoke(app, [a.format(dir=tmp_path) for a in args])
    assert done.exit_code == 1
    assert message in done.output and "Traceback" not in done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
