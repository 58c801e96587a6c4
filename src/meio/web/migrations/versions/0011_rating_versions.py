"""A version number on each rating, so that two matches ending together cannot lose
one's update (issue 44).

Revision ID: 0011_rating_versions
Revises: 0010_reviews
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_rating_versions"
down_revision = "0010_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("meio_ratings") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("meio_ratings") as batch:
        batch.drop_column("version")
