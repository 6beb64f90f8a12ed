"""Who chose each action: ``actions.by_stand_in`` (a stand-in, or the bot that took a
leaver's seat, rather than the seat's own player), so that a table restored after a
restart still knows whose moves were whose (a tournament's miss, the league's forfeit);
the programs' league's forfeits (``league_matches.forfeits``, ``store.league``).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Older rows: false (as the tables restored before this revision read them).
    op.add_column(
        "actions",
        sa.Column("by_stand_in", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("league_matches", sa.Column("forfeits", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("league_matches", "forfeits")
    op.drop_column("actions", "by_stand_in")
