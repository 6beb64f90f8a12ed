"""Mail: addresses and their settings, the outgoing queue. Schema and blocking queries.

- ``mail_settings``: an account's address (verified or not), the SHA-256 of its
  verification token and when it expires, the SHA-256 of its one-click unsubscribe token,
  and which notification kinds it wants mailed (JSON list).
- ``mail_queue``: one row per mail to send. ``state``: ``queued`` (due at ``next_at``),
  ``sending`` (claimed by a sender until ``lease_until``), ``sent`` or ``failed``. A sender
  claims a row by moving it from queued (or from a sending row whose lease ran out) to
  sending in one UPDATE that names its old state: two senders never claim the same row.
- ``turn_mails``: (account, table) pairs that were mailed "your turn" and have not played
  since: at most one such mail per table until the player plays.
"""

from __future__ import annotations

import sqlalchemy as sa

from coffeetable.store.db import metadata

mail_settings = sa.Table(
    "mail_settings",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("verified", sa.Boolean, nullable=False, default=False),
    sa.Column("verify_hash", sa.String(64), nullable=True),
    sa.Column("verify_expires", sa.Float, nullable=True),
    sa.Column("unsubscribe_hash", sa.String(64), nullable=True),
    sa.Column("notify", sa.Text, nullable=False),  # JSON: the kinds mailed
    sa.Column("updated", sa.Float, nullable=False),
    sa.UniqueConstraint("verify_hash", name="uq_mail_settings_verify_hash"),
    sa.UniqueConstraint("unsubscribe_hash", name="uq_mail_settings_unsubscribe_hash"),
)

mail_queue = sa.Table(
    "mail_queue",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("address", sa.String(254), nullable=False),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("subject", sa.String(200), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("unsubscribe", sa.Text, nullable=True),  # the one-click link (None: none)
    sa.Column("state", sa.String(12), nullable=False, index=True),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    sa.Column("next_at", sa.Float, nullable=False),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("sent_at", sa.Float, nullable=True),
    sa.Column("error", sa.String(200), nullable=True),
)

turn_mails = sa.Table(
    "turn_mails",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
)
