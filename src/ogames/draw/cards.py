"""SVG drawings of Omiga: single cards, the card table of every mode, and zen forms.

A card is a square of its owner's colour (white or black; toddler's six colours are light tints
with a rim and the owner's shape in the middle). On its left and right edges it carries a
semicircle of hue A (warm, solid) or B (cool, a ring), so two cards side by side show one whole
circle where they fit. Its top and bottom edges have the shape of their seams, in absolute
direction as on the table: `/` and `\\` are diagonals, `^` a point with its tip up and `v` one
with its tip down, so the lower card's top and the upper card's bottom are the same line when they
fit, like puzzle pieces. On the table Black's home edge is the bottom row and White's the top row
(every toddler player's is the bottom row); home edges are bands in the owners' colours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ogames.draw import style
from ogames.draw.markup import Point, attrs, document, element, group, num, polygon, text, title
from ogames.rules.omiga.cards import Face
from ogames.rules.omiga.contract import TableState
from ogames.wording import say

if TYPE_CHECKING:
    from ogames.rules.omiga.zen.state import ZenState

CARD = 56.0  # SVG units per table cell
GAP = 0.04  # the gap between neighbouring cards, on each side, in cells
SEAM = 0.09  # how far a seam's shape leaves the straight edge, in cells
HUE_R = 0.25  # semicircle radius, in cells
BASE_OWNERS = ("white", "black")


def card_colours(owner: str) -> tuple[str, str, float]:
    """The fill, rim and rim width of an owner's cards."""
    if owner == "white":
        return "#fbfaf6", "#a9a292", 1.2
    if owner == "black":
        return "#26272b", "#000000", 1.2
    lk = style.look(owner)
    return lk.pale, lk.fill, 2.6


def _seam(seam: str, left: float, right: float, base: float, a: float) -> list[Point]:
    """An edge from left to right at height `base` shaped like a seam; `a` is the shape's depth.
    Screen y grows downwards, so "up" subtracts."""
    mid = (left + right) / 2
    if seam == "/":
        return [(left, base + a), (right, base - a)]
    if seam == "\\":
        return [(left, base - a), (right, base + a)]
    if seam == "^":
        return [(left, base + a), (mid, base - a), (right, base + a)]
    if seam == "v":
        return [(left, base - a), (mid, base + a), (right, base - a)]
    raise ValueError(f"unknown seam {seam!r}")


def card_outline(face: Face, x: float, y: float, size: float = CARD) -> list[Point]:
    """The card's outline in the cell whose top-left corner is (x, y)."""
    g, a = GAP * size, SEAM * size
    left, right = x + g, x + size - g
    top = _seam(face.top, left, right, y + g, a)
    bottom = _seam(face.bottom, left, right, y + size - g, a)
    return top + bottom[::-1]


def _half_disc(cx: float, cy: float, r: float, opening_right: bool, **values: object) -> str:
    """A half disc whose flat side is the vertical line through (cx, cy), bulging right or left."""
    sweep = 1 if opening_right else 0
    d = f"M{num(cx)},{num(cy - r)}A{num(r)},{num(r)} 0 0 {sweep} {num(cx)},{num(cy + r)}Z"
    return element("path", d=d, **values)


def card_parts(face: Face, owner: str, x: float, y: float, size: float = CARD, *, mark_owner: bool | None = None) -> list[str]:
    """The shapes of a card in the cell at (x, y): body, two semicircles, and the owner's shape
    in the middle (by default only for owners other than white and black)."""
    fill, rim, width = card_colours(owner)
    g = GAP * size
    cy = y + size / 2
    r = HUE_R * size
    parts = [polygon(card_outline(face, x, y, size), class_="card-body", fill=fill, stroke=rim, stroke_width=width,
                     stroke_linejoin="round")]
    for hue, edge, opening_right in ((face.left, x + g, True), (face.right, x + size - g, False)):
        side = "left" if opening_right else "right"
        parts.append(_half_disc(edge, cy, r, opening_right, class_=f"hue hue-{hue} hue-{side}", fill=style.HUES[hue]))
        if hue == "B":
            parts.append(_half_disc(edge, cy, r * 0.45, opening_right, class_="hue-ring", fill=fill))
    if mark_owner is None:
        mark_owner = owner not in BASE_OWNERS
    if mark_owner:
        parts.append(style.stone(owner, x + size / 2, cy, 0.1 * size, class_="owner-mark"))
    return parts


