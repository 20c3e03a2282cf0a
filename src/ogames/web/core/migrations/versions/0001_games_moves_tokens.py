"""Games, their moves and their seat-token digests.

Revision ID: 0001
Revises:
Create Date: 2025-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("seat_kinds", sa.JSON, nullable=False),
        sa.Column("head", sa.JSON, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_games_updated_at", "games", ["updated_at"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("stored_at", sa.Float, nullable=False),
    )
    op.create_table(
        "seat_tokens",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_tokens")
    op.drop_table("moves")
    op.drop_index("ix_games_updated_at", table_name="games")
    op.drop_table("games")
