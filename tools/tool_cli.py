"""What the commands in tools/ share: bad input (a missing file, a corrupt record, a bad option) is
answered with one line on stderr and exit status 2, never a traceback, and before anything is
written, so that a refused run changes nothing.

    parser = Parser(description=__doc__)
    parser.add_argument("--games", type=whole(1), default=10)
    args = parser.parse_args(argv)
    with refused(OSError, BadPuzzle):       # one of these becomes the line, not a traceback
        puzzles = list(read(args.file))
    if not puzzles:
        fail("nothing to merge")
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn


def fail(message: str) -> NoReturn:
    """Refuse: `TOOL: message` on stderr, exit status 2."""
    print(f"{Path(sys.argv[0]).name}: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)


class Parser(argparse.ArgumentParser):
    """An argument parser whose refusals are one line (argparse's own print the usage first)."""

    def error(self, message: str) -> NoReturn:
        fail(message)


def describe(exc: BaseException) -> str:
    """An error in words: an OSError names its file and says why without the errno."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename is not None else exc.strerror
    return str(exc)


@contextmanager
def refused(*errors: type[BaseException]) -> Iterator[None]:
    """Turn the expected errors of reading input into the refusal line."""
    try:
        yield
    except errors as exc:
        fail(describe(exc))


def whole(least: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from `least` (to `most`)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least or (most is not None and value > most):
            bound = f"from {least} to {most}" if most is not None else f"of at least {least}"
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {bound}")
        return value

    parse.__name__ = "whole number"
    return parse


def json_object(text: str) -> dict[str, Any]:
    """An argparse type: a JSON object (a game's options)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"{text!r} is not a JSON object")
    return value


def writable_file(path: Path) -> Path:
    """`path` if a file can be written there (its folder exists); refused otherwise, before any work."""
    if path.is_dir():
        fail(f"{path} is a folder, not a file")
    if not path.parent.is_dir():
        fail(f"{path.parent} is not a folder")
    return path
