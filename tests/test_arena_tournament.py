"""Tournaments: real games in worker processes, records that replay, the manifest, resuming after
lost and corrupt records, real-time Omiga, bigger tables, and the reports written beside them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import ogames
from ogames.arena.play import Task, game_seed, play_task
from ogames.arena.report import write_reports
from ogames.arena.tournament import GAMES, MANIFEST, TournamentError, from_manifest, plan, read_book, read_saved, run
from ogames.errors import BadOption

Y4 = {"variant": "y", "size": 4}
SPECS = ["random", "mcts:iterations=30"]


def saved_records(folder: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text()) for p in sorted((folder / GAMES).glob("*.json"))}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A tiny real tournament played once in two worker processes: random vs mcts on Y 4."""
    folder = tmp_path_factory.mktemp("tournament") / "y4"
    t = plan("omny", Y4, SPECS, games_per_pair=6, seed=11)
    seen = []
    summary = run(t, folder, workers=2, progress=lambda saved, total, number, error: seen.append((saved, total, error)))
    return t, folder, summary, seen


def test_a_tiny_tournament_saves_every_game_as_a_record_that_replays(played):
    t, folder, summary, seen = played
    records = saved_records(folder)
    assert sorted(records) == sorted(p.file_name for p in t.pairings) and len(records) == 6
    for pairing in t.pairings:
        record = records[pairing.file_name]
        state = ogames.replay(record)
        assert state.is_over
        assert record["players"] == [t.names[e] for e in pairing.seating]
    # seats alternate: each player starts three games
    assert Counter(r["players"][0] for r in records.values()) == Counter({"random": 3, "mcts:iterations=30": 3})
    assert summary.played == 6 and summary.complete and not summary.failed
    assert seen[0] == (0, 6, None) and seen[-1] == (6, 6, None)


def test_the_manifest_says_what_the_tournament_is(played):
    t, folder, _, _ = played
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest == t.manifest()
    assert manifest["game"] == "omny" and manifest["options"]["variant"] == "y" and manifest["options"]["size"] == 4
    assert manifest["entrants"] == SPECS and manifest["games_per_pair"] == 6 and manifest["seed"] == 11
    assert manifest["games"] == 6


def test_the_table_counts_every_game(played):
    _, _, summary, _ = played
    ratings = {r.name: r for r in summary.table.ratings}
    assert ratings["random"].games == ratings["mcts:iterations=30"].games == 6
    assert ratings["random"].points + ratings["mcts:iterations=30"].points == 6
    assert ratings["mcts:iterations=30"].elo > ratings["random"].elo  # 30 playouts a move beat random on Y 4


def test_games_are_reproducible_from_the_seed(played):
    t, folder, _, _ = played
    pairing = t.pairings[3]
    again = play_task(t.task(pairing))  # in this process; the original was played in a worker
    original = saved_records(folder)[pairing.file_name]
    assert [m["move"] for m in again["moves"]] == [m["move"] for m in original["moves"]]
    assert t.task(pairing).seed == game_seed(11, 3) != game_seed(11, 4)


def test_reports_are_written_and_the_plot_is_a_png(played):
    _, folder, summary, _ = played
    paths = write_reports(summary, folder)
    png = paths["png"].read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    table = json.loads(paths["json"].read_text())
    assert table["games"] == 6 and {r["name"] for r in table["ratings"]} == set(SPECS)
    assert "bootstrap" in table["method"]
    lines = paths["csv"].read_text().splitlines()
    assert lines[0].startswith("rank,name,games") and len(lines) == 3


def test_resume_plays_only_the_missing_games(played, tmp_path):
    t, source, _, _ = played
    folder = tmp_path / "again"
    folder.mkdir()
    (folder / GAMES).mkdir()
    (folder / MANIFEST).write_text((source / MANIFEST).read_text())
    records = saved_records(source)
    names = sorted(records)
    for name in names:
        (folder / GAMES / name).write_text(json.dumps(records[name]))
    (folder / GAMES / names[0]).unlink()
    (folder / GAMES / names[4]).unlink()
    (folder / GAMES / names[2]).write_text((folder / GAMES / names[2]).read_text()[:150])  # cut short
    tampered = dict(records[names[5]], players=["bob", "ann"])
    (folder / GAMES / names[5]).write_text(json.dumps(tampered))
    kept = {name: (folder / GAMES / name).stat().st_mtime_ns for name in (names[1], names[3])}

    played_now = []
    notes = []
    summary = run(t, folder, 1, resume=True, progress=lambda s, n, number, e: played_now.append(number), notes=notes.extend)
    assert sorted(n for n in played_now if n >= 0) == [0, 2, 4, 5]
    assert summary.played == 4 and summary.complete and len(summary.outcomes) == 6
    assert any(names[2] in note and "replacing" in note for note in notes)
    assert any(names[5] in note and "replacing" in note for note in notes)
    assert {name: (folder / GAMES / name).stat().st_mtime_ns for name in kept} == kept  # untouched
    assert sum(r.games for r in summary.table.ratings) == 12
    for record in saved_records(folder).values():
        assert ogames.replay(record).is_over

    # Everything there: a second resume plays nothing and rates the same games.
    again = run(t, folder, workers=1, resume=True)
    assert again.played == 0 and again.complete


