"""Rated games: whether a game was made rated (`games.rated`). A rated game changes its players'
ratings when it ends (web/ratings/); every game stored before this revision is casual.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, as 0002 says why (batch mode on SQLite would cascade to every stored move).


def upgrade() -> None:
    op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("games", "rated")
