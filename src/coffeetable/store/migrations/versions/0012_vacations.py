"""Vacations: days off that stop a player's clocks at days-per-move tables.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("ends", sa.Float, nullable=False),
    )
    op.create_index("ix_vacations_player_id_ends", "vacations", ["player_id", "ends"])


def downgrade() -> None:
    op.drop_index("ix_vacations_player_id_ends", table_name="vacations")
    op.drop_table("vacations")
