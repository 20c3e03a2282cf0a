"""The web package by concern (docs/architecture.md, "The web package"): the shared core imports
no face, the two faces (the board games' `boards/`, Omiga's `omiga/`) never import each other,
and only the app and the site's pages (`web/app.py`, `web/site.py`), which stand above both, know
them both. Every import counts, also one inside a function (`test_layers.imported`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_layers import PACKAGE, imported

WEB = PACKAGE / "web"
FACES = ("boards", "omiga")
ABOVE = {"app", "site", "__init__"}  # web/app.py, web/site.py and the package's front


def web_modules(path: Path) -> set[str]:
    """The parts of `ogames.web` a source file imports: `core`, `boards`, `omiga`, or a module
    of web/ itself (`i18n`, `app`, …)."""
    return {parts[1] for parts in imported(path) if len(parts) > 1 and parts[0] == "web"}


def sources(folder: str) -> list[Path]:
    return sorted(path for path in (WEB / folder).rglob("*.py") if "migrations" not in path.parts)


def test_the_parser_sees_the_faces() -> None:
    assert {"core", "boards", "omiga"} <= web_modules(WEB / "app.py")
    assert "core" in web_modules(WEB / "boards" / "hub.py")


@pytest.mark.parametrize("path", sources("core"), ids=lambda path: path.name)
def test_the_core_imports_no_face(path: Path) -> None:
    reached = web_modules(path) & {*FACES, *ABOVE}
    assert not reached, f"{path.relative_to(WEB)} imports {sorted(reached)}: the core is shared, it knows no face"


@pytest.mark.parametrize("face", FACES)
def test_a_face_imports_neither_the_other_nor_the_app(face: str) -> None:
    other = {*FACES} - {face}
    wrong = {str(path.relative_to(WEB)): sorted(web_modules(path) & (other | ABOVE)) for path in sources(face)}
    assert not {path: names for path, names in wrong.items() if names}


def test_the_words_and_limits_import_no_package_of_the_web() -> None:
    for name in ("i18n.py", "messages.py", "option_help.py", "limits.py"):
        assert not web_modules(WEB / name) & {"core", *FACES, *ABOVE}, name
