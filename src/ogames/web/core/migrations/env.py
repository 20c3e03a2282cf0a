"""Alembic environment for the web server's database (run by `ogames.web.core.store.migrate`, or by
`alembic` with `script_location` pointing here and `sqlalchemy.url` set)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ogames.web.core.store import metadata

config = context.config
target_metadata = metadata


def run_offline() -> None:
    """Write the SQL instead of running it (`alembic upgrade --sql`)."""
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Run the migrations on the connection the caller gave, or on one made from the URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    assert url is not None, "the server sets sqlalchemy.url before running migrations"
    engine = create_engine(url)
    with engine.begin() as own:
        context.configure(connection=own, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
