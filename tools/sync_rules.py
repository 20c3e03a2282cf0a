"""Copy the rules pages (docs/rules/*.md, and their translations docs/rules/LANG/*.md) and the
pictures they show into the package, so that the web server's rules pages work when ogames is
installed from a wheel, not only from the repository.

docs/rules is the one source: edit it, then run

    .venv/bin/python tools/sync_rules.py

tests/web/test_rulebook.py fails while the shipped copy (src/ogames/web/rulebook/) differs.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from tool_cli import Parser

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "docs" / "rules"
IMAGES = ROOT / "docs" / "images"
SHIPPED = ROOT / "src" / "ogames" / "web" / "rulebook"
TRANSLATIONS = ("ru",)  # docs/rules/ru/GAME.md → rulebook/ru/GAME.md
PICTURE = re.compile(r"!\[[^\]]*\]\((?:\.\./)+images/([A-Za-z0-9_.-]+)\)")


def pictures(text: str) -> list[str]:
    """The file names of the docs/images pictures a rules page shows (`![…](../images/NAME)`, or
    `../../images/NAME` from a translation's folder)."""
    return PICTURE.findall(text)


def wanted() -> dict[str, bytes]:
    """What the shipped copy must hold: relative path → bytes."""
    files: dict[str, bytes] = {}
    pages = sorted(SOURCE.glob("*.md"))
    for language in TRANSLATIONS:
        pages += sorted((SOURCE / language).glob("*.md"))
    for page in pages:
        data = page.read_bytes()
        files[page.relative_to(SOURCE).as_posix()] = data
        for name in pictures(data.decode("utf-8")):
            files[f"images/{name}"] = (IMAGES / name).read_bytes()
    return files


def shipped() -> dict[str, bytes]:
    """What the shipped copy holds now (package files such as __init__.py aside)."""
    found = {}
    for path in sorted(SHIPPED.rglob("*")):
        if path.is_file() and (path.suffix in (".md", ".png", ".svg", ".jpg")):
            found[path.relative_to(SHIPPED).as_posix()] = path.read_bytes()
    return found


def main() -> int:
    Parser(description=__doc__.splitlines()[0]).parse_args()  # no options: a stray one is refused, --help helps
    want = wanted()
    if (SHIPPED / "images").exists():
        shutil.rmtree(SHIPPED / "images")
    for stale in [*SHIPPED.glob("*.md"), *(path for language in TRANSLATIONS for path in SHIPPED.glob(f"{language}/*.md"))]:
        stale.unlink()
    for name, data in want.items():
        target = SHIPPED / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    print(f"copied {len(want)} files into {SHIPPED.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
