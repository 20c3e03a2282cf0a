"""SVG drawings of the stone games' boards: hex patches (Omny, Odd-Y's triangle, Omega), the
polar odd-sided boards (Odd-Y) and the Onyx lattice.

Each cell is a `<g class="cell" data-cell="LABEL">` holding a `<title>` (label and content), the
cell's shape and its stone, so a page can attach clicks and hovers to it; an occupied cell also
carries `data-stone="COLOUR"` and a star cell `data-star="true"`. Marks drawn over the cells have
their own classes: `last-move`, `highlight`, `preview` and `captured`, each with `data-cell`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ogames.boards.graph import LATTICE, POLAR, Board
from ogames.boards.hexes import column_letters, parse_label
from ogames.boards.onyx import CELLS, SIZE, is_square, point_label
from ogames.draw import style
from ogames.draw.geometry import UNIT, centroid, dual_cells, hex_cells, position, room, spacing
from ogames.draw.markup import Bounds, Point, document, element, group, num, polygon, text, title
from ogames.rules.protocol import State
from ogames.wording import Said, say

# How a drawing words its texts (titles, labels): English by default; a face passes its translator
# of `ogames.wording` sentences (the web face: `ogames.web.messages.speaker`).
Speak = Callable[[str], str]

HEX_STONE = 0.4  # a stone's radius on a hex cell, in UNITs
POLAR_STONE = 0.42  # on a polar board, in typical distances between neighbours
ONYX_STONE = 0.33  # on the Onyx lattice, in UNITs


@dataclass(frozen=True)
class Marks:
    """What to mark besides the stones: cell numbers of the last move, the highlight and the last
    captures, and a ghost stone (cell, colour) for a hover preview."""

    last: frozenset[int] = frozenset()
    highlight: frozenset[int] = frozenset()
    captured: frozenset[int] = frozenset()
    preview: tuple[int, str] | None = None
    winning: bool = False  # a highlighted cell's title says "winning group" (else "highlighted")
    speak: Speak = str  # the words of titles and labels (English)


def describe_cell(label: str, colour: str | None, *, star: bool = False, marks: Marks | None = None, cell: int = -1,
                  more: tuple[Said, ...] = ()) -> str:
    """The words of a cell's title: `c3: black stone, star cell, last move` (and `more`)."""
    words = [say("stone", "{colour} stone", colour=colour) if colour else say("empty", "empty")]
    if star:
        words.append(say("star-cell", "star cell"))
    if marks is not None:
        if cell in marks.last and colour:
            words.append(say("last-move", "last move"))
        if cell in marks.highlight:
            words.append(say("winning-group", "winning group") if marks.winning else say("highlighted", "highlighted"))
        if cell in marks.captured:
            words.append(say("just-captured", "just captured"))
    words += more
    speak = marks.speak if marks is not None else str
    return speak(say("cell-title", "{label}: {words}", label=label, words=words))


def cell_group(label: str, words: str, parts: Iterable[str], *, colour: str | None = None, star: bool = False,
               classes: str = "") -> str:
    """The clickable group of one cell."""
    return group(
        [title(words), *parts],
        class_=("cell " + classes).strip(),
        data_cell=label,
        data_stone=colour,
        data_star="true" if star else None,
    )


def outline_edges(shapes: Iterable[Sequence[Point]]) -> list[tuple[Point, Point]]:
    """The edges of a set of tiles that are not shared by two of them: the outline of their union."""
    count: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
    keep: dict[tuple[tuple[float, float], tuple[float, float]], tuple[Point, Point]] = {}
    for pts in shapes:
        for k, a in enumerate(pts):
            b = pts[(k + 1) % len(pts)]
            ka, kb = (round(a[0], 1), round(a[1], 1)), (round(b[0], 1), round(b[1], 1))
            if ka == kb:
                continue
            key = (ka, kb) if ka <= kb else (kb, ka)
            count[key] = count.get(key, 0) + 1
            keep[key] = (a, b)
    return [keep[k] for k, n in count.items() if n == 1]


