"""Bounded growth: tables close (``closed_at``), who created them (``creator``, a
hash of the address), and the indexes of the paged lobby, start-up and expiry.

Revision ID: 0004_limits
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_limits"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("meio_tables") as batch:
        batch.add_column(sa.Column("closed_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("creator", sa.String(16), nullable=True))
    op.create_index("ix_meio_tables_open", "meio_tables", ["closed_at", "created_at"])
    op.create_index("ix_meio_tables_creator", "meio_tables", ["creator", "closed_at"])
    op.create_index("ix_meio_matches_finished_at", "meio_matches", ["finished_at"])


def downgrade() -> None:
    op.drop_index("ix_meio_matches_finished_at", "meio_matches")
    op.drop_index("ix_meio_tables_creator", "meio_tables")
    op.drop_index("ix_meio_tables_open", "meio_tables")
    with op.batch_alter_table("meio_tables") as batch:
        batch.drop_column("creator")
        batch.drop_column("closed_at")
