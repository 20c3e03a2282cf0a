"""Omiga kids («Дети») in real time, as the booklet says: both players at once on the base game's
authority — start, one card at a time, races, the far edge, draws, bad actions, bots, records,
watching, and a person against a bot at the prompt on the simulated clock."""

from __future__ import annotations

import copy
import json
import random

import pytest
from typer.testing import CliRunner

import ogames
from ogames.arena.realtime_match import play_game, run_match
from ogames.cli.app import app
from ogames.cli.omiga import play_live
from ogames.errors import IllegalMove
from ogames.players.omiga.bots import Bot
from ogames.players.omiga.racer import kids_choice
from ogames.rules import REAL_TIME, TURN_BASED
from ogames.rules.omiga.cards import STANDARD, Face
from ogames.rules.omiga.table import KIDS_RULES, Table

runner = CliRunner()


def kids(seed: int = 1, **extra):
    return ogames.load("omiga", variant="kids", seed=seed, **extra).new_state()


def snapshot(state) -> tuple:
    """Everything that makes a real-time kids position, for exact comparisons."""
    return (
        copy.deepcopy(state.hands),
        state.table.owner.tolist(),
        state.table.design.tolist(),
        sorted(state.table.faces.items()),
        [s.snapshot() for s in state.supplies.values()],
        copy.deepcopy(state.history),
        state.result,
        state.clock,
    )


def design(code: str) -> int:
    return STANDARD.designs.index(Face.from_code(code))


def laid_out(cards: dict[str, tuple[str, str]], hands: dict[str, str], width: int = 5, height: int = 5, seed: int = 1):
    """A kids state whose table holds just the given cards (label → colour, face code; a design may
    lie twice, which does not matter here) and whose hands hold the given designs (decks stay as dealt)."""
    state = kids(seed, width=width, height=height)
    table = Table(width, height, state.table.card_set)
    for label, (colour, code) in cards.items():
        table.place(table.cell(label), colour, design(code), Face.from_code(code))
    state.table = table
    state.hands = {colour: [design(code)] for colour, code in hands.items()}
    return state


# ----- the mode ---------------------------------------------------------------------------------
def test_kids_is_real_time_by_default_and_turn_based_only_when_asked():
    game = ogames.load("omiga", variant="kids", seed=1)
    assert game.dynamics == REAL_TIME and game.options["pace"] == "realtime" and game.seat_count == 2
    turns = ogames.load("omiga", variant="kids", seed=1, pace="turns")
    assert turns.dynamics == TURN_BASED
    # Both forms deal the same decks for a seed.
    assert kids(5).supplies["white"].cards == turns.__class__(**{**turns.options, "seed": 5}).new_state().supplies["white"].cards


