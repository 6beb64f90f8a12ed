"""Persistence: a table is its log, committed action by action.

``Store`` is what the server uses (asynchronous, group commit);
``Database`` is the blocking layer under it. The players layer has one
module per aggregate: ``players`` (accounts, sessions), ``matches`` (finished
matches, ratings) and ``profiles`` (reads for profiles and leaderboards) and ``vacations``
(days off at days-per-move tables).
``schema`` runs the Alembic migrations (``migrations/``).
"""

from coffeetable.store import (
    chat,
    devices,
    matches,
    players,
    profiles,
    reliability,
    vacations,
)
from coffeetable.store.db import (
    DATABASE_ENV,
    Database,
    SeatRecord,
    TableRecord,
    default_database_url,
    metadata,
)
from coffeetable.store.writer import Store

__all__ = [
    "DATABASE_ENV",
    "Database",
    "SeatRecord",
    "Store",
    "TableRecord",
    "default_database_url",
    "chat",
    "devices",
    "matches",
    "metadata",
    "players",
    "profiles",
    "reliability",
    "vacations",
]
