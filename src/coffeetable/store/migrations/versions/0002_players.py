"""The players layer: rated identities, accounts, sessions, matches, ratings; seats.user_id.

- ``players``: one row per rated identity, an account (kind "user") or a bot
  level (kind "bot"); ``name_key`` (NFKC + casefold) and ``skeleton`` (the
  look-alike form) are unique across both kinds.
- ``accounts``: a user's argon2 password hash.
- ``sessions``: server-side sessions; only the SHA-256 of the cookie is kept.
- ``matches``: one row per finished table (``table_id`` unique: a match is
  recorded once).
- ``participants``: one row per seat of a match: score, rank, left, rating
  before and after.
- ``ratings``: one per player, game and player-count group (openskill mu/sigma).
- ``seats.user_id``: the account that sat in a seat (no FK constraint, so
  SQLite adds the column in place).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False),
        sa.Column("skeleton", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
        sa.UniqueConstraint("skeleton", name="uq_players_skeleton"),
    )
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("user_agent", sa.String(200), nullable=False),
        sa.UniqueConstraint("token_hash", name="uq_sessions_token_hash"),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("group_name", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", name="uq_matches_table_id"),
    )
    op.create_index("ix_matches_game_id", "matches", ["game", "id"])
    op.create_table(
        "participants",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("solo_rank", sa.String(32), nullable=True),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
    )
    op.create_index("ix_participants_player_id_match_id", "participants", ["player_id", "match_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("group_name", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game_group_name", "ratings", ["game", "group_name"])
    op.add_column("seats", sa.Column("user_id", sa.Integer, nullable=True))
    op.create_index("ix_seats_user_id", "seats", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_user_id", table_name="seats")
    op.drop_column("seats", "user_id")
    op.drop_index("ix_ratings_game_group_name", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_participants_player_id_match_id", table_name="participants")
    op.drop_table("participants")
    op.drop_index("ix_matches_game_id", table_name="matches")
    op.drop_table("matches")
    op.drop_index("ix_sessions_player_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
    op.drop_table("players")