def path_of_edges(edges: Iterable[tuple[Point, Point]]) -> str:
    """An SVG path `d` drawing separate segments."""
    return " ".join(f"M{num(a[0])},{num(a[1])}L{num(b[0])},{num(b[1])}" for a, b in edges)


def stone_marks(colour: str, x: float, y: float, r: float, cell: int, label: str | None, marks: Marks) -> list[str]:
    """The stone and the last-move dot on it."""
    parts = [style.stone(colour, x, y, r, class_=f"stone stone-{colour}")]
    if cell in marks.last:
        parts.append(style.dot(x, y, 0.3 * r, style.look(colour).mark, class_="last-move", data_cell=label))
    return parts


def ghost(board: Board, marks: Marks, where: Point, r: float) -> list[str]:
    """The hover preview: a half-transparent stone that ignores the pointer."""
    if marks.preview is None:
        return []
    cell, colour = marks.preview
    return [
        group(
            [style.stone(colour, where[0], where[1], r, class_="ghost")],
            class_="preview",
            data_cell=board.labels[cell],
            data_colour=colour,
            opacity="0.5",
            pointer_events="none",
        )
    ]


def backdrop(bounds: Bounds, margin: float) -> tuple[str, tuple[float, float, float, float]]:
    """The rounded paper card under a board, and the drawing's viewBox."""
    box = bounds.box(margin)
    pad = margin * 0.35
    rect = element(
        "rect",
        class_="backdrop",
        x=box[0] + pad,
        y=box[1] + pad,
        width=box[2] - 2 * pad,
        height=box[3] - 2 * pad,
        rx=UNIT * 0.4,
        fill=style.BACKDROP,
        stroke=style.BACKDROP_EDGE,
        stroke_width=1.5,
    )
    return rect, box


def label_text(x: float, y: float, words: str, size: float, colour: str = style.LABEL, **values: object) -> str:
    """A coordinate or side label, centred on (x, y)."""
    values.setdefault("class_", "coord")
    return text(x, y, words, font_size=size, fill=colour, text_anchor="middle", dy="0.35em", **values)


# ----- hex patches -------------------------------------------------------------------------------
def hex_svg(state: State, board: Board, marks: Marks, *, coordinates: bool, stars: frozenset[int], number_sides: bool,
            name: str) -> str:
    """A hex patch: hexagon cells, stones, star cells, edge labels, optional side numbers."""
    return _cells_svg(state, board, False, marks, stars=stars, name=name, stone_r=HEX_STONE * UNIT, hex_labels=coordinates,
                      number_sides=number_sides, labels_in_cells=False)


def _hex_labels(board: Board) -> list[tuple[Point, str]]:
    """Row numbers at both ends of every row; column letters past the bottom row and past the top
    row where a column reaches them (else past its lowest cell), on the column's slant."""
    axial = [parse_label(label) for label in board.labels]
    ys = [y for _, y in axial]
    low, high = min(ys), max(ys)

    def at(x: float, y: float) -> Point:
        return ((x + y / 2) * UNIT, -y * math.sqrt(3) / 2 * UNIT)

    out: list[tuple[Point, str]] = []
    rows: dict[int, list[int]] = {}
    columns: dict[int, list[int]] = {}
    for x, y in axial:
        rows.setdefault(y, []).append(x)
        columns.setdefault(x, []).append(y)
    for y, xs in rows.items():
        out.append((at(min(xs) - 0.9, y), str(y + 1)))
        out.append((at(max(xs) + 0.9, y), str(y + 1)))
    for x, col in columns.items():
        ends = [y_at for y_at, reached in ((low - 0.9, low in col), (high + 0.9, high in col)) if reached]
        for y_at in ends or [min(col) - 0.9]:
            out.append((at(x, y_at), column_letters(x)))
    return out


# ----- polar boards ------------------------------------------------------------------------------
def polar_svg(state: State, board: Board, marks: Marks, *, coordinates: bool, name: str) -> str:
    """A polar odd-sided board: dual cells, stones, each side's number outside it, and with
    `coordinates` each empty cell's label inside it."""
    return _cells_svg(state, board, True, marks, stars=frozenset(), name=name, stone_r=POLAR_STONE * spacing(board),
                      hex_labels=False, number_sides=True, labels_in_cells=coordinates)


