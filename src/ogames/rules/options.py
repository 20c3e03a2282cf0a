"""Game options: one declared spec per option, so the API, the command line and the web page
accept, check and describe options the same way."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ogames.errors import BadOption, shown
from ogames.wording import say

MAX_TEXT = 200  # characters of an option's text, unless the option says otherwise
MAX_ITEMS = 100  # entries of an option's list, unless the option says otherwise
# Halves are read from plain decimals only: "1e999999999" is refused before anything computes it.
_DECIMAL = re.compile(r"^[+-]?[0-9]{1,12}(\.[0-9]{1,12})?$")

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


WHOLE_NUMBER = say("whole-number", "a whole number is needed")
HALF_NUMBER = say("half-number", "a whole number or a whole number plus 0.5 is needed, written like 3 or 3.5")


@dataclass(frozen=True)
class Option:
    """One option of a game: its name, kind, default and limits.

    kinds: "int", "bool", "choice", "half" (a whole number or a whole number plus 0.5),
    "text", "labels" (a list of cell labels), "ints" (a tuple of whole numbers).
    `applies_to` names the variants the option is for (empty: every variant). Such an option has
    the default None, so that "not given" can be told apart: `OptionSet.parse` refuses it for any
    other variant, and the game's `settle` fills its value where it applies.

    Every value is bounded: text by `max_length` characters, lists by `max_items` entries, and
    numbers by `minimum`/`maximum`, so that no option can make a game too large to play.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    cli: bool = True  # shown as a --flag on the command line
    applies_to: tuple[str, ...] = ()  # the variants it is for; empty: every variant
    max_length: int = MAX_TEXT  # characters of a text value (or of a list written as text)
    max_items: int = MAX_ITEMS  # entries of a list value

    def coerce(self, value: Any) -> Any:
        """The option's canonical value for a given one, or BadOption saying why not."""
        if value is None:
            return self.default
        if isinstance(value, str) and len(value) > self.max_length:
            raise self._fail(value, f"at most {self.max_length} characters are allowed")
        if isinstance(value, (list, tuple)) and len(value) > self.max_items:
            raise self._fail(value, f"at most {self.max_items} entries are allowed")
        result = self._convert(value)
        if self.kind in ("int", "half"):
            self._check_range(result)
        return result

    def describe(self) -> dict[str, Any]:
        """A JSON-ready description for `ogames.games()`."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": self.default, "help": self.help}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.applies_to:
            out["applies_to"] = list(self.applies_to)
        return out

    def _convert(self, value: Any) -> Any:
        """A given value read by its kind's `_as_<kind>`; an option may read its values its own way."""
        return getattr(self, f"_as_{self.kind}")(value)

    def _fail(self, value: Any, want: str) -> BadOption:
        return BadOption(say("option-invalid",
                             "option {name}={value} is not valid: {want}", name=self.name, value=shown(value), want=want))

    def _check_range(self, value: float) -> None:
        if self.minimum is not None and value < self.minimum:
            raise self._fail(value, say("at-least", "it must be at least {n}", n=self.minimum))
        if self.maximum is not None and value > self.maximum:
            raise self._fail(value, say("at-most", "it must be at most {n}", n=self.maximum))

    def _as_int(self, value: Any) -> int:
        if isinstance(value, bool):
            raise self._fail(value, WHOLE_NUMBER)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise self._fail(value, WHOLE_NUMBER)

    def _as_bool(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise self._fail(value, say("on-or-off", "on or off (true/false) is needed"))

    def _as_choice(self, value: Any) -> Any:
        key = value.strip().lower() if isinstance(value, str) else value
        for choice in self.choices:
            if key == choice or (isinstance(choice, (int, str)) and str(choice) == str(key)):
                return choice
        known = ", ".join(str(c) for c in self.choices)
        raise self._fail(value, f"choose one of {known}")

    def _as_half(self, value: Any) -> int | float:
        if isinstance(value, bool):
            raise self._fail(value, HALF_NUMBER)
        if isinstance(value, str) and not _DECIMAL.match(value.strip()):
            raise self._fail(value, HALF_NUMBER)
        try:
            exact = Fraction(value.strip() if isinstance(value, str) else value)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            raise self._fail(value, HALF_NUMBER) from None
        if (exact * 2).denominator != 1:
            raise self._fail(value, HALF_NUMBER)
        return int(exact) if exact.denominator == 1 else float(exact)

    def _as_text(self, value: Any) -> str:
        if not isinstance(value, str):
            raise self._fail(value, "text is needed")
        return value.strip().lower()

    def _as_labels(self, value: Any) -> tuple[str, ...]:
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value) or not value:
            raise self._fail(value, "a list of cell labels is needed")
        self._check_items(value)
        return tuple(v.strip().lower() for v in value)

    def _as_ints(self, value: Any) -> tuple[int, ...]:
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        if not isinstance(value, Sequence) or not value:
            raise self._fail(value, "a list of whole numbers is needed")
        self._check_items(value)
        return tuple(self._as_int(v) for v in value)

    def _check_items(self, value: Sequence[Any]) -> None:
        if len(value) > self.max_items:
            raise self._fail(value, f"at most {self.max_items} entries are allowed")


@dataclass(frozen=True)
class OptionSet:
    """The options of one game, in the order they are shown."""

    options: tuple[Option, ...] = field(default_factory=tuple)

    def names(self) -> list[str]:
        """Option names in order."""
        return [o.name for o in self.options]

    def __getitem__(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    def parse(self, game: str, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's canonical value, from the given ones and the defaults."""
        known = self.names()
        for name in given:
            if name not in known:
                near = difflib.get_close_matches(str(name), known, n=1)
                hint = f" (did you mean {near[0]}?)" if near else f" (known: {', '.join(known)})"
                raise BadOption(f"{game} has no option {shown(name)}{hint}")
        values = {o.name: o.coerce(given.get(o.name)) for o in self.options}
        variant = values.get("variant")
        for option in self.options:
            value = values[option.name]
            if option.applies_to and value is not None and variant not in option.applies_to:
                raise BadOption(f"option {option.name}={shown(jsonable(value))} does not apply to {game} variant={variant}")
        return values

    def describe(self) -> list[dict[str, Any]]:
        """JSON-ready descriptions of every option."""
        return [o.describe() for o in self.options]


def jsonable(value: Any) -> Any:
    """Options as JSON values: tuples become lists."""
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    return value
