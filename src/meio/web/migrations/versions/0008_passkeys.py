"""Passkeys (WebAuthn credentials) of accounts, and the challenges waiting for an
answer.

Revision ID: 0008_passkeys
Revises: 0007_reports
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_passkeys"
down_revision = "0007_reports"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meio_passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("meio_accounts.id"),
                  nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_meio_passkeys_account_id", "meio_passkeys", ["account_id"])
    op.create_table(
        "meio_passkey_challenges",
        sa.Column("attempt", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.LargeBinary, nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_passkey_challenges_created_at", "meio_passkey_challenges",
                    ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_meio_passkey_challenges_created_at", "meio_passkey_challenges")
    op.drop_table("meio_passkey_challenges")
    op.drop_index("ix_meio_passkeys_account_id", "meio_passkeys")
    op.drop_table("meio_passkeys")
