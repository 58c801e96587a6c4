"""Reported chat messages, kept for the operator (``meio admin``).

Revision ID: 0007_reports
Revises: 0006_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_reports"
down_revision = "0006_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meio_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.Integer, sa.ForeignKey("meio_chat.id"), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("author", sa.String(40), nullable=True),
        sa.Column("text", sa.String(800), nullable=False),
        sa.Column("reporter_seat", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_reports_chat_id", "meio_reports", ["chat_id"])


def downgrade() -> None:
    op.drop_index("ix_meio_reports_chat_id", "meio_reports")
    op.drop_table("meio_reports")
