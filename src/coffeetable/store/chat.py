"""Table chat: schema and blocking queries. Writes run in the caller's transaction.

- ``chat``: one row per message said at a table: its channel (``players``, or
  ``spectators``), who said it (the seat, None for a spectator, and the name
  shown), and either free text or a quick phrase's key (``phrase``, which each
  reader's page words in their own language).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("channel", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("text", sa.Text, nullable=True),
    sa.Column("phrase", sa.String(32), nullable=True),
)


@dataclass
class ChatMessage:
    """One message as it is stored and sent."""

    table_id: str
    channel: str
    seat: int | None
    name: str
    text: str | None = None
    phrase: str | None = None
    at: float = 0.0
    id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at,
            "channel": self.channel,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "phrase": self.phrase,
        }


def insert(conn: Connection, message: ChatMessage) -> int:
    """Store ``message`` (its ``at`` stamped now if unset); return its id."""
    message.at = message.at or time.time()
    result = conn.execute(
        chat.insert().values(
            table_id=message.table_id,
            at=message.at,
            channel=message.channel,
            seat=message.seat,
            name=message.name,
            text=message.text,
            phrase=message.phrase,
        )
    )
    (message.id,) = result.inserted_primary_key or (None,)
    return int(message.id or 0)


def recent(conn: Connection, table_id: str, limit: int) -> list[ChatMessage]:
    """The table's last ``limit`` messages, oldest first."""
    rows = conn.execute(
        chat.select().where(chat.c.table_id == table_id).order_by(chat.c.id.desc()).limit(limit)
    ).all()
    return [
        ChatMessage(
            row.table_id, row.channel, row.seat, row.name, row.text, row.phrase, row.at, row.id
        )
        for row in reversed(rows)
    ]
