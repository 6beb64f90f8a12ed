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

``AbandonTimer`` is that timer; it sees the table through ``AbandonFace``, and the
closing itself is the table's (``Table.abandon``: the status, the result, the stop).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from coffeetable.server.tables.submission import ABANDON
from coffeetable.server.tables.turn_days import is_days_table

if TYPE_CHECKING:
    from coffeetable.server.tables.face import AbandonFace


class AbandonTimer:
    """The abandon timer of one table."""

    def __init__(self, table: AbandonFace) -> None:
        self.table = table
        self._timer: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        """Nobody is connected: close the table if it stays that way."""
        table = self.table
        if not table.live or table.connections or self._timer is not None:
            return
        if is_days_table(table.settings):
            return  # a table with days per move waits for its players (``turn_days.py``)
        loop = asyncio.get_running_loop()
        seconds = table.limits.abandon_after_seconds
        self._timer = loop.call_later(seconds, table.chore, ABANDON)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def fire(self) -> None:
        """The ABANDON chore: close the table if still nobody is connected."""
        self._timer = None
        if self.table.live and not self.table.connections:
            await self.table.abandon()
