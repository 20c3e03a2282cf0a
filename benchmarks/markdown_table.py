"""The benchmarks' Markdown tables: each row printed as it is measured, the whole written to `--out`."""

from __future__ import annotations

import argparse
from pathlib import Path


def refuse_bad_out(parser: argparse.ArgumentParser, out: Path | None) -> None:
    """Refuse an `--out` that cannot be written now, not after a long run."""
    if out and (out.is_dir() or not out.parent.is_dir()):
        parser.error(f"--out {out}: not a file in an existing folder")


class Table:
    def __init__(self, *head: str):
        self.lines = list(head)

    def add(self, row: str) -> None:
        print(row, flush=True)
        self.lines.append(row)

    def write(self, out: Path | None) -> None:
        if out:
            out.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
            print(f"wrote {out}")
