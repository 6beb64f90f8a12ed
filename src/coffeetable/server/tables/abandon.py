"""Abandoned tables: a live table nobody is connected to is closed after a while.

A live table (open or running) with no client at all (no person and no
spectator) for ``Limits.abandon_after_seconds`` is closed as "abandoned" (not a table
with days per move, ``turn_days.py``: it waits for its players): the
status is saved, its actor, bots and timers stop, the lobby no longer lists it
and the next start does not restore it. A table whose every person left is
abandoned at once (``Lobby.leave``).

One timer per table, not a loop over all tables: armed when the table starts
(so a table restored at server start counts its absence from the start) and
whenever its last client leaves, cancelled when a client arrives. A table of
bots watched by a spectator is not abandoned while watched.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

from coffeetable.server.players.ratings import finish_match
from coffeetable.server.tables import seating
from coffeetable.server.tables.audience import TableClients
from coffeetable.server.tables.submission import ABANDON
from coffeetable.server.tables.turn_days import is_days_table

if TYPE_CHECKING:
    from coffeetable.server.limits import Limits
    from coffeetable.server.tables.face import TableFace
    from coffeetable.server.tables.submission import Submission
    from coffeetable.store import Store


class TableAbandon(TableClients):
    """The abandon timer of a table (a half of ``Table``, which sets the attributes)."""

    _abandon_timer: asyncio.TimerHandle | None = None

    id: str
    settings: dict[str, Any]
    store: Store
    limits: Limits
    left_order: list[int]
    _queue: asyncio.Queue[Submission]

    # Table's (first in its method order: never run).
    @property
    def live(self) -> bool:
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError

    def arm_abandon(self) -> None:
        """Nobody is connected: close the table if it stays that way."""
        if not self.live or self.connections or self._abandon_timer is not None:
            return
        if is_days_table(self.settings):
            return  # a table with days per move waits for its players (``turn_days.py``)
        loop = asyncio.get_running_loop()
        seconds = self.limits.abandon_after_seconds
        self._abandon_timer = loop.call_later(seconds, self._queue.put_nowait, ABANDON)

    def cancel_abandon(self) -> None:
        if self._abandon_timer is not None:
            self._abandon_timer.cancel()
            self._abandon_timer = None

    async def _on_abandon(self) -> None:
        self._abandon_timer = None
        if self.live and not self.connections:
            await self.abandon()

    async def abandon(self) -> None:
        """Close the table as abandoned; whoever still watches gets its last table and state."""
        if not self.live:
            return
        # A match that had begun is recorded (and rated: its leavers lose) as it closes.
        result = None
        if self.status == "running":
            table = cast("TableFace", self)  # the only class this is mixed into: Table
            result = seating.summary_for(table, self.left_order, status="abandoned")
        self.status = "abandoned"
        self.cancel_abandon()

        def write(conn: Any) -> None:
            self.store.db.set_status(conn, self.id, "abandoned")
            if result is not None:
                finish_match(conn, result)

        await self.store.write(write)
        await self.stop()
        self.broadcast_table()
        self.broadcast_state()
