"""The README's Python example is a doctest: it runs as written and prints what it shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks(text: str) -> list[tuple[int, str]]:
    """The ```python fenced blocks of a Markdown text: (line number of the fence, 0-based; body)."""
    return [(text.count("\n", 0, m.start()), m.group(1)) for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M)]


def test_the_readme_python_example_runs_as_a_doctest() -> None:
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "README.md has no ```python block"
    parser = doctest.DocTestParser()
    for fence, body in blocks:
        # `lineno` is the body's first line (0-based), so that failures name README.md's own lines.
        test = parser.get_doctest(body, {}, f"README.md python block at line {fence + 1}", str(README), fence + 1)
        assert test.examples, f"the README's python block at line {fence + 1} is not written as a doctest (>>> lines)"
        output: list[str] = []
        result = doctest.DocTestRunner().run(test, out=output.append, clear_globs=True)
        assert result.failed == 0, "".join(output)
