"""The new-game forms' option help in a page's language.

English is the engine's own help text (`ogames.games()`), so it never drifts from the rules. The
catalogues translate it under the key `game.option` (web/catalogue.py extracts the texts from the
engine); a help whose English changed shows in English until its translation is updated.
"""

from __future__ import annotations

from functools import cache

import ogames
from ogames.web import catalogue


@cache
def texts(language: str) -> dict[str, str]:
    """The option help of a language, keyed `game.option` (the ones it has translated)."""
    found = {}
    for game in ogames.games():
        for option in game["options"]:
            key = f"{game['name']}.{option['name']}"
            text = catalogue.text(language, key, option["help"])
            if isinstance(text, str):
                found[key] = text
    return found
