"""The optional chess clock of turn-based tables (table setting ``clock_minutes``).

Each seat has its thinking time; only the single actor's clock runs (none runs
while several seats or nobody may act). The time left is saved with the table's
settings (``clock_left``) at every accepted action, so a restarted server goes on
from there (the time the server was down is not charged).

When a seat's time is up (event ``{"type": "clock", "seat", "expired": true}``)
the greedy bot stands in for it for the rest of the match (``stand_ins.py``): its
person keeps the seat and may watch it, but its time stays at zero, so the
stand-in does not give the seat back. A bot's clock runs but never runs out.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from coffeetable.server.tables.submission import CLOCK

if TYPE_CHECKING:
    from coffeetable.server.tables.face import ClockFace

#: The bot that takes over a seat whose time ran out.
CLOCK_BOT = "greedy"
#: The settings key that holds the time left, per seat, in seconds.
SAVED = "clock_left"


class ChessClock:
    """Seconds left per seat, and which seat's clock is running since when."""

    def __init__(self, left: list[float]) -> None:
        self.left = left
        self.running: int | None = None
        self.since = time.monotonic()

    @classmethod
    def for_table(cls, settings: dict[str, Any], players: int, realtime: bool) -> ChessClock | None:
        """The clock a table's settings ask for (None: no clock)."""
        minutes = float(settings.get("clock_minutes") or 0)
        if realtime or minutes <= 0:
            return None
        saved = settings.get(SAVED)
        if isinstance(saved, list) and len(saved) == players:
            return cls([max(0.0, float(value)) for value in saved])
        return cls([minutes * 60.0] * players)

    def remaining(self, seat: int) -> float:
        """The seat's time left now (its running clock counted)."""
        left = self.left[seat]
        if seat == self.running:
            left -= time.monotonic() - self.since
        return max(0.0, left)

    def expire(self, seat: int) -> None:
        """The seat's time is up: exactly zero from now on."""
        self.left[seat] = 0.0
        if seat == self.running:
            self.since = time.monotonic()

    def switch(self, actor: int | None) -> None:
        """Charge the running seat for its time, then run ``actor``'s clock (None: stop)."""
        now = time.monotonic()
        if self.running is not None:
            self.left[self.running] = max(0.0, self.left[self.running] - (now - self.since))
        self.running, self.since = actor, now

    def json(self) -> dict[str, Any]:
        """What clients are sent: seconds left per seat (as of now) and the running seat."""
        return {
            "left": [round(self.remaining(seat), 1) for seat in range(len(self.left))],
            "running": self.running,
        }


class TableClock:
    """A table's chess clock (none: ``clock`` is None) and the timer of its running seat.

    It sees the table through ``ClockFace``; when the running seat's time is up it
    queues the CLOCK chore, and the actor asks ``expired()`` which seat ran out.
    """

    def __init__(self, table: ClockFace, clock: ChessClock | None) -> None:
        self.table = table
        self.clock = clock
        self._timer: asyncio.TimerHandle | None = None

    def json(self) -> dict[str, Any] | None:
        """The seats' time left and whose clock runs (None: the table has no clock)."""
        return None if self.clock is None else self.clock.json()

    def out_of_time(self, index: int) -> bool:
        """The seat's clock has run out (its stand-in stays for the rest of the match)."""
        return self.clock is not None and self.clock.remaining(index) <= 0

    def saved(self) -> list[float] | None:
        """The time left per seat, as the settings keep it (None: no clock)."""
        return None if self.clock is None else list(self.clock.left)

    def switch(self, over: bool = False) -> None:
        """Charge the seat that was acting; start the clock of the single actor now."""
        if self.clock is None:
            return
        table = self.table
        actors = [] if over or table.status != "running" else table.state.actors()
        self.clock.switch(actors[0] if len(actors) == 1 else None)
        self.arm()

    def arm(self) -> None:
        self.cancel()
        clock = self.clock
        if clock is None or clock.running is None:
            return
        if self.table.seats[clock.running].bot is not None or clock.left[clock.running] <= 0:
            return  # a bot's clock never runs out; a seat out of time has its stand-in
        loop = asyncio.get_running_loop()
        due = clock.remaining(clock.running)
        self._timer = loop.call_later(due, self.table.chore, CLOCK)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def expired(self) -> int | None:
        """The seat whose time ran out just now (its time is zero from now on), or None."""
        clock = self.clock
        if clock is None or clock.running is None or self.table.status != "running":
            return None
        index = clock.running
        if self.table.seats[index].bot is not None or clock.left[index] <= 0:
            return None
        if clock.remaining(index) > 0.001:
            self.arm()  # the turn changed since the timer was set
            return None
        clock.expire(index)
        return index
