"""The terminal face of Omiga's turn-based modes: bad entries keep the prompt, moves are made, bots play."""

from __future__ import annotations

from typer.testing import CliRunner

from ogames.cli.omiga_turns import app, loop
from ogames.rules import load


def test_bad_entry_gets_a_message_and_the_same_prompt():
    state = load("omiga", variant="zen", form="fly", seed=3).new_state()
    answers = iter(["help", "place 9 zz1", "start black", "quit"])
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return next(answers)

    loop(state, set(), 0, ask=ask)
    assert state.ply == 1 and state.history[0]["move"] == "start black"
    assert prompts[0] == prompts[1] == prompts[2]


def test_toddler_bots_play_to_the_end():
    state = load("omiga", variant="toddler", players=3, seed=2, height=4).new_state()
    done = loop(state, {0, 1, 2}, 0, ask=lambda _: "quit")
    assert done.is_over and done.winners


def test_forms_command_lists_every_form():
    result = CliRunner().invoke(app, ["forms", "--no-solve"])
    assert result.exit_code == 0 and "Шахматная" in result.output and "impossible" in result.output