def test_start_cards_at_each_home_edge_one_card_each_nobody_waits():
    state = kids(3)
    w, h = state.table.width, state.table.height
    assert state.table.owner_at(state.table.number(w // 2, 0)) == "black"
    assert state.table.owner_at(state.table.number(w // 2, h - 1)) == "white"
    assert len(state.table) == 2 and state.to_move is None
    assert {a: len(hand) for a, hand in state.hands.items()} == {"white": 1, "black": 1}
    actors = {move.split(":")[0] for move in state.legal_moves()}
    assert actors == {"white", "black"}  # both may act at once
    for colour in ("white", "black"):
        allowed = state.table.legal_placements_reference(colour, state.hands[colour][0], KIDS_RULES)
        mine = [m for m in state.legal_moves() if m.startswith(colour)]
        assert len(mine) == (len(allowed) or 1)  # the placements, or the discard when there are none


def test_place_draws_the_next_card_at_once_and_records_actor_and_time():
    state = kids(4)
    top = state.supplies["white"].cards[-1]
    move = next(m for m in state.legal_moves() if m.startswith("white: place"))
    state.play(move, t=1.25)
    assert state.hands["white"] == [top]
    assert state.history == [{"move": move.split(": ")[1], "by": "white", "t": 1.25}]


# ----- races -----------------------------------------------------------------------------------
def test_both_act_at_once_and_the_first_to_arrive_takes_the_cell():
    # 3 × 3: White's start card on b3, Black's on b1; both hold a card that fits b2 between them.
    state = laid_out({"b3": ("white", "AA//"), "b1": ("black", "AA//")}, {"white": "AB//", "black": "BA//"}, 3, 3)
    assert "white: place 2 b2" in [m.replace(str(design("AB//")), "2") for m in state.legal_moves()]
    state.act("white", "place AB// b2", t=1.0)
    before = snapshot(state)
    verdict = state.submit("black", "place BA// b2", t=1.2)
    assert not verdict.accepted and "b2 is taken" in verdict.reason
    assert snapshot(state) == before  # the late action changed nothing
    assert state.record()["meta"]["rejected"][0]["reason"] == verdict.reason
    assert state.table.owner_at(state.table.cell("b2")) == "white"


def test_the_first_to_reach_the_far_edge_wins_and_the_later_action_comes_too_late():
    # 3 × 4: each side one card away from its far edge (White climbs down to row 1, Black up to row 4).
    cards = {
        "a4": ("white", "AA//"), "a3": ("white", "AA//"), "a2": ("white", "AA//"),
        "c1": ("black", "AA//"), "c2": ("black", "AA//"), "c3": ("black", "AA//"),
    }
    state = laid_out(cards, {"white": "AB//", "black": "BA//"}, 3, 4)
    wins = {(m.split(":")[0], m.split()[3]) for m in state.legal_moves() if "a1" in m or "c4" in m}
    assert wins == {("white", "a1"), ("black", "c4")}  # both could win with their next action
    state.submit("black", "place BA// c4", t=2.0)
    assert state.winner == "black" and state.result.reason == "black reached the far edge at c4"
    late = state.submit("white", "place AB// a1", t=2.001)
    assert not late.accepted and "game is over" in late.reason
    assert state.legal_moves() == []


def test_no_behind_win_in_kids():
    # A White card right under a Black card (behind it, as the base game counts it) does not win.
    cards = {"c5": ("white", "AA//"), "c4": ("white", "AA//"), "c3": ("white", "AA//")}
    cards |= {"b1": ("black", "AA//"), "b4": ("black", "AA//")}
    state = laid_out(cards, {"white": "AA//", "black": "BA//"}, 5, 5)
    state.act("white", "place AA// b3", t=1)  # under Black's b4: "behind" it in the base game
    assert state.table.win_reason(state.table.cell("b3"), "white")  # the base game would count it
    assert not state.is_over


def test_discard_only_when_the_card_fits_nowhere_and_a_race_can_allow_it():
    # White's card (BB//) fits b2 only — not beside the AA// on b3; it may not be discarded until Black takes b2.
    state = laid_out({"b3": ("white", "AA//"), "b1": ("black", "AA//")}, {"white": "BB//", "black": "BA//"}, 3, 3)
    white_spots = {state.table.label(c) for _, c, _ in state.placements("white")}
    assert white_spots == {"b2"}
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="discarded only when it fits nowhere"):
        state.act("white", "discard", t=0.5)
    assert snapshot(state) == before
    assert "white: discard" not in state.legal_moves()
    state.act("black", "place BA// b2", t=1.0)
    assert state.legal_moves().count("white: discard") == 1
    top = state.supplies["white"].cards[-1]
    state.act("white", "discard", t=1.1)
    assert state.supplies["white"].discards == [design("BB//")] and state.hands["white"] == [top]


@pytest.mark.parametrize(
    "actor, action, t, reason",
    [
        ("white", "place 99 a1", 1.0, "no card 99"),
        ("white", "place 0 zz9", 1.0, "off the"),
        ("white", "jump", 1.0, "an action is"),
        ("red", "discard", 1.0, "not playing"),
        ("white", "black: discard", 1.0, "cannot act for black"),
        ("white", "place 0 h9", "abc", "not a number of seconds"),
        ("white", "place 0 h9", True, "not a number of seconds"),
        ("white", "place 0 h9", float("nan"), "is not a time"),
        ("white", "place 0 h9", float("inf"), "is not a time"),
        ("white", "place 0 h9", 10**400, "is not a time"),
    ],
)
def test_bad_actions_change_nothing(actor, action, t, reason):
    state = kids(5)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=reason):
        state.act(actor, action, t)
    assert snapshot(state) == before
    if isinstance(t, float) and t == 1.0:
        verdict = state.submit(actor, action, t)  # the tolerant form logs a rule's refusal, never raises
        assert not verdict.accepted
    else:
        with pytest.raises(IllegalMove, match=reason):  # a t that is no time is the caller's mistake
            state.submit(actor, action, t)
    state.rejected.clear()
    assert snapshot(state) == before


def test_card_not_in_hand_rule_2_and_time_order_change_nothing():
    state = kids(6)
    held = state.hands["white"][0]
    other = next(d for d in range(36) if d != held)
    state.act("black", "discard" if not state.placements("black") else state.action_text(*state.placements("black")[0]), 3)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="not in white's hand"):
        state.act("white", f"place {other} h9", 4)
    with pytest.raises(IllegalMove, match="rule 2"):
        state.act("white", f"place {held} a5", 4)
    with pytest.raises(IllegalMove, match="before the last action"):
        state.act("white", f"place {held} a5", 2)
    assert snapshot(state) == before


# ----- draws -------------------------------------------------------------------------------------
def test_draw_when_both_close_the_side_edges():
    cards = {"b3": ("white", "AA//"), "b1": ("black", "AA//"), "a3": ("white", "AA//"), "a1": ("black", "AA//")}
    state = laid_out(cards, {"white": "AA\\\\", "black": "AB//"}, 3, 3)
    state.hands["white"] = [design("AA//")]
    state.act("white", "place AA// c3", t=1)
    assert not state.is_over  # one player on both side edges is not enough
    state.act("black", "place AB// c1", t=2)
    assert state.winner == "draw" and state.result.reason == "both players have cards on the left and the right table edges"


def test_a_draw_that_holds_on_the_signal_is_declared_at_once():
    # Two designs, seed 3: White's one card in hand fits nowhere and nothing else is left: drawn before anyone acts.
    state = kids(3, cards="AA// BB/\\")
    assert state.is_over and state.winner == "draw" and "white has run out of cards" in state.result.reason
    assert state.legal_moves() == [] and state.history == []
    assert ogames.replay(state.record()).result == state.result


def test_draw_when_a_player_runs_out_of_cards_during_play():
    for seed in range(40):
        state = kids(seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()), t=state.clock + 0.5)
        if "run out of cards" in state.result.reason:
            colour = state.result.reason.split()[0]
            assert state.stuck(colour)
            return
    raise AssertionError("no random game ran a player out of cards")


