"""Persistence: a table is its log, committed action by action.

``Store`` is what the server uses (asynchronous, group commit);
``Database`` is the blocking layer under it.
"""

from coffeetable.store.db import (
    DATABASE_ENV,
    Database,
    SeatRecord,
    TableRecord,
    default_database_url,
)
from coffeetable.store.writer import Store

__all__ = [
    "DATABASE_ENV",
    "Database",
    "SeatRecord",
    "Store",
    "TableRecord",
    "default_database_url",
]
