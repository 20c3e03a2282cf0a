"""The archive of finished games: what a search asks for, in columns of their own, indexed; and
the notifications by e-mail: accounts' addresses and which notices were sent.

A game's variant and how it ended live in its JSON head; searching hundreds of thousands of heads
for them would read every one. So each game keeps them beside the head, written with it
(web/core/store.py):

- `variant`: the variant of the game's options, if it has variants (Omny's `y`, Omiga's `2v2`…);
- `outcome`: how a finished game ended — `win`, `draw`, `resign` (someone resigned) or `time`
  (someone ran out of time); NULL while it is played, and for an aborted game.

The indexes serve the archive's queries (web/archive/search.py): finished games newest first,
narrowed by game and variant or by outcome. Games stored before this revision are filled in from
their heads here, once.

- `email_addresses`: an account's address (one per account), whether it was verified (by the
  link sent to it: `verify_nonce` is that link's one-time part, cleared when it is used), and
  which mails it asked for: "your move" and "game over" (web/notify/).
- `push_subscriptions`: a browser's Web Push subscription (its push service's endpoint and keys)
  for a player id (an account's or a guest's): "your move" is pushed to it.
- `notices_sent`: one row per notice sent (a game, its version, what happened, to whom): the
  first server process to insert it sends the mail, any other finds it there and sends nothing.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE, as 0002 says why (batch mode on SQLite would cascade to every stored move).
    op.add_column("games", sa.Column("variant", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("outcome", sa.String(16), nullable=True))
    from ogames.web.core.store import outcome_of, variant_of

    games = sa.table("games", sa.column("id", sa.String), sa.column("head", sa.JSON), sa.column("clock", sa.JSON),
                     sa.column("ply", sa.Integer), sa.column("variant", sa.String), sa.column("outcome", sa.String))
    moves = sa.table("moves", sa.column("game_id", sa.String), sa.column("ply", sa.Integer), sa.column("entry", sa.JSON))
    conn = op.get_bind()
    for row in conn.execute(sa.select(games.c.id, games.c.head, games.c.clock, games.c.ply)).all():
        head = row.head or {}
        last = None
        if head.get("result"):
            last = conn.execute(sa.select(moves.c.entry).where(moves.c.game_id == row.id, moves.c.ply == row.ply - 1)).scalar()
        conn.execute(sa.update(games).where(games.c.id == row.id)
                     .values(variant=variant_of(head), outcome=outcome_of(head, last, row.clock)))
    op.create_index("ix_games_finished", "games", ["status", "updated_at"])
    op.create_index("ix_games_kind", "games", ["game", "variant", "status", "updated_at"])
    op.create_table(
        "email_addresses",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("verified", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("verify_nonce", sa.String(48), nullable=True),
        sa.Column("your_move", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("game_over", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(512), primary_key=True),
        sa.Column("player_id", sa.String(40), nullable=False, index=True),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "notices_sent",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("sent_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notices_sent")
    op.drop_table("push_subscriptions")
    op.drop_table("email_addresses")
    op.drop_index("ix_games_kind", table_name="games")
    op.drop_index("ix_games_finished", table_name="games")
    op.drop_column("games", "outcome")
    op.drop_column("games", "variant")
