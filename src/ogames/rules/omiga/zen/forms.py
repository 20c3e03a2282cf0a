"""The zen forms (дзен-формы): the project's own designs under the booklet's names and levels.

A form is a set of cells, each asking for a card of one colour. Art is drawn top row first with
`#` for a black card, `o` for a white card and `.` for no card; row numbers grow upwards (row 0 is
the last line of the art), as on the Omiga table. The booklet's levels are kept, with one rule the
project adds: a form is at level "impossible" exactly when the solver proves that no set of cards
can complete it, and every other form is proved completable (see `solver.py`, `docs/zen-forms.md`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ogames.wording import say

LEVELS = ("easy", "medium", "hard", "impossible")
DEFAULT_FORM = "fly"  # «Муха», the first easy form: the one default of the `form` option and the zen command
COLOURS = {"#": "black", "o": "white"}


@dataclass(frozen=True)
class Form:
    """One zen form: its key, names, level, stars within the level and the drawing."""

    key: str
    english: str
    russian: str
    level: str
    stars: int
    art: str

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"form {self.key!r}: level {self.level!r} is not one of {', '.join(LEVELS)}")
        lines = self.lines
        if not lines or any(len(line) != len(lines[0]) for line in lines):
            raise ValueError(f"form {self.key!r}: the art must be a non-empty rectangle")
        bad = {ch for line in lines for ch in line} - set(COLOURS) - {"."}
        if bad:
            raise ValueError(f"form {self.key!r}: unknown art characters {sorted(bad)}")
        if not self.cells:
            raise ValueError(f"form {self.key!r} has no cells")
        if not self.connected:
            raise ValueError(f"form {self.key!r} is not orthogonally connected, so no layout could ever fill it")

    @property
    def lines(self) -> list[str]:
        """The art's lines, top first, without surrounding blank lines."""
        return [line.strip() for line in self.art.strip().splitlines()]

    @property
    def width(self) -> int:
        """Columns of the form's bounding box."""
        return len(self.lines[0])

    @property
    def height(self) -> int:
        """Rows of the form's bounding box."""
        return len(self.lines)

    @cached_property
    def cells(self) -> dict[tuple[int, int], str]:
        """(col, row) → colour, with row 0 at the bottom."""
        lines = self.lines
        out = {}
        for i, line in enumerate(lines):
            for col, ch in enumerate(line):
                if ch in COLOURS:
                    out[(col, len(lines) - 1 - i)] = COLOURS[ch]
        return out

    @property
    def connected(self) -> bool:
        """Whether the cells form one orthogonally connected piece (every layout is one)."""
        cells = self.cells
        start = next(iter(cells))
        seen, todo = {start}, [start]
        while todo:
            col, row = todo.pop()
            for nxt in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
                if nxt in cells and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return len(seen) == len(cells)

    def count(self, colour: str) -> int:
        """How many cells ask for a card of `colour`."""
        return sum(1 for c in self.cells.values() if c == colour)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours the form uses (a one-colour form sets the other deck aside)."""
        return tuple(c for c in ("white", "black") if self.count(c))

    @property
    def title(self) -> str:
        """English and Russian names with the level, for people."""
        return f"{self.english} ({self.russian}), {self.level}"


def _f(key: str, english: str, russian: str, level: str, stars: int, art: str) -> Form:
    return Form(key, english, russian, level, stars, art)


FORMS: tuple[Form, ...] = (
    # ----- easy: small, one or two colours ------------------------------------------------------
    _f("fly", "fly", "Муха", "easy", 1, """
        o.o
        ###
        """),
    _f("rat", "rat", "Крыса", "easy", 2, """
        ##...
        ####o
        """),
    _f("frog", "frog", "Лягушка", "easy", 3, """
        o.o
        ###
        #.#
        """),
    _f("rabbit", "rabbit", "Кролик", "easy", 4, """
        o.o
        o.o
        ooo
        ###
        """),
    _f("hawk", "hawk", "Ястреб", "easy", 5, """
        ..#..
        #####
        ..o..
        """),
    _f("wolf", "wolf", "Волк", "easy", 6, """
        #...#
        ##.##
        #o#o#
        .###.
        """),
    # ----- medium ---------------------------------------------------------------------------
    _f("sharp", "sharp", "Диез", "medium", 1, """
        .#.#.
        #####
        .#.#.
        #####
        .#.#.
        """),
    _f("yin-yang", "yin-yang", "Инь-Ян", "medium", 2, """
        .oo#.
        oo.##
        o####
        .##..
        """),
    _f("egg", "egg", "Яйцо", "medium", 3, """
        .ooo.
        ooooo
        oo#oo
        ooooo
        .ooo.
        """),
    _f("rabbit-medium", "rabbit", "Кролик", "medium", 3, """
        #...#
        #...#
        #####
        #o#o#
        #####
        .###.
        """),
    _f("heart", "heart", "Сердце", "medium", 3, """
        ##.##
        #####
        #####
        .###.
        ..#..
        """),
    _f("ghost", "ghost", "Привидение", "medium", 4, """
        .ooo.
        oo#o#
        ooooo
        ooooo
        o.o.o
        """),
    _f("spiral", "spiral", "Спираль", "medium", 5, """
        ######
        #....#
        #.##.#
        #..#.#
        ####.#
        """),
    # ----- hard: large, many cards of one colour -------------------------------------------------
    _f("eagle", "eagle", "Орёл", "hard", 1, """
        ...oo...
        #..oo..#
        ##.##.##
        ########
        .######.
        ..#..#..
        """),
    _f("panda", "panda", "Панда", "hard", 2, """
        ##....##
        ##oooo##
        .oooooo.
        .o##o##.
        .oooooo.
        ..o##o..
        ...oo...
        """),
    _f("snake", "snake", "Змея", "hard", 3, """
        ..######
        ..#....#
        ..#.####
        ..#.#...
        ###.#...
        #...####
        ########
        """),
    _f("shark", "shark", "Акула", "hard", 4, """
        ....#.....
        ...##.....
        .#######.#
        #ooooooo##
        .#######.#
        """),
    _f("tiger", "tiger", "Тигр", "hard", 5, """
        o#....#o
        o#oooo#o
        #o#oo#o#
        o#o##o#o
        #oo#ooo#
        .##oo##.
        """),
    _f("dragon", "dragon", "Дракон", "hard", 6, """
        ##......##
        .###..###.
        ..######..
        .########.
        ##oooooo##
        #oooooooo#
        ..######..
        """),
    # ----- impossible: more cards of one colour than a deck holds ---------------------------------
    _f("alien-1", "alien 1", "Пришелец, 1", "impossible", 1, """
        .oooooo.
        oo#oo#oo
        oooooooo
        oooooooo
        .oooooo.
        .oo..oo.
        """),
    _f("alien-2", "alien 2", "Пришелец, 2", "impossible", 1, """
        .#.....#.
        .#.....#.
        .#######.
        ##o###o##
        #########
        .#######.
        .#.#.#.#.
        """),
    _f("panda-impossible", "panda", "Панда", "impossible", 2, """
        ###....###
        ###oooo###
        .oooooooo.
        oo###o###o
        oo#o#o#o#o
        oo###o###o
        .ooo##ooo.
        ..oooooo..
        """),
    _f("chessboard", "chessboard", "Шахматная доска", "impossible", 3, """
        #o#o#o#o#
        o#o#o#o#o
        #o#o#o#o#
        o#o#o#o#o
        #o#o#o#o#
        o#o#o#o#o
        #o#o#o#o#
        o#o#o#o#o
        #o#o#o#o#
        """),
    _f("wheel", "wheel", "Колесо", "impossible", 3, """
        ..#####..
        .##.#.##.
        ##..#..##
        #...#...#
        #########
        #...#...#
        ##..#..##
        .##.#.##.
        ..#####..
        """),
    _f("square", "square", "Квадрат", "impossible", 3, """
        #######
        #######
        #######
        #######
        #######
        #######
        #######
        """),
    _f("rhombus", "rhombus", "Ромб", "impossible", 4, """
        ....o....
        ...ooo...
        ..ooooo..
        .ooooooo.
        ooooooooo
        .ooooooo.
        ..ooooo..
        ...ooo...
        ....o....
        """),
    _f("galaxy", "galaxy", "Галактика", "impossible", 4, """
        ....#######
        ...##.....#
        ..##..ooo.#
        .##..oo.o.#
        ##..oo#.o.#
        #..oo###oo#
        #.o.#.#oo..
        #.o.oo##..#
        #.ooo....##
        #.......##.
        #########..
        """),
)

BY_KEY: dict[str, Form] = {form.key: form for form in FORMS}

_LATIN = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "a b v g d e e zh z i i k l m n o p r s t u f h c ch sh sch _ y _ e yu ya".split(),
        strict=True,
    )
)


def transliterate(russian: str) -> str:
    """A Latin spelling of a Russian name (Муха → muha), so forms can be named on any keyboard."""
    return "".join(_LATIN.get(ch, ch) for ch in russian.lower()).replace("_", "")


def form_named(name: str) -> Form:
    """The form with this key, English or Russian name (case-insensitive); ValueError naming the choices."""
    if not isinstance(name, str):
        raise ValueError(f"a zen form is named by text, not {type(name).__name__}")
    wanted = name.strip().lower()
    if wanted in BY_KEY:
        return BY_KEY[wanted]
    matches = [f for f in FORMS if wanted in (f.english.lower(), f.russian.lower(), transliterate(f.russian))]
    if matches:
        # The booklet has two rabbits and two pandas: the plain name means the lower level.
        return min(matches, key=lambda f: LEVELS.index(f.level))
    raise ValueError(say("unknown-form", "unknown zen form {name} (forms: {forms})", name=repr(name), forms=list(BY_KEY),
                         russian=list(dict.fromkeys(form.russian for form in FORMS))))
