"""The opening explorer's index of the site's finished games (web/explore/site.py), filled here
from the games already stored.

- `explorer_games`: one row per finished game counted, the guard that it is counted once.
- `explorer_moves`: per board and position (digests of the explorer's keys, transpositions
  sharing a row), per move and winner, the number of games.

The upgrade counts every stored finished game the explorer accepts (replaying each record once:
a few milliseconds a game, so minutes for a site with 100,000), with the code of this release;
from then on a game is counted in the transaction that ends it. The downgrade drops the index.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "explorer_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("board", sa.String(32), nullable=False),
    )
    op.create_table(
        "explorer_moves",
        sa.Column("board", sa.String(32), primary_key=True),
        sa.Column("position", sa.String(32), primary_key=True),
        sa.Column("move", sa.String(32), primary_key=True),
        sa.Column("winner", sa.String(16), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
    )
    if not context.is_offline_mode():  # (`alembic upgrade --sql` writes the tables only)
        from ogames.web.explore.site import count_all

        count_all(op.get_bind())


def downgrade() -> None:
    op.drop_table("explorer_moves")
    op.drop_table("explorer_games")
