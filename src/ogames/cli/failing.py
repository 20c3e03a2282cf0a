"""How every `ogames` command refuses what it was given: one line on stderr, `error: …`, and the
exit to raise (2, as for typer's own usage errors, unless a command says otherwise)."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print the error (no traceback) and give the exit to raise: `raise fail(...) from None`."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)
