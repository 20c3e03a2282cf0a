"""Imports run one way, as docs/architecture.md draws the layers: boards → kernels → rules →
records → players → envs and sgf → arena, ratings and teach → the faces (cli, web, draw). A module imports only from its own
package and the layers above it, never from one below: the rules know nothing of players or
faces, the search nothing of the web. Every import counts, also one inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "ogames"

# The layers from the top (imported by all below) to the faces. `api` is the `ogames` package's own
# namespace (`import ogames`: load, replay, player, games), which reaches the players: only the
# layers below the players may use it.
LAYERS = [
    {"errors", "wording", "kernel_cache"},
    {"boards"},
    {"kernels"},
    {"rules"},
    {"records"},
    {"players"},
    {"api"},
    {"envs", "sgf"},
    {"arena", "ratings", "teach"},
    {"draw", "cli", "web"},
]
RANK = {name: rank for rank, layer in enumerate(LAYERS) for name in layer}
FACES = LAYERS[-1]

# Modules of one row may import each other (errors and wording, envs and sgf), except the faces:
# an import from one face to another is one of these, each for a reason.
SIDEWAYS = {
    ("cli", "web"),  # `ogames serve` starts the web server
    ("web", "draw"),  # the web page shows ogames.draw's SVG
    ("envs", "cli"),  # the environments' text render mode shows the terminal's drawing (`envs/drawing.py`)
}


def layer_of(parts: tuple[str, ...]) -> str:
    """The layer of a module named by its parts after `ogames` (() is the package itself)."""
    if not parts or parts[0] == "__init__":
        return "api"
    return parts[0]


def imported(path: Path) -> set[tuple[str, ...]]:
    """Every `ogames` module a source file imports, as its parts after `ogames`; relative imports
    resolved against the file's own package."""
    module = path.relative_to(SRC).with_suffix("").parts
    package = module[:-1]  # the package a relative import starts from (for `__init__.py`, its own)
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
            found.update(tuple(name[1:]) for name in names if name[0] == "ogames")
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            target = [*base, *(node.module.split(".") if node.module else [])]
            if target[:1] != ["ogames"]:
                continue
            if len(target) == 1:  # `from ogames import x`: a layer when x is one, else the package's own names
                found.update((alias.name,) if alias.name in RANK else () for alias in node.names)
            else:
                found.add(tuple(target[1:]))
    return found


def test_the_parser_sees_every_kind_of_import() -> None:
    rules = imported(PACKAGE / "rules" / "omny.py")
    assert any(parts[:1] == ("kernels",) for parts in rules), "rules/omny.py uses its kernel"
    assert ("records",) in imported(PACKAGE / "cli" / "app.py")  # `from ogames import records`
    assert () in imported(PACKAGE / "cli" / "app.py")  # `import ogames`


def sources() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "migrations" not in path.parts)


@pytest.mark.parametrize("path", sources(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_a_module_imports_only_its_own_layer_and_those_above(path: Path) -> None:
    own = layer_of(path.relative_to(PACKAGE).with_suffix("").parts)
    if own in {"api", "__main__"}:
        return  # the package's front (`ogames/__init__.py`, `python -m ogames`) may reach any layer
    assert own in RANK, f"{path.relative_to(PACKAGE)} is in no layer of docs/architecture.md: add it there and here"
    for parts in imported(path):
        other = layer_of(parts)
        if other == own or (own, other) in SIDEWAYS:
            continue
        assert other in RANK, f"{path.relative_to(PACKAGE)} imports ogames.{'.'.join(parts)}, in no layer"
        if RANK[other] == RANK[own] and own not in FACES:
            continue
        assert RANK[other] < RANK[own], (
            f"{path.relative_to(PACKAGE)} ({own}) imports ogames.{'.'.join(parts)} ({other}), a layer below it"
        )
