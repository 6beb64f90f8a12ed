"""Notifications, friends, blocks, and mail (addresses, settings, the outgoing queue).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_PLAYER = "players.id"


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("read", sa.Boolean, nullable=False),
    )
    op.create_index("ix_notifications_player_id", "notifications", ["player_id"])
    op.create_table(
        "friend_requests",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER), primary_key=True),
        sa.Column("other_id", sa.Integer, sa.ForeignKey(_PLAYER), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_friend_requests_other_id", "friend_requests", ["other_id"])
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey(_PLAYER), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "mail_settings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("verified", sa.Boolean, nullable=False),
        sa.Column("verify_hash", sa.String(64), nullable=True),
        sa.Column("verify_expires", sa.Float, nullable=True),
        sa.Column("unsubscribe_hash", sa.String(64), nullable=True),
        sa.Column("notify", sa.Text, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.UniqueConstraint("verify_hash", name="uq_mail_settings_verify_hash"),
        sa.UniqueConstraint("unsubscribe_hash", name="uq_mail_settings_unsubscribe_hash"),
    )
    op.create_table(
        "mail_queue",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("unsubscribe", sa.Text, nullable=True),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("sent_at", sa.Float, nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
    )
    op.create_index("ix_mail_queue_player_id", "mail_queue", ["player_id"])
    op.create_index("ix_mail_queue_state", "mail_queue", ["state"])
    op.create_table(
        "turn_mails",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("turn_mails")
    op.drop_index("ix_mail_queue_state", table_name="mail_queue")
    op.drop_index("ix_mail_queue_player_id", table_name="mail_queue")
    op.drop_table("mail_queue")
    op.drop_table("mail_settings")
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_friend_requests_other_id", table_name="friend_requests")
    op.drop_table("friend_requests")
    op.drop_index("ix_notifications_player_id", table_name="notifications")
    op.drop_table("notifications")
