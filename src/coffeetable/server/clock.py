"""The optional chess clock of turn-based tables (table setting ``clock_minutes``).

Each seat has its thinking time; only the single actor's clock runs (none runs
while several seats or nobody may act). The time left is saved with the table's
settings (``clock_left``) at every accepted action, so a restarted server goes on
from there (the time the server was down is not charged). When a seat's time is
up, the table hands that seat to the greedy bot so that the others can finish.
"""

from __future__ import annotations

import time
from typing import Any

#: The bot that takes over a seat whose time ran out.
CLOCK_BOT = "greedy"
#: The settings key that holds the time left, per seat, in seconds.
SAVED = "clock_left"


class Clock:
    """Seconds left per seat, and which seat's clock is running since when."""

    def __init__(self, left: list[float]) -> None:
        self.left = left
        self.running: int | None = None
        self.since = time.monotonic()

    @classmethod
    def for_table(cls, settings: dict[str, Any], players: int, realtime: bool) -> Clock | None:
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
