"""The few pieces of SVG text every drawing is made of: numbers, escaped attributes, elements.

Drawings are built as lists of strings (fast enough to draw a board on every move) and joined
once. Attribute values and text are always escaped, so labels and names can never break the XML.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

Point = tuple[float, float]

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"


def num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (`12`, `3.5`, `-0.25`)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_NAMES: dict[str, str] = {}
_SPECIAL = frozenset('&<>"\'')


def _name(key: str) -> str:
    """An attribute's SVG name from its Python keyword: `class_` → `class`, `data_cell` → `data-cell`."""
    name = _NAMES.get(key)
    if name is None:
        name = _NAMES[key] = key.rstrip("_").replace("_", "-")
    return name


def attrs(values: dict[str, object]) -> str:
    """` name="value"` pairs, escaped; None values are left out, floats written with `num`."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, float):
            out.append(f' {_name(key)}="{num(value)}"')
            continue
        value = str(value)
        if not _SPECIAL.isdisjoint(value):
            value = escape(value, quote=True)
        out.append(f' {_name(key)}="{value}"')
    return "".join(out)


def element(tag: str, content: str | None = None, /, **values: object) -> str:
    """One element: `<tag …/>`, or `<tag …>content</tag>` (content is SVG text, not escaped)."""
    if content is None:
        return f"<{tag}{attrs(values)}/>"
    return f"<{tag}{attrs(values)}>{content}</{tag}>"


def text(x: float, y: float, words: str, **values: object) -> str:
    """A text element whose words are escaped."""
    return element("text", escape(words, quote=False), x=float(x), y=float(y), **values)


def title(words: str) -> str:
    """A `<title>`: the tooltip and the accessible name of the element it is the first child of."""
    return f"<title>{escape(words, quote=False)}</title>"


def points(pts: Iterable[Point]) -> str:
    """A `points` attribute value: `x,y x,y …`."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in pts)


def polygon(pts: Sequence[Point], **values: object) -> str:
    """A closed polygon."""
    return element("polygon", points=points(pts), **values)


def group(parts: Iterable[str], **values: object) -> str:
    """A `<g>` around some elements."""
    return element("g", "".join(parts), **values)


def document(body: Iterable[str], box: tuple[float, float, float, float], label: str, **values: object) -> str:
    """A complete `<svg>` with a viewBox (it scales to its container), an accessible name and a title."""
    x, y, w, h = box
    head = element(
        "svg",
        title(label) + "".join(body),
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"{num(x)} {num(y)} {num(w)} {num(h)}",
        role="img",
        aria_label=label,
        font_family=FONT,
        **values,
    )
    return head


class Bounds:
    """The smallest box around everything drawn, grown point by point."""

    def __init__(self) -> None:
        self.left = self.top = float("inf")
        self.right = self.bottom = float("-inf")

    def add(self, x: float, y: float, pad: float = 0.0) -> None:
        """Make room for a point and `pad` around it."""
        self.left, self.right = min(self.left, x - pad), max(self.right, x + pad)
        self.top, self.bottom = min(self.top, y - pad), max(self.bottom, y + pad)

    def box(self, margin: float) -> tuple[float, float, float, float]:
        """(x, y, width, height) with a margin all round."""
        return (self.left - margin, self.top - margin, self.right - self.left + 2 * margin, self.bottom - self.top + 2 * margin)
