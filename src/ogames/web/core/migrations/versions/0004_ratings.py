"""Ratings: each player's rating per pool, and one history row per rated game and player
(ogames/ratings/store.py, docs/ratings.md). New tables only: every stored game reads as before.

Revision ID: 0004
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_pool_rating", "ratings", ["pool", "rating"])
    # Keyed by game and player: a game is rated once, whoever finishes it.
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player_id", "pool", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_player", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_pool_rating", table_name="ratings")
    op.drop_table("ratings")
