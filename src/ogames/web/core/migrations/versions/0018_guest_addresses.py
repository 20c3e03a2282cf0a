"""The client addresses guests chatted from, so that banning a guest bans its addresses for a
while (web/chat/records.py): a banned guest who clears its cookies is a new guest, at the same
address.

- `guest_addresses`: per guest id and client address, when the guest last chatted from there.
  A row no ban needs any longer (older than the ban period, its guest not banned within it) is
  deleted when a guest chats from a new address and when an operator sanctions or lifts.

The sites stored before this revision know no addresses: guests banned before it are banned by
their guest id alone, as before.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "guest_addresses",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_guest_addresses_address", "guest_addresses", ["address"])
    op.create_index("ix_guest_addresses_seen", "guest_addresses", ["seen_at"])


def downgrade() -> None:
    op.drop_index("ix_guest_addresses_seen", table_name="guest_addresses")
    op.drop_index("ix_guest_addresses_address", table_name="guest_addresses")
    op.drop_table("guest_addresses")
