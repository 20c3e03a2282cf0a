"""The conformance cases follow the registry: every variant `ogames.games()` offers, and every value
of its choice options (Odd-Y's board, a custom Omny board's shape, the pace of Omiga's kids), is
played by a case, and every case plays a game and variant the registry offers. The tests that take
their cases from here (clone and undo, protocol, records, SGF, hostile input, the search and the
RL adapters) so cover a new variant as soon as it is registered and given a case."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cases import CASES, GAME_CASES, VARIANT_CASES, mode_of, registry, registry_variants


def played_choices() -> set[tuple[str, str, Any]]:
    """(game, option, value) of every choice option as the cases' games are loaded (defaults included)."""
    return {
        (case.game, option["name"], case.load().options.get(option["name"]))
        for case in CASES
        for option in registry()[case.game]["options"]
        if option["kind"] == "choice"
    }


def test_every_variant_of_the_registry_has_a_case():
    played = {(case.game, case.variant) for case in CASES}
    missing = [f"{game} {variant or ''}".strip() for game, variant in registry_variants() if (game, variant) not in played]
    assert not missing, f"no conformance case plays {', '.join(missing)}: add one to tests/conformance/cases.py"


def test_every_case_plays_a_game_and_variant_the_registry_offers():
    offered = set(registry_variants())
    strays = [case.id for case in CASES if (case.game, case.variant) not in offered]
    assert not strays, f"cases of no registered game or variant: {', '.join(strays)}"
    for case in CASES:
        assert case.load().name == case.game  # the options are the game's own (load refuses others)


def test_every_value_of_a_choice_option_is_played():
    played = played_choices()
    missing = [
        f"{described['name']} {option['name']}={value}"
        for described in registry().values()
        for option in described["options"]
        if option["kind"] == "choice"
        for value in option["choices"]
        if (described["name"], option["name"], value) not in played
    ]
    assert not missing, f"no conformance case plays {', '.join(missing)}"


def test_case_ids_are_unique_and_start_with_their_game():
    repeated = [case_id for case_id, count in Counter(case.id for case in CASES).items() if count > 1]
    assert not repeated, f"case ids used twice: {repeated}"
    assert all(case.id.startswith(case.game) for case in CASES)


def test_the_representatives_cover_every_game_and_variant_and_mode_once():
    assert sorted(case.game for case in GAME_CASES) == sorted(registry())
    assert {(case.game, case.variant) for case in VARIANT_CASES} == set(registry_variants())
    modes = [mode_of(case.load()) for case in VARIANT_CASES]
    assert len(modes) == len(set(modes))
