"""Accounts: people's names and password hashes, who sat in each seat of a game, and the site's
secret that signs the session and CSRF cookies.

- `accounts`: an account's id, its name as written and its case-folded key (unique, so that
  "Ada" and "ada" are one name), the argon2 hash of its password and its role.
- `account_sessions`: each log-in's session id (its cookie holds it, signed): logging out, a
  password change and deleting the account remove them, so that
  a copy of the cookie kept by someone else stops working.
- `seat_players`: a game's seat and the player id who sat there: an account's id, or a guest's
  (a guest who signs up takes these rows over); NULL once an account is deleted (the game stays,
  anonymised). A seat nobody claimed has no row: every game stored before this revision reads as
  before, its seats held by their tokens alone.
- `site_secrets`: named secrets made once by the first server to start, shared by every process
  on the database.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("role", sa.String(16), nullable=False, server_default="player"),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(48), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "seat_players",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(40), nullable=True),
    )
    op.create_index("ix_seat_players_player", "seat_players", ["player_id"])
    op.create_table(
        "site_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("site_secrets")
    op.drop_index("ix_seat_players_player", table_name="seat_players")
    op.drop_table("seat_players")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
