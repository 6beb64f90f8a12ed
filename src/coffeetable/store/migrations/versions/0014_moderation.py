"""Moderation: reports, the moderators' log, and an account's standing (a moderator flag,
chat muted until, suspended since) on ``accounts`` (``store.moderation``).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(
            sa.Column("moderator", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("muted_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("suspended", sa.Float, nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reported_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("chat_id", sa.Integer, nullable=True),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("closed", sa.Float, nullable=True),
    )
    op.create_index("ix_reports_reporter_id_created", "reports", ["reporter_id", "created"])
    op.create_index("ix_reports_status", "reports", ["status"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("moderator_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("report_id", sa.Integer, sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("hours", sa.Float, nullable=True),
        sa.Column("why", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moderation_log")
    op.drop_index("ix_reports_status", "reports")
    op.drop_index("ix_reports_reporter_id_created", "reports")
    op.drop_table("reports")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("suspended")
        batch.drop_column("muted_until")
        batch.drop_column("moderator")