def side_count(board: Board) -> int:
    """How many numbered sides (`side0`, `side1`, …) the board has."""
    count = 0
    while f"side{count}" in board.cell_sets:
        count += 1
    return count


def _side_labels(board: Board, shapes: Sequence[Sequence[Point]], size: float, extra: float,
                 speak: Speak) -> list[tuple[Point, str]]:
    """`side k` along each side, just outside it (`extra` further out, past edge labels), turned
    to run along the side; as (anchor, SVG text) pairs."""
    pos = [position(board, c) for c in range(len(board))]
    middle = centroid(pos)
    out = []
    for s in range(side_count(board)):
        cells = sorted(board.cells(f"side{s}"))
        pts = [pos[c] for c in cells]
        a, b = max(((p, q) for p in pts for q in pts), key=lambda pq: math.dist(*pq))
        length = math.dist(a, b) or 1.0
        dx, dy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        nx, ny = -dy, dx
        if nx * (mx - middle[0]) + ny * (my - middle[1]) < 0:
            nx, ny = -nx, -ny
        reach = max((p[0] - mx) * nx + (p[1] - my) * ny for c in cells for p in shapes[c])
        x, y = mx + nx * (reach + 0.8 * size + extra), my + ny * (reach + 0.8 * size + extra)
        angle = math.degrees(math.atan2(dy, dx))
        if angle > 90:
            angle -= 180
        elif angle <= -90:
            angle += 180
        svg = label_text(x, y, speak(say("side",
                                         "side {n}", n=s)), size, colour=style.SIDE_LABEL, font_weight="600", class_="coord side",
                         data_side=str(s), transform=f"rotate({num(angle)} {num(x)} {num(y)})")
        out.append(((x, y), svg))
    return out


@dataclass(frozen=True)
class _Tiles:
    """What stays the same on every drawing of a tiled board: each cell's tile (with its star
    mark for an empty star cell), position and stone size, the edge labels, the backdrop, the viewBox."""

    tiles: tuple[str, ...]
    stars: tuple[str, ...]  # an empty star cell's star, or an empty cell's label (polar boards with coordinates)
    points: tuple[Point, ...]
    radius: tuple[float, ...]
    labels: str
    backdrop: str
    box: tuple[float, float, float, float]
    # A cell's whole group by (cell, colour or None) when no mark touches it: a live game redraws
    # its board on every move, and all but a few cells look as they did before.
    plain_cells: dict[tuple[int, str | None], str] = field(default_factory=dict, compare=False, hash=False)


@lru_cache(maxsize=128)
def _tiles(board: Board, dual: bool, stars: frozenset[int], stone_r: float, hex_labels: bool, number_sides: bool,
           labels_in_cells: bool, speak: Speak) -> _Tiles:
    shapes = dual_cells(board) if dual else hex_cells(board)
    fits = room(board, dual)
    radius = tuple(min(stone_r, 0.82 * fits[c]) for c in range(len(board)))
    bounds = Bounds()
    tiles, marks, pts = [], [], []
    for c in range(len(board)):
        x, y = position(board, c)
        pts.append((x, y))
        for p in shapes[c]:
            bounds.add(*p)
        fill = style.STAR_CELL if c in stars else style.CELL
        tiles.append(polygon(shapes[c], class_="tile", fill=fill, stroke=style.CELL_LINE, stroke_width=1.1,
                             stroke_linejoin="round"))
        if c in stars:
            marks.append(style.star_mark(x, y, 0.3 * UNIT, class_="star", fill=style.STAR_MARK, opacity="0.8"))
        elif labels_in_cells:
            size = min(0.3 * UNIT, radius[c] * 0.62)
            marks.append(label_text(x, y, board.labels[c], size, colour=style.LABEL, pointer_events="none"))
        else:
            marks.append("")
    size = 0.34 * UNIT
    labels = []
    edge_labels = _hex_labels(board) if hex_labels else []
    for (x, y), words in edge_labels:
        labels.append(label_text(x, y, words, size))
        bounds.add(x, y, size)
    if number_sides:
        for (x, y), svg in _side_labels(board, shapes, size, extra=0.7 * UNIT if edge_labels else 0.0, speak=speak):
            labels.append(svg)
            bounds.add(x, y, pad=size * 2)
    rect, box = backdrop(bounds, 0.6 * UNIT)
    return _Tiles(tuple(tiles), tuple(marks), tuple(pts), radius, "".join(labels), rect, box)


