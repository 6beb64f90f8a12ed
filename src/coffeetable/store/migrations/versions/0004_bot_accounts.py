"""Bot accounts (a bot player owned by a person) and their API keys (hashed).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_accounts",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("short_name", sa.String(20), nullable=False),
        sa.Column("description", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_bot_accounts_owner_id", "bot_accounts", ["owner_id"])
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
        sa.Column("revoked", sa.Float, nullable=True),
        sa.UniqueConstraint("key_hash", name="uq_api_keys_key_hash"),
    )
    op.create_index("ix_api_keys_player_id", "api_keys", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_keys_player_id", table_name="api_keys")
    op.drop_table("api_keys")
    op.drop_index("ix_bot_accounts_owner_id", table_name="bot_accounts")
    op.drop_table("bot_accounts")
