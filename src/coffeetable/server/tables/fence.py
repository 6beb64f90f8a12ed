"""The log's fence, seen from the table that hits it.

A table's log refuses a seq it already has (``actions``' primary key). A process that
adopted a table (``cluster/node.py``) while the process that ran it before was still
writing to it, having lost its lease without knowing yet, holds a log that ends too
early: every action it saves then hits the fence. Rebuilding its state from its own log
would make the same choice and hit it again, for ever (seen when the programs' league
loaded two processes: thousands of refused saves, the match never ending). So the table
takes the log as stored and goes on from there.
"""

from __future__ import annotations

from typing import Any, Protocol

from coffeetable.server.tables import seating
from coffeetable.store import Store


class Behind(Protocol):
    """What the fence changes of a table (``table.Table``)."""

    id: str
    store: Store
    log: list[tuple[int | None, dict[str, Any]]]
    acted: set[int]
    stood_in: set[int]


def is_fence(error: BaseException) -> bool:
    """The driver refused a row the database has already (an integrity error of any
    driver: SQLite's, psycopg's, or SQLAlchemy's around them)."""
    return any(kind.__name__ == "IntegrityError" for kind in type(error).__mro__)


async def reload_log(table: Behind) -> None:
    """Take the table's log (and who chose each action) as the database has it."""
    record = await table.store.read(lambda conn: table.store.db.load(conn, table.id))
    if record is not None and len(record.actions) > len(table.log):
        table.log = list(record.actions)
        table.acted, table.stood_in = seating.choosers(table.log, record.by_stand_in)
