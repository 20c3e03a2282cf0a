"""A pending review's progress (`game_reviews.done`, `game_reviews.total`): the positions the
computer has valued so far, of all of the game's, written by the process computing it every few
seconds (web/boards/game_review.py), so that any process can say "12 of 41" to a waiting page.
Rows made before this revision have none (the page then says only that the review is pending).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, as 0002 says why (batch mode on SQLite would cascade to every stored row).


def upgrade() -> None:
    op.add_column("game_reviews", sa.Column("done", sa.Integer, nullable=True))
    op.add_column("game_reviews", sa.Column("total", sa.Integer, nullable=True))


def downgrade() -> None:
    op.drop_column("game_reviews", "total")
    op.drop_column("game_reviews", "done")
