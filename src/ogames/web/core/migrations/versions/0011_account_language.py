"""An account's language (`accounts.language`): the site's language the account last chose (or
signed up in), in which its notification mails are written (web/notify/). Accounts made before
this revision have none, and are written to in English until they choose one.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, as 0002 says why (batch mode on SQLite would cascade to every stored row).


def upgrade() -> None:
    op.add_column("accounts", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("accounts", "language")
