"""Learners' hints and the computer's reviews of finished games.

- `games.hints_used`: the hints a person has taken in a casual game against the computer
  (web/boards/learner_hints.py); the limit is a setting, the count is the game's, so that it
  holds across restarts and server processes. Games stored before this revision took none.
- `game_reviews`: one row per finished board game whose review was asked for
  (web/boards/game_review.py): `pending` while the analysis workers compute it, then `ready` with
  the review (`ogames.teach.review.Review.to_json()`), or `failed` with the reason. The row is the
  guard that a review is computed once: the first server process to insert it computes it.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE, as 0002 says why (batch mode on SQLite would cascade to every stored move).
    op.add_column("games", sa.Column("hints_used", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("review", sa.JSON, nullable=True),
        sa.Column("problem", sa.String(200), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_reviews")
    op.drop_column("games", "hints_used")
