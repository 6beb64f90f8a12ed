"""Persistence: a table is its log, committed action by action.

``Store`` is what the server uses (asynchronous, group commit);
``Database`` is the blocking layer under it. The players layer has one
module per aggregate: ``players`` (accounts, sessions), ``matches`` (finished
matches, ratings), ``profiles`` (reads for profiles and leaderboards), ``learn``
(the tutorials an account finished), ``tournaments``, ``league`` (the programs' league),
``reliability``, ``moderation`` (reports, the moderators' log) and ``vacations`` (days
off at days-per-move tables).
``schema`` runs the Alembic migrations (``migrations/``).
"""

from coffeetable.store import (
    chat,
    devices,
    league,
    learn,
    mail,
    matches,
    moderation,
    players,
    profiles,
    reliability,
    social,
    tournaments,
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
    "league",
    "learn",
    "mail",
    "matches",
    "moderation",
    "metadata",
    "players",
    "profiles",
    "tournaments",
    "social",
    "reliability",
    "vacations",
]
