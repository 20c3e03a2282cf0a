"""Clocks and open games: a game's Fischer clock (each seat's time left and when the running one
started) and whether it is listed as an open game whose empty seat anyone may take.

Old games get no clock (untimed) and are not listed, so they read exactly as before.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, not alembic's batch mode: on SQLite batch mode copies `games` and drops the
# old table, and with foreign keys on that drop cascades to every stored move.


def upgrade() -> None:
    op.add_column("games", sa.Column("clock", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_games_listed", "games", ["listed", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_listed", table_name="games")
    op.drop_column("games", "listed")  # SQLite 3.35 and later drop columns in place
    op.drop_column("games", "clock")
