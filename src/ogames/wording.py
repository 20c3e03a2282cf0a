"""Sentences that know what they say, so that a face can word them in another language.

The library speaks English: its errors, results and drawings are English text, as every caller
prints, compares and stores them. A sentence made by `say(key, english, **values)` is a `Said`: a
`str` holding that very English text, which also carries a `key` naming the sentence and the
`values` it was made from. A face that shows another language words it from its own catalogue by
the key (the web face's is `ogames.web.messages`), and shows the English for a sentence it has no
words for. A value may itself be a `Said` (a reason inside a refusal), a list (written joined by
commas in English) or anything `str()` writes.

    >>> said = say("occupied", "{cell} is occupied by {colour}", cell="c3", colour="black")
    >>> said
    'c3 is occupied by black'
    >>> said.key, said.values["colour"]
    ('occupied', 'black')
    >>> said == "c3 is occupied by black" and isinstance(said, str)
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Each(tuple):
    """Values a sentence names together ("black and red"), where a plain list is a list of
    choices or items joined by commas.

    >>> say("shared", "{colours} share the win", colours=Each(["black", "red", "blue"]))
    'black, red and blue share the win'
    >>> from_json(as_json(Each(["black", "red"]))) == Each(["black", "red"])
    True
    """


def joined(items: list[str], last: str) -> str:
    """Items joined by commas, the last two by `last` (" and ")."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + last + items[-1]


def english(value: object) -> str:
    """A value as the English sentence writes it (lists joined by commas; `Each` as "a, b and c")."""
    if isinstance(value, Each) and value:
        return joined([english(item) for item in value], " and ")
    if isinstance(value, (list, tuple)):
        return ", ".join(english(item) for item in value)
    return str(value)


class Said(str):
    """English text made by `say`, with the key and the values it was made from."""

    key: str
    values: Mapping[str, Any]

    def __new__(cls, key: str, text: str, values: Mapping[str, Any]) -> Said:
        made = super().__new__(cls, text)
        made.key = key
        made.values = dict(values)
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # pickled and copied with its key (str's own way drops it)
        return (Said, (self.key, str(self), self.values))


def say(key: str, text: str, /, **values: Any) -> Said:
    """The English `text` with `values` filled in (`str.format` fields), as a `Said` under `key`."""
    return Said(key, text.format(**{name: english(value) for name, value in values.items()}), values)


def as_json(value: Any) -> Any:
    """A sentence as JSON keeps its key and values (`{"said": key, "text": …, "values": …}`);
    anything else as it is. `from_json` reads it back."""
    if isinstance(value, Said):
        return {"said": value.key, "text": str(value), "values": {name: as_json(item) for name, item in value.values.items()}}
    if isinstance(value, Each):
        return {"each": [as_json(item) for item in value]}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    return value


def from_json(value: Any) -> Any:
    """What `as_json` wrote, sentences made again (with the same English text)."""
    if isinstance(value, dict) and set(value) == {"said", "text", "values"} and isinstance(value["values"], dict):
        return Said(str(value["said"]), str(value["text"]), {name: from_json(item) for name, item in value["values"].items()})
    if isinstance(value, dict) and set(value) == {"each"} and isinstance(value["each"], list):
        return Each(from_json(item) for item in value["each"])
    if isinstance(value, list):
        return [from_json(item) for item in value]
    return value


def key_of(text: object) -> str | None:
    """The key of a sentence made by `say` (None for any other text)."""
    return text.key if isinstance(text, Said) else None


__all__ = ["Each", "Said", "as_json", "english", "from_json", "joined", "key_of", "say"]
