"""Tournaments: how many of their matches each entrant missed (``store.tournaments``);
the programs' league: the bot accounts' flag and the league's matches (``store.league``).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tournament_entries",
        sa.Column("missed", sa.Integer, nullable=False, server_default="0"),
    )
    op.add_column(
        "bot_accounts",
        sa.Column("league", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "league_matches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("entrants", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("ranks", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_league_matches_game", "league_matches", ["game"])
    op.create_index("ix_league_matches_table_id", "league_matches", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_league_matches_table_id", "league_matches")
    op.drop_index("ix_league_matches_game", "league_matches")
    op.drop_table("league_matches")
    op.drop_column("bot_accounts", "league")
    op.drop_column("tournament_entries", "missed")