def face_words(face: Face) -> str:
    """A card face in words for titles: `AB^/ (left A, right B, top ^, bottom /)`."""
    return say("face", "{code} (left {left}, right {right}, top {top}, bottom {bottom})", code=face.code, left=face.left,
               right=face.right, top=face.top, bottom=face.bottom)


def card_words(owner: str, face: Face) -> str:
    """A card in words for titles: `white card AB^/ (left A, …)`."""
    return say("card", "{owner} card {face}", owner=owner, face=face_words(face))


def _as_face(face: Face | str) -> Face:
    return face if isinstance(face, Face) else Face.from_code(face)


def card_svg(face: Face | str, owner: str = "white", *, label: str | None = None, speak: Callable[[str], str] = str) -> str:
    """One card as a standalone drawing (for hands): a face or its code, and the owner's colour
    (its title worded by `speak`, English by default)."""
    face = _as_face(face)
    m = (GAP + SEAM) * CARD
    body = [group(card_parts(face, owner, 0, 0, CARD, mark_owner=owner not in BASE_OWNERS), class_="card",
                  data_face=face.code, data_owner=owner)]
    name = label or speak(card_words(owner, face))
    return document(body, (-m * 0.5, -m, CARD + m, CARD + 2 * m), name, class_="ogames-card")


# ----- the table -------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableParts:
    """The table's drawing in the parts a page may keep apart: the frame (the felt, the home edges,
    the labels: the same all game), each cell's group by label (in drawing order), the marks over
    them (last move, highlight, preview) and the drawing's name. `svg()` is the whole drawing; a
    page given the frame once puts the cells and marks into its two empty groups (`g.cells`,
    `g.marks`) and its name into its title, and then replaces only the cells that change."""

    frame: str
    name: str
    cells: dict[str, str]
    marks: str

    def svg(self) -> str:
        """The whole drawing: the frame with its name, cells and marks filled in."""
        return fill_frame(self.frame, self.name, self.cells.values(), self.marks)


_EMPTY_CELLS, _EMPTY_MARKS = group([], class_="cells"), group([], class_="marks")


def fill_frame(frame: str, name: str, cells: Iterable[str], marks: str) -> str:
    """A table's whole drawing from its parts (`TableParts`): the frame's empty name, cells and marks filled in."""
    return (frame.replace(_EMPTY_CELLS, group(cells, class_="cells"), 1).replace(_EMPTY_MARKS, group([marks], class_="marks"), 1)
            .replace('aria-label=""', attrs({"aria_label": name}).lstrip(), 1).replace(title(""), title(name), 1))


def table_svg(state: TableState, *, coordinates: bool, last: frozenset[int], highlight: frozenset[int],
              preview: tuple[int, str, Face | None] | None, name: str, speak: Callable[[str], str] = str) -> str:
    """The Omiga table of any mode: slots, cards, home edges, frozen 2v2 ends, the zen form when
    its place is settled, marks and labels."""
    return table_parts(state, coordinates=coordinates, last=last, highlight=highlight, preview=preview, name=name,
                       speak=speak).svg()


