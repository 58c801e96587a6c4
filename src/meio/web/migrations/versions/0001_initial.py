"""Tables, seats, matches and the event log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meio_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("invite_code", sa.String(64), nullable=False),
        sa.Column("spectate_code", sa.String(64), nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("current_match", sa.String(32), nullable=True),
    )
    op.create_table(
        "meio_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("meio_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("joined_at", sa.Float, nullable=True),
    )
    op.create_table(
        "meio_matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("meio_tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.UniqueConstraint("table_id", "number"),
    )
    op.create_index("ix_meio_matches_table_id", "meio_matches", ["table_id"])
    op.create_table(
        "meio_events",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("meio_matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(80), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("meio_events")
    op.drop_index("ix_meio_matches_table_id", "meio_matches")
    op.drop_table("meio_matches")
    op.drop_table("meio_seats")
    op.drop_table("meio_tables")
