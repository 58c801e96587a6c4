"""Accounts: players with a username and a password hash, their sessions, and the
account of each taken seat (``meio_seats.account_id``, empty for guests).

Adding a nullable column changes no row, so an existing database upgrades in place
(on SQLite too: no table is copied).

Revision ID: 0005_accounts
Revises: 0004_limits
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_accounts"
down_revision = "0004_limits"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meio_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("username_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "meio_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("meio_accounts.id"),
                  nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_sessions_account_id", "meio_sessions", ["account_id"])
    op.add_column("meio_seats", sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("ix_meio_seats_account_id", "meio_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_meio_seats_account_id", "meio_seats")
    with op.batch_alter_table("meio_seats") as batch:
        batch.drop_column("account_id")
    op.drop_index("ix_meio_sessions_account_id", "meio_sessions")
    op.drop_table("meio_sessions")
    op.drop_table("meio_accounts")
