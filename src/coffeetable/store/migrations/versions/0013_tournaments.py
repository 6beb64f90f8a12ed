"""Tournaments: their entries and the tables of their rounds (``store.tournaments``).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("minutes", sa.Float, nullable=True),
        sa.Column("starts_at", sa.Float, nullable=True),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("standings", sa.Text, nullable=False),
    )
    op.create_index("ix_tournaments_owner_id", "tournaments", ["owner_id"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("entrant", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("entered", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Float, nullable=True),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("board", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("entrants", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("ranks", sa.Text, nullable=True),
        sa.Column("dealt", sa.Float, nullable=True),
    )
    op.create_index("ix_tournament_tables_table_id", "tournament_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_table_id", "tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_index("ix_tournaments_owner_id", "tournaments")
    op.drop_table("tournaments")
