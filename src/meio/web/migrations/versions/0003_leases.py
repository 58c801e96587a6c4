"""Table leases: which server process runs a table's bots and turn timer.

Revision ID: 0003
Revises: 0002_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meio_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("holder", sa.String(96), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_leases_expires_at", "meio_leases", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_meio_leases_expires_at", "meio_leases")
    op.drop_table("meio_leases")
