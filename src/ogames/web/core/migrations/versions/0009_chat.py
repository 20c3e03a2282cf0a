"""Talking: each game's chats, the reports people make about games, and the operators' sanctions.

- `chat_messages`: one row per message said in a game's chat — its room (`players`, read and
  written by the people holding a seat; `spectators`, read and written by anyone), who said it
  (player id and the name shown then) and the cleaned text.
- `chat_reports`: a game reported by a visitor, with the reason; an operator closes it.
- `sanctions`: a player id muted (their messages hidden from everyone, they cannot chat) or banned
  (besides, they cannot create games or seeks) by an operator, with the name it was given under.
- `hidden_chats`: the games whose chats an operator hid.

Games stored before this revision have no messages and read as before.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("author_id", sa.String(40), nullable=False),
        sa.Column("author_name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("said_at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_messages_game", "chat_messages", ["game_id", "room", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("reporter_id", sa.String(40), nullable=False),
        sa.Column("reporter_name", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(2000), nullable=False),
        sa.Column("made_at", sa.Float, nullable=False),
        sa.Column("closed", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_chat_reports_open", "chat_reports", ["closed", "id"])
    op.create_table(
        "sanctions",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("given_by", sa.String(64), nullable=False),
        sa.Column("given_at", sa.Float, nullable=False),
    )
    op.create_table(
        "hidden_chats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("hidden_by", sa.String(64), nullable=False),
        sa.Column("hidden_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hidden_chats")
    op.drop_table("sanctions")
    op.drop_index("ix_chat_reports_open", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_game", table_name="chat_messages")
    op.drop_table("chat_messages")
