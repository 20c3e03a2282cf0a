"""`ogames operator grant NAME` / `revoke NAME`: make an account an operator of the web site (it
reads the reports, mutes and bans names, hides a game's chat: docs/deploy.md, "Operators"), or a
player again. It acts on the database `ogames serve` would use (`--database`, else
`$OGAMES_DATABASE_URL`, else the SQLite file); the role holds from the account's next request.
A SQLite file is held by a running server: stop it first. PostgreSQL takes the change at once."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from ogames.web.core.settings import DATABASE_ENV, default_database_url

app = typer.Typer(add_completion=False, help="Give an account of the web site the operator's role, or take it back.")

DatabaseOption = Annotated[
    str | None, typer.Option(help=f"SQLAlchemy URL of the games database (default: ${DATABASE_ENV}, else a SQLite file)")
]


def _set(name: str, database: str | None, role: str) -> None:
    from ogames.web.chat.records import set_role
    from ogames.web.core.store import Store
    from ogames.web.core.store_faults import StorageError

    console = Console(highlight=False, soft_wrap=True)
    try:
        store = Store(database or default_database_url(), shared=True)  # a moment's work beside a server that shares its file
    except StorageError as exc:
        busy = " (a SQLite file is held by its server: stop the server, then run this again)" if exc.kind == "busy" else ""
        console.print(f"[red]error:[/] cannot use the database: {escape(str(exc))}{busy}")
        raise typer.Exit(1) from None
    try:
        named = set_role(store, name, role)
    finally:
        store.close()
    if named is None:
        console.print(f"[red]error:[/] there is no account named {escape(name)}")
        raise typer.Exit(1)
    console.print(f"{escape(named)} is {'an operator' if role == 'operator' else 'a player, no longer an operator'}")


@app.command("grant")
def grant(name: Annotated[str, typer.Argument(help="the account's name (any case)")], database: DatabaseOption = None) -> None:
    """Make an account an operator."""
    _set(name, database, "operator")


@app.command("revoke")
def revoke(name: Annotated[str, typer.Argument(help="the account's name (any case)")], database: DatabaseOption = None) -> None:
    """Take the operator's role back: the account is a player again."""
    _set(name, database, "player")
