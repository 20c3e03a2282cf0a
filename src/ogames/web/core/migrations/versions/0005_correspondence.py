"""Correspondence games: the deadline of the turn a game waits for, so that the server finds the
games whose player ran out of days without reading every game (web/boards/sweeper.py), and the
`aborted` status of a game ended before every person had moved (no result: ratings skip it).

Old games get no deadline (untimed, or a live clock that is checked when the game is opened), so
they read exactly as before; `status` is a string column already, so `aborted` needs no change.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, as 0002 says why (batch mode on SQLite would cascade to every stored move).


def upgrade() -> None:
    op.add_column("games", sa.Column("deadline", sa.Float, nullable=True))
    op.create_index("ix_games_deadline", "games", ["status", "deadline"])


def downgrade() -> None:
    op.drop_index("ix_games_deadline", table_name="games")
    op.drop_column("games", "deadline")
