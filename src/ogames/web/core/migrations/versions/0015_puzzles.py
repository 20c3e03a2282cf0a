"""Puzzle ratings: each puzzle's and each player's puzzle rating, and every player's first try
at a puzzle, which alone is rated (ogames/ratings/puzzles.py). New tables only.

Revision ID: 0015
Revises: 0013
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table, key in (("puzzle_ratings", "puzzle_id"), ("puzzle_players", "player_id")):
        op.create_table(
            table,
            sa.Column(key, sa.String(64), primary_key=True),
            sa.Column("rating", sa.Float, nullable=False),
            sa.Column("deviation", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
            sa.Column("updated_at", sa.Float, nullable=False),
        )
    # Keyed by puzzle and player: only a player's first try at a puzzle is rated, once.
    op.create_table(
        "puzzle_attempts",
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_table("puzzle_ratings")
