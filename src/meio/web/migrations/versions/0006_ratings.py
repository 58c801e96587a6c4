"""Rated tables and ratings: ``meio_tables.rated``, each player's rating per pool
(``meio_ratings``) and the change each rated match made (``meio_rating_changes``).

Revision ID: 0006_ratings
Revises: 0005_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_ratings"
down_revision = "0005_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a server default: the existing tables are unrated, and no row is rewritten
    op.add_column("meio_tables", sa.Column("rated", sa.Boolean, nullable=False,
                                           server_default=sa.false()))
    op.create_table(
        "meio_ratings",
        sa.Column("pool", sa.String(24), primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_ratings_ordinal", "meio_ratings", ["ordinal"])
    op.create_table(
        "meio_rating_changes",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("meio_matches.id"),
                  primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("pool", sa.String(24), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_meio_rating_changes_player", "meio_rating_changes", ["player"])


def downgrade() -> None:
    op.drop_index("ix_meio_rating_changes_player", "meio_rating_changes")
    op.drop_table("meio_rating_changes")
    op.drop_index("ix_meio_ratings_ordinal", "meio_ratings")
    op.drop_table("meio_ratings")
    with op.batch_alter_table("meio_tables") as batch:
        batch.drop_column("rated")
