"""Tournaments: how many of their matches each entrant missed (``store.tournaments``).

Revision ID: 0015
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tournament_entries",
        sa.Column("missed", sa.Integer, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_column("tournament_entries", "missed")
