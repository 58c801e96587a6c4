"""Players finding each other: a signed-in seat's keys for more browsers, who follows
whom, invitations to a table by name, and when each account was last on the site.

Only new tables: an existing database upgrades in place.

Revision ID: 0009_players
Revises: 0008_passkeys
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_players"
down_revision = "0008_passkeys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meio_seat_keys",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("meio_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_seat_keys_table_id", "meio_seat_keys", ["table_id"])
    op.create_index("ix_meio_seat_keys_account_id", "meio_seat_keys", ["account_id"])
    op.create_table(
        "meio_follows",
        sa.Column("follower", sa.String(32), sa.ForeignKey("meio_accounts.id"),
                  primary_key=True),
        sa.Column("followed", sa.String(32), sa.ForeignKey("meio_accounts.id"),
                  primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_follows_followed", "meio_follows", ["followed"])
    op.create_table(
        "meio_invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("to_account", sa.String(32), sa.ForeignKey("meio_accounts.id"),
                  nullable=False),
        sa.Column("from_account", sa.String(32), sa.ForeignKey("meio_accounts.id"),
                  nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("meio_tables.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("to_account", "table_id"),
    )
    op.create_index("ix_meio_invitations_to_account", "meio_invitations", ["to_account"])
    op.create_table(
        "meio_presence",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("meio_accounts.id"),
                  primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("meio_presence")
    op.drop_index("ix_meio_invitations_to_account", "meio_invitations")
    op.drop_table("meio_invitations")
    op.drop_index("ix_meio_follows_followed", "meio_follows")
    op.drop_table("meio_follows")
    op.drop_index("ix_meio_seat_keys_account_id", "meio_seat_keys")
    op.drop_index("ix_meio_seat_keys_table_id", "meio_seat_keys")
    op.drop_table("meio_seat_keys")