def _cells_svg(state: State, board: Board, dual: bool, marks: Marks, *, stars: frozenset[int], name: str, stone_r: float,
               hex_labels: bool, number_sides: bool, labels_in_cells: bool) -> str:
    """Any board whose cells are tiles (hexagons, or the `dual` outlines): the tiles, stones, marks and labels."""
    layout = _tiles(board, dual, stars, stone_r, hex_labels, number_sides, labels_in_cells, marks.speak)
    radius = layout.radius
    body: list[str] = [layout.backdrop]
    marked = marks.last | marks.highlight | marks.captured
    for c, label in enumerate(board.labels):
        colour = state.stone_at(label)
        plain = c not in marked
        if plain and (c, colour) in layout.plain_cells:
            body.append(layout.plain_cells[c, colour])
            continue
        x, y = layout.points[c]
        star = c in stars
        parts = [layout.tiles[c]]
        if colour is not None:
            parts += stone_marks(colour, x, y, radius[c], c, label, marks)
        else:
            parts.append(layout.stars[c])
        words = describe_cell(label, colour, star=star, marks=marks, cell=c)
        drawn = cell_group(label, words, parts, colour=colour, star=star, classes="star" if star else "")
        if plain:
            layout.plain_cells[c, colour] = drawn
        body.append(drawn)
    if marks.highlight:
        body.append(outline(board, dual, marks.highlight))
    if marks.preview is not None:
        body += ghost(board, marks, layout.points[marks.preview[0]], radius[marks.preview[0]])
    body.append(layout.labels)
    return document(body, layout.box, name, class_="ogames-board")


def outline(board: Board, dual: bool, cells: frozenset[int]) -> str:
    """The outline of a group of tiled cells (the winning group)."""
    shapes = dual_cells(board) if dual else hex_cells(board)
    edges = outline_edges(shapes[c] for c in sorted(cells))
    return element("path", class_="highlight", data_cells=" ".join(board.labels[c] for c in sorted(cells)),
                   d=path_of_edges(edges), fill="none", stroke=style.HIGHLIGHT, stroke_width=0.09 * UNIT,
                   stroke_linecap="round", pointer_events="none")


# ----- the Onyx lattice --------------------------------------------------------------------------
ONYX_SQUARE = "#ddbb7f"
ONYX_BLACK_SIDE = "#2b2b2e"
ONYX_WHITE_SIDE = "#fbfaf6"


def _at(col: float, row: float) -> Point:
    """The drawing position of an Onyx lattice point (North up)."""
    return (col * UNIT, (SIZE - 1 - row) * UNIT)


ONYX_BAND = 0.22 * UNIT  # how wide the sides' bands are


