"""The idle rule's timer: a running table with no accepted action for a while acts.

If the game has an ``idle_seconds`` option, a running table with no accepted
action for that long applies ``(None, {"type": "idle"})`` (``Table._on_idle``);
the game decides whether it applies (Espresso: only during play), and it is
logged like any other action. ``IdleTimer`` keeps the time of the last action
and the one timer; it sees the table through ``IdleFace`` (``face.py``).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from coffeetable.server.tables.submission import IDLE

if TYPE_CHECKING:
    from coffeetable.server.tables.face import IdleFace


class IdleTimer:
    """When a table last accepted an action, and the timer of its idle rule."""

    def __init__(self, table: IdleFace) -> None:
        self.table = table
        #: When the last action was accepted (``time.monotonic``).
        self.last_action = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None

    @property
    def seconds(self) -> float | None:
        """The game's ``idle_seconds`` option (None: no idle rule)."""
        value = self.table.options.get("idle_seconds")
        return float(value) if value else None

    def _off(self) -> bool:
        """No idle rule now: none in the game, the match is not on, or play is held."""
        table = self.table
        return self.seconds is None or table.status != "running" or table.holding

    def arm(self) -> None:
        """(Re)start the timer from the last action."""
        self.cancel()
        idle = self.seconds
        if idle is None or self._off():
            return
        due = max(0.0, self.last_action + idle - time.monotonic())
        self._timer = asyncio.get_running_loop().call_later(due, self.table.chore, IDLE)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def due(self) -> bool:
        """The IDLE chore: True if the idle action is due now (else re-armed if an
        action came in since the timer was set)."""
        idle = self.seconds
        if idle is None or self._off():
            return False
        if time.monotonic() - self.last_action < idle - 0.001:
            self.arm()
            return False
        return True
