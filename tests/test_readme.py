"""The README's Python examples are doctests: they run as written and print what they show. So do
the examples written as doctests (`>>>` lines) in docs/."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))


def python_blocks(text: str) -> list[tuple[int, str]]:
    """The ```python fenced blocks of a Markdown text: (line number of the fence, 0-based; body)."""
    return [(text.count("\n", 0, m.start()), m.group(1)) for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M)]


def run_block(path: Path, fence: int, body: str) -> None:
    """Run one block as a doctest in a fresh namespace; fail with doctest's report naming the file's own lines."""
    name = path.relative_to(ROOT)
    # `lineno` is the body's first line (0-based), so that failures name the file's own lines.
    test = doctest.DocTestParser().get_doctest(body, {}, f"{name} python block at line {fence + 1}", str(path), fence + 1)
    assert test.examples, f"the python block of {name} at line {fence + 1} is not written as a doctest (>>> lines)"
    output: list[str] = []
    result = doctest.DocTestRunner().run(test, out=output.append, clear_globs=True)
    assert result.failed == 0, "".join(output)


def test_the_readme_is_a_front_door_that_starts_with_the_two_commands() -> None:
    """The README stays short (details belong in docs/), and its first command block is the two
    commands that set everything up on a fresh machine: one starts the web server, one runs every
    test. Both scripts are there and executable."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150, "README.md is over 150 lines: move the details into docs/"
    first = re.search(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
    assert first is not None and first.group(1) == "bash", "README.md's first block is not the set-up commands"
    commands = [line.split("#")[0].strip() for line in first.group(2).splitlines()]
    assert commands == ["scripts/start.sh", "scripts/test.sh"]
    assert text.index("```bash") < 3000, "the two commands must come near the top"
    for command in commands:
        script = ROOT / command
        assert script.is_file() and script.stat().st_mode & 0o111, f"{command} is missing or not executable"


def test_the_readme_python_examples_run_as_doctests() -> None:
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "README.md has no ```python block"
    for fence, body in blocks:
        run_block(README, fence, body)


def doc_doctests() -> list[tuple[Path, int, str]]:
    return [
        (path, fence, body)
        for path in DOCS
        for fence, body in python_blocks(path.read_text(encoding="utf-8"))
        if body.lstrip().startswith(">>>")
    ]


def block_id(value: object) -> str | None:
    return str(value.relative_to(ROOT)) if isinstance(value, Path) else None


@pytest.mark.parametrize(("path", "fence", "body"), doc_doctests(), ids=block_id)
def test_the_doctests_in_docs_run(path: Path, fence: int, body: str) -> None:
    run_block(path, fence, body)


def test_the_docs_have_doctests_to_run() -> None:
    # docs/ai.md shows a player built from its spec as a doctest; the collection above must find it.
    assert any(path.name == "ai.md" for path, _, _ in doc_doctests())