def test_more_games_per_pair_go_on_from_the_saved_ones(tmp_path):
    """Resumed with more games per pair, a tournament keeps its saved games (the first rounds of
    the longer schedule, openings included) and plays only the new rounds; fewer is refused."""
    small = plan("omny", Y4, ["random", "random:seed=4"], games_per_pair=2, seed=5, opening_plies=1)
    run(small, tmp_path / "grow", workers=1)
    before = saved_records(tmp_path / "grow")
    bigger = plan("omny", Y4, ["random", "random:seed=4"], games_per_pair=4, seed=5, opening_plies=1)
    summary = run(bigger, tmp_path / "grow", workers=1, resume=True)
    assert summary.played == 2 and summary.complete
    assert any("2 saved, 4 now" in note for note in summary.notes)
    after = saved_records(tmp_path / "grow")
    assert {name: after[name] for name in before} == before and len(after) == 4
    assert json.loads((tmp_path / "grow" / MANIFEST).read_text())["games_per_pair"] == 4
    with pytest.raises(TournamentError, match="games_per_pair"):
        run(small, tmp_path / "grow", workers=1, resume=True)


def test_a_saved_tournament_is_read_back_without_changing_its_folder(played, tmp_path):
    """`read_saved` plans the tournament again from its manifest and reads the games saved so
    far; a record that does not check and a cut-short write are left out and left in place."""
    t, source, summary, _ = played
    assert from_manifest(t.manifest()).manifest() == t.manifest()
    folder = tmp_path / "copy"
    (folder / GAMES).mkdir(parents=True)
    (folder / MANIFEST).write_text((source / MANIFEST).read_text())
    records = saved_records(source)
    names = sorted(records)
    for name in names[:4]:
        (folder / GAMES / name).write_text(json.dumps(records[name]))
    (folder / GAMES / names[3]).write_text(json.dumps(dict(records[names[3]], players=["bob", "ann"])))
    (folder / GAMES / f".{names[4]}.tmp").write_text("{")
    before = sorted((p.name, p.read_text()) for p in (folder / GAMES).iterdir())

    read_t, outcomes = read_saved(folder)
    assert read_t.manifest() == t.manifest()
    assert outcomes == {n: summary.outcomes[n] for n in range(3)}
    assert sorted((p.name, p.read_text()) for p in (folder / GAMES).iterdir()) == before
    assert read_saved(tmp_path / "nothing here") is None
    (folder / MANIFEST).write_text("{not json")
    with pytest.raises(TournamentError, match="cannot be read"):
        read_saved(folder)
    (folder / MANIFEST).write_text(json.dumps({"format": "something else"}))
    with pytest.raises(TournamentError, match="not an ogames tournament"):
        read_saved(folder)


def test_a_folder_is_not_reused_by_mistake(played, tmp_path):
    t, folder, _, _ = played
    with pytest.raises(TournamentError, match="already holds a tournament: add --resume"):
        run(t, folder, workers=1)
    other = plan("omny", Y4, SPECS, games_per_pair=6, seed=12)
    with pytest.raises(TournamentError, match=r"different tournament .*seed: 11 there, 12 here"):
        run(other, folder, workers=1, resume=True)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(TournamentError, match="not empty"):
        run(t, busy, workers=1)


def test_real_time_omiga_bots_play_a_tournament(tmp_path):
    options = {"variant": "base", "width": 5, "height": 5}
    t = plan("omiga", options, ["racer:reaction=expert", "random:reaction=club"], games_per_pair=4, seed=2)
    assert t.real_time and t.sides == 2
    summary = run(t, tmp_path / "omiga", workers=1)
    assert summary.complete and summary.played == 4
    records = saved_records(tmp_path / "omiga")
    seeds = {r["options"]["seed"] for r in records.values()}
    assert len(seeds) == 4  # a new deal for every game
    for name, record in records.items():
        state = ogames.replay(record)
        first = "racer:reaction=expert" if "seats-0-1" in name else "random:reaction=club"
        assert state.seats["white"] == first
    ratings = {r.name: r for r in summary.table.ratings}
    assert ratings["racer:reaction=expert"].games == 4
    assert ratings["racer:reaction=expert"].elo >= ratings["random:reaction=club"].elo
    assert run(t, tmp_path / "omiga", workers=1, resume=True).played == 0


