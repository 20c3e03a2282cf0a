"""The lobby's open seeks (web/lobby/): a game someone offers to anyone, until it is accepted,
cancelled, or its poster's lobby pages are all closed.

A seek is a row while it is open; accepting it deletes the row, and only the one deletion that finds
it makes the game, so two people accepting at once on two server processes make one game. The row
keeps the digest of the seat token its poster's page already holds (the token itself is never
stored), the process (`worker`) whose page posted it, which withdraws it when the poster leaves, and
for a challenge to a named player the account it is for (`target_id`; NULL: open to anyone).

A rematch: each seat's offer (`rematch_offers`, with the digest of the token its page holds for its
seat of the next game) and, once both have offered, the one row per finished game (`rematches`)
whose insertion decides who makes the new game.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("poster_id", sa.String(40), nullable=False, index=True),
        sa.Column("poster_name", sa.String(40), nullable=False),
        sa.Column("worker", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("request", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rating_min", sa.Integer, nullable=True),
        sa.Column("rating_max", sa.Integer, nullable=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("target_id", sa.String(40), nullable=True, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


    op.create_table(
        "rematch_offers",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("new_game_id", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_table("rematch_offers")
    op.drop_table("seeks")
