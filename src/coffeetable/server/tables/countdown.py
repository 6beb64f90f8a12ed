"""The countdown that holds play when a round starts ("3, 2, 1, ESPRESSO!").

When a round starts (event ``round_started``) the table holds play for
``COUNTDOWN / bot_speed`` seconds: the state's events end with
``{"type": "countdown", "seconds"}``, every seat's ``legal`` is empty and actions
are refused with "wait for ESPRESSO!" (no false starts). When it ends (the TICK
chore) a fresh state goes out and the bots start. ``Countdown`` sees the table
through ``CountdownFace`` (``face.py``).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from coffeetable.server.tables import wire
from coffeetable.server.tables.submission import TICK

if TYPE_CHECKING:
    from coffeetable.server.tables.face import CountdownFace

#: Seconds of "3, 2, 1, ESPRESSO!" at bot_speed 1.
COUNTDOWN = 3.0


class Countdown:
    """Whether a table holds play, and until when."""

    def __init__(self, table: CountdownFace) -> None:
        self.table = table
        #: Play is held: nobody is offered a move, every action waits.
        self.holding = False
        #: When the hold ends (``time.monotonic``; while ``holding``).
        self.until = 0.0

    def left(self) -> float:
        """Seconds until the hold ends (what a refused action's ``retry_after`` says)."""
        return max(0.0, self.until - time.monotonic())

    def start(self) -> dict[str, Any]:
        """The hold begins now (``holding`` was set when the round started): end it with
        the TICK chore. Its event, for the state that carries the round's start."""
        hold = COUNTDOWN / self.table.bot_speed
        self.until = time.monotonic() + hold
        asyncio.get_running_loop().call_later(hold, self.table.chore, TICK)
        return wire.countdown(hold)

    def end(self) -> bool:
        """The TICK chore: True if it ended a hold."""
        if not self.holding:
            return False
        self.holding = False
        return True
