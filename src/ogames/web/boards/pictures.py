"""The small pictures of the home page and the rules pages: each game's board some moves into a
seeded random game, drawn by `ogames.draw.board_svg` (so the picture is the real drawing, and a
change of the drawings shows here too). Made once per process and kept."""

from __future__ import annotations

import random
from functools import lru_cache

import ogames
from ogames.draw import board_svg
from ogames.web.i18n import DEFAULT, LANGUAGES
from ogames.web.messages import speaker

# game → (options, seed, moves): a small board, far enough into a game to show what it looks like.
SAMPLES: dict[str, tuple[dict[str, object], int, int]] = {
    "omny": ({"variant": "gyre", "size": 4}, 7, 16),
    "oddy": ({"sides": 5, "size": 3}, 2, 14),
    "omega": ({"players": 3, "size": 4}, 3, 15),
    "onyx": ({}, 11, 40),
    "omiga": ({"seed": 21}, 21, 40),
}


def sample_state(game: str) -> ogames.State:
    """A position of a seeded random game that is still going (Omiga: cards laid on the table).
    KeyError for a game without a sample."""
    options, seed, moves = SAMPLES[game]
    state = ogames.load(game, **options).new_state()
    rng = random.Random(seed)
    for _ in range(moves):
        legal = state.legal_moves()
        if not legal:
            break
        rng.shuffle(legal)
        legal.sort(key=lambda move: "place" not in move)  # Omiga: cards on the table show the game; discards do not
        # Keep the game going: a move that would end it is taken only when nothing else is left.
        going = [move for move in legal if not state.clone().play(move).is_over]
        state.play((going or legal)[0])
    return state


@lru_cache(maxsize=len(SAMPLES) * len(LANGUAGES))
def sample_svg(game: str, language: str = DEFAULT) -> str:
    """The sample position of a game as SVG text (no coordinates, no marks; its titles in
    `language`), or "" for a game that has none."""
    if game not in SAMPLES:
        return ""
    return board_svg(sample_state(game), coordinates=False, last_move=False, highlight=(), speak=speaker(language))


__all__ = ["SAMPLES", "sample_state", "sample_svg"]
