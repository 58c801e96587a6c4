"""Reviews of finished matches, kept so that the second viewer pays nothing; the
ratings of puzzles and of their solvers.

Revision ID: 0009_reviews
Revises: 0008_passkeys
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_reviews"
down_revision = "0009_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meio_reviews",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("meio_matches.id"),
                  primary_key=True),
        sa.Column("depth", sa.String(8), nullable=False),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "meio_puzzle_ratings",
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "meio_puzzle_solvers",
        sa.Column("solver", sa.String(64), primary_key=True),
        sa.Column("progress", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("meio_puzzle_solvers")
    op.drop_table("meio_puzzle_ratings")
    op.drop_table("meio_reviews")