@lru_cache(maxsize=1)
def _onyx_field() -> str:
    """What every Onyx drawing shows under the stones: the sides (Black's West and East, White's
    South and North), the square cells tinted, the triangle cells' diagonals and the lattice lines."""
    u, last, band = UNIT, SIZE - 1, ONYX_BAND
    body: list[str] = []
    x0, y0 = _at(0, last)
    body.append(element("rect", class_="side side-white", x=x0 - band * 1.6, y=y0 - band * 1.6, width=last * u + 3.2 * band,
                        height=last * u + 3.2 * band, rx=band, fill=ONYX_WHITE_SIDE, stroke=style.CELL_LINE, stroke_width=1))
    for col in (0, last):
        x, _ = _at(col, 0)
        side = "west" if col == 0 else "east"
        body.append(element("rect", class_=f"side side-black side-{side}", x=x - band * 1.6 if col == 0 else x,
                            y=y0 - band * 0.2, width=band * 1.6, height=last * u + band * 0.4, fill=ONYX_BLACK_SIDE))
    body.append(element("rect", class_="field", x=x0, y=y0, width=last * u, height=last * u, fill=style.CELL))
    lines: list[str] = []
    for r in range(CELLS):
        for c in range(CELLS):
            sx, sy = _at(c, r + 1)
            if is_square(c, r):
                body.append(element("rect", class_="square", x=sx, y=sy, width=u, height=u, fill=ONYX_SQUARE))
            elif r % 2 == 0:
                lines.append(_line(_at(c, r), _at(c + 1, r + 1)))
            else:
                lines.append(_line(_at(c, r + 1), _at(c + 1, r)))
    for k in range(SIZE):
        lines.append(_line(_at(k, 0), _at(k, last)))
        lines.append(_line(_at(0, k), _at(last, k)))
    body.append(element("path", class_="lines", d=" ".join(lines), stroke=style.CELL_LINE, stroke_width=1.2, fill="none",
                        stroke_linecap="round"))
    return "".join(body)


@lru_cache(maxsize=2)
def _onyx_frame(coordinates: bool) -> tuple[str, str, tuple[float, float, float, float]]:
    """The edge labels, the backdrop and the viewBox of an Onyx drawing."""
    last, size = SIZE - 1, 0.34 * UNIT
    bounds = Bounds()
    bounds.add(*_at(0, 0), pad=ONYX_BAND * 1.6)
    bounds.add(*_at(last, last), pad=ONYX_BAND * 1.6)
    labels = []
    if coordinates:
        for k in range(SIZE):
            letter, number = point_label(k, 0)[0], str(k + 1)
            for (x, y), words in ((_at(k, -0.95), letter), (_at(k, last + 0.95), letter), (_at(-0.95, k), number),
                                  (_at(last + 0.95, k), number)):
                labels.append(label_text(x, y, words, size))
                bounds.add(x, y, size)
    rect, box = backdrop(bounds, 0.55 * UNIT)
    return "".join(labels), rect, box


@lru_cache(maxsize=1)
def _onyx_points() -> tuple[tuple[Point, str, str, str], ...]:
    """Per cell of the Onyx board: its position, its (invisible) click target, and how an open and
    a closed midpoint look there."""
    from ogames.boards.onyx import onyx_board

    board = onyx_board()
    out = []
    for cell, label in enumerate(board.labels):
        x, y = _at(*board.coords[cell])
        midpoint = label.endswith("*")
        hit = element("circle", class_="hit", cx=x, cy=y, r=(0.3 if midpoint else 0.35) * UNIT, fill="#000", fill_opacity="0")
        is_open = element("circle", class_="open", cx=x, cy=y, r=0.12 * UNIT, fill=style.CELL, stroke=style.CELL_LINE,
                          stroke_width=1.5)
        shut = style.dot(x, y, 0.05 * UNIT, style.CELL_LINE, class_="shut", opacity="0.6")
        out.append(((x, y), hit, is_open, shut))
    return tuple(out)


def capture_cross(x: float, y: float, label: str | None = None) -> str:
    """The cross on an Onyx point whose stone the last move captured."""
    d = 0.16 * UNIT
    cross = _line((x - d, y - d), (x + d, y + d)) + _line((x - d, y + d), (x + d, y - d))
    return element("path", class_="captured", data_cell=label, d=cross, stroke=style.CAPTURE, stroke_width=0.07 * UNIT,
                   stroke_linecap="round")


def onyx_ring(x: float, y: float, label: str | None = None) -> str:
    """The ring around an Onyx stone of the group that joined the sides."""
    return element("circle", class_="highlight", data_cell=label, cx=x, cy=y, r=ONYX_STONE * UNIT + 0.07 * UNIT, fill="none",
                   stroke=style.HIGHLIGHT, stroke_width=0.07 * UNIT)


