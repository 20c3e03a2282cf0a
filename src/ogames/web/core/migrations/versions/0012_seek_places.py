"""Each open seek holds one of its poster's few numbered places (`seeks.slot`, unique per poster),
so that the cap on a visitor's open seeks holds in the database itself: posts arriving at once
through several server processes cannot together pass it, as a count read before inserting could
(web/lobby/records.py).

Open seeks live only while their posters' lobby pages are open, and a server stopping withdraws
its own: the few left when this revision runs are withdrawn, rather than given places.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(sa.text("delete from seeks"))
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("slot", sa.Integer, nullable=False, server_default="0"))
        batch.create_index("seeks_poster_slot", ["poster_id", "slot"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_index("seeks_poster_slot")
        batch.drop_column("slot")