def test_random_playout_goes_through_the_authority():
    state = kids(7)
    before = snapshot(state)
    rewards = state.random_playout(random.Random(1))
    assert sorted(rewards) in ([0.0, 1.0], [0.5, 0.5]) and snapshot(state) == before


# ----- bots, records, watching ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bot_game_ends_and_its_record_replays_exactly(seed):
    state = kids(seed)
    play_game(state, {"white": Bot.make("racer:reaction=1"), "black": Bot.make("random:reaction=0.8")}, seed)
    assert state.is_over
    record = json.loads(json.dumps(state.record()))
    again = ogames.replay(record)
    # The clock runs on the recorded times (milliseconds); everything else is the same.
    assert snapshot(again)[:-1] == snapshot(state)[:-1] and abs(again.clock - state.clock) <= 0.0005
    # Replay rebuilds the accepted actions; the rejected ones stay in the record's meta only.
    assert {**again.record(), "meta": None} == {**record, "meta": None}


def test_the_racer_beats_random_and_every_strategy_plays_kids():
    report = run_match(Bot.make("racer:reaction=1"), Bot.make("random:reaction=1"), games=8, seed=10, options={"variant": "kids"})
    assert report.unfinished == 0 and report.wins[0] >= 5 and report.wins[1] == 0, report.wins
    state = kids(9)
    options = state.placements("white")
    racer = kids_choice(state, "white", options, random.Random(3))
    for strategy in ("racer", "rollout", "greedy"):
        # Rollout and greedy know only the base game's rules: in kids they play as the racer.
        assert Bot(strategy, 1.0).decide(state, "white", random.Random(3)) == racer
    assert Bot("random", 1.0).decide(state, "white", random.Random(3)).startswith("place")