def test_three_player_omega_seats_every_order(tmp_path):
    t = plan("omega", {"players": 3, "size": 4}, ["random", "random:seed=5", "mcts:iterations=20"], games_per_pair=6, seed=1)
    assert t.sides == 3 and len(t.pairings) == 6
    assert {p.seating for p in t.pairings} == {(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)}
    summary = run(t, tmp_path / "omega", workers=1, samples=100)
    assert summary.complete
    assert [r.games for r in summary.table.ratings] == [6, 6, 6]
    assert [r.meetings for r in summary.table.ratings] == [12, 12, 12]  # three pairwise results per game
    assert sum(r.points for r in summary.table.ratings) == 18


@pytest.mark.parametrize(
    ("game", "options", "specs", "message"),
    [
        ("omny", Y4, ["random"], "2 to 64 players"),
        ("omny", Y4, ["random", "racer"], "real-time Omiga bot"),
        ("omny", Y4, ["random", "human"], "a person"),
        ("omny", Y4, ["random", "mcts:think=-1"], "think='-1' is not valid: it must be more than 0"),
        ("omiga", {"width": 5, "height": 5}, ["racer", "mcts"], "real-time Omiga bot is one of"),
        ("omiga", {"variant": "zen"}, ["random", "mcts"], "played alone"),
        ("omega", {"players": 3}, ["random", "mcts"], "at least 3 players"),
        ("chess", {}, ["random", "mcts"], "unknown game"),
        ("omny", {"size": 99}, ["random", "mcts"], "size"),
    ],
)
def test_bad_tournaments_are_refused_before_any_game(game, options, specs, message):
    with pytest.raises(BadOption, match=message):
        plan(game, options, specs)


def test_each_opening_is_played_in_every_seat_order(tmp_path):
    """Openings of random moves: the two games of a pair in a cycle of rounds share one, with the
    seats swapped; the next cycle has another; every record starts with its game's opening."""
    t = plan("omny", Y4, SPECS, games_per_pair=4, seed=3, opening_plies=2)
    openings = [t.task(p).opening for p in t.pairings]
    assert [len(o) for o in openings] == [2, 2, 2, 2]
    assert openings[0] == openings[1] and openings[2] == openings[3] and openings[0] != openings[2]
    assert t.pairings[0].seating == t.pairings[1].seating[::-1]
    assert t.manifest()["opening_plies"] == 2 and "opening_plies" not in plan("omny", Y4, SPECS).manifest()
    summary = run(t, tmp_path / "openings", workers=1)
    assert summary.complete
    for pairing, record in zip(t.pairings, saved_records(tmp_path / "openings").values(), strict=True):
        assert [m["move"] for m in record["moves"][:2]] == list(t.opening(pairing))
    # A record that does not start with its opening is played again on resume.
    path = tmp_path / "openings" / GAMES / t.pairings[0].file_name
    other = next(p for p in ogames.load("omny", **Y4).new_state().legal_moves() if p != openings[0][0])
    state = ogames.load("omny", **Y4).new_state(list(json.loads(path.read_text())["players"]))
    state.play(other)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    path.write_text(json.dumps(state.record()))
    again = run(t, tmp_path / "openings", workers=1, resume=True)
    assert again.played == 1 and any("does not start with the scheduled opening" in n for n in again.notes)


def test_omega_openings_may_end_inside_a_turn(tmp_path):
    """Three players: one opening per cycle of six seat orders; an opening of one placement ends
    inside White's turn, and its records still count as starting with it."""
    specs = ["random", "random:seed=5", "mcts:iterations=20"]
    t = plan("omega", {"players": 3, "size": 4}, specs, games_per_pair=6, opening_plies=1)
    assert len({t.task(p).opening for p in t.pairings}) == 1
    assert run(t, tmp_path / "omega", workers=1, samples=50).complete
    assert run(t, tmp_path / "omega", workers=1, resume=True).played == 0


