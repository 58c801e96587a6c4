"""Usernames compared for look-alikes: each account's Unicode confusable skeleton, in
a column with a unique index, so that ``ana``, Cyrillic ``аna`` and Greek ``ΑNA``
cannot be three accounts (issue 44).

Existing accounts are filled in oldest first. Where two already look alike, the older
keeps the skeleton; the later one keeps its name, its password, its sessions and its
seats, with no skeleton (NULL: a unique index allows many), and is named in a warning
of the migration's log. No new account can take a third look-alike of them, as the
older one's skeleton refuses it.

Revision ID: 0012_username_skeletons
Revises: 0011_rating_versions
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from meio.web.accounts import username_skeleton

revision = "0012_username_skeletons"
down_revision = "0011_rating_versions"
branch_labels = None
depends_on = None

log = logging.getLogger("meio.web.migrations")


def upgrade() -> None:
    with op.batch_alter_table("meio_accounts") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(192), nullable=True))
    accounts = sa.table("meio_accounts", sa.column("id", sa.String),
                        sa.column("username", sa.String), sa.column("created_at", sa.Float),
                        sa.column("username_skeleton", sa.String))
    conn = op.get_bind()
    held: dict[str, str] = {}
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.username)
                        .order_by(accounts.c.created_at, accounts.c.id)).all()
    for account_id, username in rows:
        skeleton = username_skeleton(username)
        if skeleton in held:
            log.warning("account %r (%s) looks like the older %r: it keeps its name, "
                        "with no skeleton", username, account_id, held[skeleton])
            continue
        held[skeleton] = username
        conn.execute(sa.update(accounts).where(accounts.c.id == account_id)
                     .values(username_skeleton=skeleton))
    op.create_index("ix_meio_accounts_username_skeleton", "meio_accounts",
                    ["username_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_meio_accounts_username_skeleton", table_name="meio_accounts")
    with op.batch_alter_table("meio_accounts") as batch:
        batch.drop_column("username_skeleton")
