"""Known devices: the SHA-256 of a browser's device cookie and an account it signed in to.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "known_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=False),
    )
    op.create_index("ix_known_devices_last_used", "known_devices", ["last_used"])


def downgrade() -> None:
    op.drop_index("ix_known_devices_last_used", table_name="known_devices")
    op.drop_table("known_devices")
