"""Who may invite a bot account to a seat: its owner only (the default) or anyone.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every bot made before this revision takes the default: only its owner invites it.
    with op.batch_alter_table("bot_accounts") as batch:
        batch.add_column(
            sa.Column("invitable_by", sa.String(8), nullable=False, server_default="owner")
        )


def downgrade() -> None:
    with op.batch_alter_table("bot_accounts") as batch:
        batch.drop_column("invitable_by")