def test_a_book_gives_its_openings_in_turn(tmp_path):
    """A book's lines start the games, one line per cycle of seat orders, the same line for every
    pair of the cycle, and the manifest keeps them."""
    book = tmp_path / "book.txt"
    book.write_text("# two openings\nb2   # the centre\n\na1,b1\n", encoding="utf-8")
    lines = read_book(book)
    assert lines == [["b2"], ["a1", "b1"]]
    t = plan("omny", Y4, [*SPECS, "random:seed=9"], games_per_pair=4, book=lines)
    by_round = {(p.round, p.seating): t.opening(p) for p in t.pairings}
    assert {o for (r, _), o in by_round.items() if r < 2} == {("b2",)}
    assert {o for (r, _), o in by_round.items() if r >= 2} == {("a1", "b1")}
    assert t.manifest()["book"] == [["b2"], ["a1", "b1"]]
    summary = run(t, tmp_path / "booked", workers=1)
    assert summary.complete and all(r["moves"][0]["move"] in ("b2", "a1") for r in saved_records(tmp_path / "booked").values())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "holds no opening"),
        ("# nothing\n\n", "holds no opening"),
        ("z9\n", "opening 1 of the book (z9)"),
        ("b2\nb2 b2\n", "opening 2 of the book (b2 b2)"),
        ("FINISHED\n", "must leave the game going"),
    ],
)
def test_bad_books_are_refused(tmp_path, text, message):
    finished = ogames.load("omny", **Y4).new_state()
    while not finished.is_over:
        finished.play(finished.legal_moves()[0])
    text = text.replace("FINISHED", " ".join(e["move"] for e in finished.history))
    book = tmp_path / "book.txt"
    book.write_text(text, encoding="utf-8")
    with pytest.raises(BadOption, match=message.replace("(", r"\(").replace(")", r"\)")):
        plan("omny", Y4, SPECS, games_per_pair=2, book=read_book(book))
    with pytest.raises(BadOption, match="not both"):
        plan("omny", Y4, SPECS, games_per_pair=2, book=[["b2"]], opening_plies=1)
    with pytest.raises(BadOption, match="cannot read the book"):
        read_book(tmp_path / "missing.txt")


@pytest.mark.parametrize(
    ("game", "options", "plies", "games", "message"),
    [
        ("omny", Y4, -1, 2, "0 or more, not -1"),
        ("omny", Y4, 1, 3, "a multiple of 2"),
        ("omega", {"players": 3, "size": 4}, 1, 4, "a multiple of 6"),
        ("omny", Y4, 40, 2, "no opening of 40 random moves"),
        ("omiga", {"width": 5, "height": 5}, 1, 2, "real time"),
    ],
)
def test_bad_openings_are_refused(game, options, plies, games, message):
    specs = ["random", "random:seed=2", "random:seed=3"][: 3 if game == "omega" else 2]
    if game == "omiga":
        specs = ["racer", "greedy"]
    with pytest.raises(BadOption, match=message):
        plan(game, options, specs, games_per_pair=games, opening_plies=plies)


def test_the_same_spec_twice_gets_two_names():
    t = plan("omny", Y4, ["random", "random", "mcts:iterations=5"], games_per_pair=2)
    assert t.names == ["random #1", "random #2", "mcts:iterations=5"]
    task = t.task(t.pairings[0])
    assert isinstance(task, Task) and task.names == ("random #1", "random #2")


def test_real_time_games_out_of_simulated_time_count_as_draws(tmp_path):
    t = plan("omiga", {"width": 5, "height": 5}, ["racer", "greedy"], games_per_pair=2, max_time=0.5)
    summary = run(t, tmp_path / "slow", workers=1, samples=50)
    assert summary.unfinished == 2 and summary.complete
    assert [r.points for r in summary.table.ratings] == [1.0, 1.0] and summary.table.ratings[0].elo == pytest.approx(0)
    for record in saved_records(tmp_path / "slow").values():
        assert record["result"] is None and not ogames.replay(record).is_over
    assert run(t, tmp_path / "slow", workers=1, resume=True, samples=50).played == 0  # kept, not replayed
    assert t.manifest()["max_time"] == 0.5


def test_a_game_that_fails_is_reported_and_played_on_resume(tmp_path, monkeypatch):
    import ogames.arena.play as play

    t = plan("omny", Y4, ["random", "random:seed=9"], games_per_pair=4)
    real = play.play_task

    def flaky(task):
        if task.number == 2:
            raise RuntimeError("the engine fell over")
        return real(task)

    monkeypatch.setattr(play, "play_task", flaky)
    errors = []
    summary = run(t, tmp_path / "f", workers=1, progress=lambda s, n, number, e: errors.append((number, e)), samples=50)
    assert summary.failed == {2: "RuntimeError: the engine fell over"} and not summary.complete
    assert (2, "RuntimeError: the engine fell over") in errors and len(summary.outcomes) == 3
    monkeypatch.setattr(play, "play_task", real)
    again = run(t, tmp_path / "f", workers=1, resume=True, samples=50)
    assert again.played == 1 and again.complete