def test_kids_racer_blocks_a_foe_win_it_can_block():
    # Black (c1, c2) wins on c3, White's home edge, with the card it holds; White (b3) can take c3 first.
    cards = {"b3": ("white", "AA//"), "c1": ("black", "AA//"), "c2": ("black", "AA//")}
    state = laid_out(cards, {"white": "AA//", "black": "AB//"}, 4, 3)
    assert [state.table.label(c) for _, c, _ in state.placements("black") if state.wins_at(c, "black")] == ["c3"]
    assert {state.table.label(c) for _, c, _ in state.placements("white")} == {"a3", "b2", "c3"}
    choice = kids_choice(state, "white", state.placements("white"), random.Random(0))
    assert choice.endswith("c3")


def test_a_kids_match_from_the_command_line_saves_records_that_watch_shows(tmp_path):
    result = runner.invoke(app, ["omiga", "match", "--variant", "kids", "--games", "2", "--seed", "4", "--save", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Omiga kids: 2 games" in result.output
    path = tmp_path / "omiga-4.json"
    record = json.loads(path.read_text())
    assert record["options"]["variant"] == "kids"
    watched = runner.invoke(app, ["omiga", "watch", str(path), "--speed", "0"])
    assert watched.exit_code == 0, watched.output
    shown = [line for line in watched.output.splitlines() if line.startswith(("white:", "black:")) and "(t=" in line]
    assert len(shown) == len(record["moves"])
    assert ogames.replay(record).result.describe() in watched.output


# ----- a person against a bot -------------------------------------------------------------------
def scripted(lines):
    answers = iter(lines)
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return next(answers)

    return ask, prompts


def test_a_slow_person_sees_the_bot_act_first_on_the_simulated_clock():
    state = kids(2)
    ask, prompts = scripted(["", "", "quit"])
    play_live(state, {"black": Bot.make("racer:reaction=1")}, 2, ask=ask, think=3.0)
    # Each entry took 3 simulated seconds; the bot acts about once a second meanwhile.
    assert [e["by"] for e in state.history] and {e["by"] for e in state.history} == {"black"}
    # Three entries of 3 s: the bot had 9 s, about one action a second.
    assert 6 <= len(state.history) <= 11 and state.history[-1]["t"] <= 9.0
    assert prompts[0].startswith("white t=0.0s") and prompts[1].startswith("white t=3.0s")


def test_a_person_plays_the_one_card_by_cell_and_a_refusal_keeps_the_prompt():
    state = kids(3)
    spot = state.placements("white")[0]
    cell = state.table.label(spot[1])
    turned = " turned" if spot[2] != state.table.card_set.designs[spot[0]] else ""
    ask, prompts = scripted(["place zz1", f"place {cell}{turned}", "black: discard", "moves", "help", "quit"])
    play_live(state, {"black": Bot.make("racer:reaction=toddler")}, 3, ask=ask, think=0.5)
    assert state.history[0] == {"move": f"place {spot[0]} {cell}{turned}", "by": "white", "t": 1.0}
    assert len(prompts) == 6


def test_the_kids_command_plays_against_a_bot_and_saves(tmp_path):
    result = runner.invoke(
        app, ["omiga", "kids", "--seed", "3", "--think", "2", "--save", str(tmp_path)], input="\n\n\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "bot black:" in result.output
    record = json.loads((tmp_path / "omiga-kids-3.json").read_text())
    assert record["moves"] and all(m["by"] == "black" for m in record["moves"])
    assert ogames.replay(record).ply == len(record["moves"])


def test_the_kids_command_on_a_52_wide_table_with_a_bot_fits_80_columns():
    result = runner.invoke(app, ["omiga", "kids", "--seed", "1", "--width", "52", "--think", "5"], input="\n\nquit\n")
    assert result.exit_code == 0, result.output
    assert "bot black:" in result.output and " aa " in result.output and " az " in result.output
    # (The prompt and what follows it share a line here, as the test feeds no echo.)
    assert max(len(line) for line in result.output.splitlines() if "> " not in line) <= 80


def test_the_kids_command_keeps_the_turn_based_form_as_an_option():
    result = runner.invoke(app, ["omiga", "kids", "--seed", "3", "--pace", "turns"], input="help\nquit\n")
    assert result.exit_code == 0, result.output
    assert "(white)>" in result.output and "place CELL [turned]" in result.output


def test_play_omiga_kids_uses_the_real_time_face():
    result = runner.invoke(app, ["play", "omiga", "--variant", "kids", "--seed", "3"], input="help\nquit\n")
    assert result.exit_code == 0, result.output
    assert "white t=" in result.output and "place CARD CELL [turned]" in result.output