def onyx_svg(state: State, board: Board, marks: Marks, *, coordinates: bool, name: str, frame: bool = False) -> str:
    """The Onyx lattice: cells (squares tinted, triangles with their diagonal), lattice lines, the
    sides in their owners' colours, midpoints (open ones as rings), stones, captures, labels. A
    `frame` (no stones) gives every midpoint both its open ring and its closed dot, for a page to
    show one of them by the cell's class `open` or `closed`."""
    u = UNIT
    labels, rect, box = _onyx_frame(coordinates)
    body: list[str] = [rect, _onyx_field()]
    open_midpoints = set(state.legal_moves()) if not state.is_over else set()
    r_stone = ONYX_STONE * u
    points = _onyx_points()
    for cell, label in enumerate(board.labels):
        (x, y), hit, is_open, shut = points[cell]
        midpoint = label.endswith("*")
        colour = state.stone_at(label)
        parts = [hit]
        classes = "midpoint" if midpoint else "point"
        if colour is not None:
            parts += stone_marks(colour, x, y, r_stone, cell, label, marks)
        elif midpoint and frame:
            parts += [is_open, shut]
        elif midpoint:
            open_now = label in open_midpoints
            classes += " open" if open_now else " closed"
            parts.append(is_open if open_now else shut)
        if cell in marks.captured and colour is None:
            parts.append(capture_cross(x, y, label))
        if cell in marks.highlight:
            parts.append(onyx_ring(x, y, label))
        more: tuple[Said, ...] = ()
        if midpoint and colour is None and not frame:
            more = (say("open-midpoint", "open midpoint") if "open" in classes.split()
                    else say("closed-midpoint", "closed midpoint (a corner is taken)"),)
        words = describe_cell(label, colour, marks=marks, cell=cell, more=more)
        body.append(cell_group(label, words, parts, colour=colour, classes=classes))
    if marks.preview is not None:
        body += ghost(board, marks, points[marks.preview[0]][0], r_stone)
    body.append(labels)
    return document(body, box, name, class_="ogames-board")


def _line(a: Point, b: Point) -> str:
    return f"M{num(a[0])},{num(a[1])}L{num(b[0])},{num(b[1])}"



def highlight_svg(board: Board, cells: frozenset[int]) -> str:
    """The marks of a highlighted group over a board drawn already (by a page, over `board_frame`):
    a tiled board's outline, the Onyx lattice's rings."""
    if not cells:
        return ""
    if board.geometry == LATTICE:
        return "".join(onyx_ring(*_at(*board.coords[c]), board.labels[c]) for c in sorted(cells))
    return outline(board, board.geometry == POLAR, cells)


def cell_marks(board: Board, colours: Iterable[str]) -> dict[str, object]:
    """What a page puts on a cell of a board drawn once (`board_frame`), each drawn at the origin
    for a stone of radius 1 (the page moves and scales it to a cell's `stone_places`): per colour
    its stone and the last move's dot on it, and the cross of a captured Onyx stone."""
    marks = Marks(last=frozenset({0}))
    shapes: dict[str, object] = {}
    for colour in colours:
        stone, dot = stone_marks(colour, 0, 0, 1, 0, None, marks)
        shapes[colour] = {"stone": stone, "last": dot}
    if board.geometry == LATTICE:
        scale = 1 / (ONYX_STONE * UNIT)
        shapes["cross"] = group([capture_cross(0, 0)], transform=f"scale({num(scale)})")
    return shapes


@lru_cache(maxsize=64)
def stone_places(board: Board) -> tuple[tuple[float, float, float], ...]:
    """Per cell: where its stone is drawn and how big, (x, y, radius) in the drawing's units, so a
    page can put a stone of its own there (a hover preview) without drawing the board again."""
    if board.geometry == LATTICE:
        return tuple((*_at(*board.coords[c]), ONYX_STONE * UNIT) for c in range(len(board)))
    dual = board.geometry == POLAR
    stone_r = POLAR_STONE * spacing(board) if dual else HEX_STONE * UNIT
    fits = room(board, dual)
    return tuple((*position(board, c), min(stone_r, 0.82 * fits[c])) for c in range(len(board)))