def table_parts(state: TableState, *, coordinates: bool, last: frozenset[int], highlight: frozenset[int],
                preview: tuple[int, str, Face | None] | None, name: str, speak: Callable[[str], str] = str) -> TableParts:
    """The Omiga table of any mode in its parts (`TableParts`): see `table_svg`."""
    # (Omiga's modes load with their first drawing, not with ogames.draw)
    from ogames.rules.omiga.realtime import RealtimeState
    from ogames.rules.omiga.zen.state import ZenState

    table = state.table
    W, H, s = table.width, table.height, CARD

    def corner(col: int, row: int) -> Point:
        return (col * s, (H - 1 - row) * s)

    body: list[str] = []
    cells: dict[str, str] = {}
    marks: list[str] = []
    gap, band = 0.12 * s, 0.3 * s  # room for seams poking out of the outer rows, then the home bands
    reach = gap + band + (0.45 * s if coordinates else 0.12 * s)
    side = 0.62 * s if coordinates else 0.2 * s
    box = (-side, -reach, W * s + 2 * side, H * s + 2 * reach)
    body.append(element("rect", class_="felt", x=box[0], y=box[1], width=box[2], height=box[3], rx=0.22 * s, fill=style.FELT,
                        stroke=style.FELT_EDGE, stroke_width=3))
    if not isinstance(state, ZenState):  # zen builds a form, not towards home edges
        body += _home_bands(table, gap, band, speak)

    blocked = state.blocked() if isinstance(state, RealtimeState) else None
    form_cells = _form_cells(state) if isinstance(state, ZenState) else {}
    for cell in range(W * H):
        col, row = table.position(cell)
        x, y = corner(col, row)
        label = table.label(cell)
        placed = table.at(cell)
        frozen = blocked is not None and bool(blocked[cell])
        wants = form_cells.get((col, row))
        parts = [element("rect", class_="slot", x=x + 0.05 * s, y=y + 0.05 * s, width=0.9 * s, height=0.9 * s, rx=0.08 * s,
                         fill=style.FELT_CELL, opacity="0.55" if placed is None else "0.25")]
        if wants is not None and placed is None:
            fill, rim, _ = card_colours(wants)
            parts.append(element("rect", class_=f"form form-{wants}", x=x + 0.12 * s, y=y + 0.12 * s, width=0.76 * s,
                                 height=0.76 * s, rx=0.06 * s, fill=fill, fill_opacity="0.4", stroke=style.FELT_LABEL,
                                 stroke_width=1.5, stroke_dasharray="4 3"))
        if frozen and placed is None:
            parts.append(_frozen(x, y, s))
        classes = []
        if placed is not None:
            parts.append(group(card_parts(placed.face, placed.owner, x, y, s), class_="card", data_face=placed.face.code,
                               data_owner=placed.owner))
            words = [card_words(placed.owner, placed.face)]
        else:
            words = [say("empty", "empty")]
            if wants is not None:
                words.append(say("form-wants", "the form wants a {colour} card", colour=wants))
            if frozen:
                words.append(say("frozen-end", "frozen end"))
                classes.append("frozen")
        if cell in last and placed is not None:
            words.append(say("last-move", "last move"))
        if cell in highlight:
            words.append(say("highlighted", "highlighted"))
        cells[label] = group([title(speak(say("cell-title", "{label}: {words}", label=label, words=words))), *parts],
                             class_=" ".join(["cell", *classes]), data_cell=label, data_stone=placed.owner if placed else None)
    for cell in sorted(last):
        placed = table.at(cell)
        if placed is None:
            continue
        x, y = corner(*table.position(cell))
        marks.append(polygon(card_outline(placed.face, x, y, s), class_="last-move", data_cell=table.label(cell), fill="none",
                            stroke="#ffd43b", stroke_width=3.2, stroke_linejoin="round", pointer_events="none"))
    if highlight:
        from ogames.draw.boards import outline_edges, path_of_edges

        squares = []
        for cell in sorted(highlight):
            x, y = corner(*table.position(cell))
            squares.append([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
        marks.append(element("path", class_="highlight", data_cells=" ".join(table.label(c) for c in sorted(highlight)),
                            d=path_of_edges(outline_edges(squares)), fill="none", stroke=style.HIGHLIGHT, stroke_width=4,
                            stroke_linecap="round", pointer_events="none"))
    if preview is not None:
        cell, owner, face = preview
        x, y = corner(*table.position(cell))
        if face is not None:
            parts = card_parts(face, owner, x, y, s)
        else:
            fill, rim, width = card_colours(owner)
            parts = [element("rect", x=x + GAP * s, y=y + GAP * s, width=(1 - 2 * GAP) * s, height=(1 - 2 * GAP) * s,
                             rx=0.06 * s, fill=fill, stroke=rim, stroke_width=width)]
        marks.append(group(parts, class_="preview", data_cell=table.label(cell), data_colour=owner, opacity="0.55",
                          pointer_events="none"))
    body += [_EMPTY_CELLS, _EMPTY_MARKS]
    if coordinates:
        size = 0.3 * s
        for col in range(W):
            letters = table.label(col).rstrip("0123456789")  # the bottom row's cells are numbered by column
            for ly in (-gap - band - 0.24 * s, H * s + gap + band + 0.24 * s):
                body.append(_coord(col * s + s / 2, ly, letters, size))
        for row in range(H):
            for lx in (-0.32 * s, W * s + 0.32 * s):
                body.append(_coord(lx, (H - 1 - row) * s + s / 2, str(row + 1), size))
    frame = document(body, box, "", class_="ogames-board ogames-table")
    return TableParts(frame, name, cells, "".join(marks))


def _coord(x: float, y: float, words: str, size: float) -> str:
    return text(x, y, words, class_="coord", font_size=size, fill=style.FELT_LABEL, text_anchor="middle", dy="0.35em")


def _home_bands(table: Any, gap: float, band: float, speak: Callable[[str], str]) -> list[str]:
    """A band along each home edge in its owners' colours (side by side when several share an
    edge, as in toddler), with their names."""
    s, W, H = CARD, table.width, table.height
    out = []
    for home_row in sorted(set(table.home_rows)):
        owners = [o for o, r in zip(table.owners, table.home_rows, strict=True) if r == home_row]
        y = H * s + gap if home_row == 0 else -gap - band
        width = W * s / len(owners)
        for k, owner in enumerate(owners):
            fill, rim, _ = card_colours(owner)
            x = k * width
            paint = fill if owner in BASE_OWNERS else rim
            out.append(element("rect", class_=f"home home-{owner}", data_owner=owner, x=x + 0.05 * s, y=y + 0.12 * band,
                               width=width - 0.1 * s, height=0.76 * band, rx=0.25 * band, fill=paint, stroke=rim, stroke_width=1))
            ink = "#fbfaf6" if owner in ("black", "red", "blue", "green") else "#26272b"
            out.append(text(x + width / 2, y + band / 2, speak(say("home", "{colour} home", colour=owner)), class_="home-label",
                            font_size=0.46 * band,
                            fill=ink, text_anchor="middle", dy="0.35em", font_weight="600", pointer_events="none"))
    return out


def _frozen(x: float, y: float, s: float) -> str:
    """Hatching over a cell of a frozen 2v2 end."""
    lines = []
    for k in range(1, 4):
        t = k * s / 4
        lines.append(f"M{num(x + t)},{num(y + 0.06 * s)}L{num(x + 0.06 * s)},{num(y + t)}")
        lines.append(f"M{num(x + s - 0.06 * s)},{num(y + t)}L{num(x + t)},{num(y + s - 0.06 * s)}")
    return element("path", class_="frozen-mark", d="".join(lines), stroke=style.FELT_LABEL, stroke_width=1.2, opacity="0.45")


def _form_cells(state: ZenState) -> dict[tuple[int, int], str]:
    """Zen: table (col, row) → the colour the form wants there, once the form's place on the table
    is settled (a single offset left); empty otherwise."""
    form, offsets = state.form, state.offsets
    if len(offsets) != 1:
        return {}
    (dx, dy), = offsets
    return {(col + dx, row + dy): colour for (col, row), colour in form.cells.items()}


def form_svg(form: Any, speak: Callable[[str], str] = str) -> str:
    """A zen form as a small picture: the card colour each cell asks for (its title worded by `speak`)."""
    s = CARD * 0.6
    body = [element("rect", class_="felt", x=-0.3 * s, y=-0.3 * s, width=(form.width + 0.6) * s, height=(form.height + 0.6) * s,
                    rx=0.2 * s, fill=style.FELT)]
    for (col, row), colour in sorted(form.cells.items()):
        fill, rim, width = card_colours(colour)
        x, y = col * s, (form.height - 1 - row) * s
        body.append(element("rect", class_=f"form form-{colour}", data_colour=colour, x=x + 0.05 * s, y=y + 0.05 * s,
                            width=0.9 * s, height=0.9 * s, rx=0.08 * s, fill=fill, stroke=rim, stroke_width=width))
    name = speak(say("zen-form", "zen form {form} ({russian}), {level}", form=form.english, russian=form.russian,
                     level=form_level(form.level)))
    return document(body, (-0.4 * s, -0.4 * s, (form.width + 0.8) * s, (form.height + 0.8) * s), name, class_="ogames-form")


def form_level(level: str) -> str:
    """A zen form's level in words (easy, medium, hard, impossible)."""
    if level == "easy":
        return say("level-easy", "easy")
    if level == "medium":
        return say("level-medium", "medium")
    if level == "hard":
        return say("level-hard", "hard")
    return say("level-impossible", "impossible")
