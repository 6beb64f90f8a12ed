"""What goes through a table's queue: actions, and the table's own wake-ups.

``Submission`` is one action (a person's, a bot's, or the table's as seat None).
The markers below are the table's timers and chores, handled by its actor in
the same order as the actions around them, so nothing else ever changes a
table while an action is being applied and saved.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from coffeetable.server.tables.connections import Connection


@dataclass(eq=False)
class Submission:
    """An action waiting in a table's queue."""

    seat: int | None
    action: Any
    #: The legal actions the sender was last offered (None: the table itself).
    basis: list[dict[str, Any]] | None = None
    #: Where to send a refusal (None for bots and timers).
    sender: Connection | None = None
    #: What the action meant when it was sent (``Table.action_key``); None: unchecked.
    key: Any = None
    #: Set to True (applied and saved) or False (refused) once processed.
    done: asyncio.Future[bool] | None = None

    def settle(self, applied: bool) -> None:
        if self.sender is not None:
            self.sender.pending -= 1
        if self.done is not None and not self.done.done():
            self.done.set_result(applied)


IDLE_ACTION: dict[str, Any] = {"type": "idle"}

TICK = Submission(None, None)  # the countdown is over
IDLE = Submission(None, IDLE_ACTION)  # the idle timer fired
CLOCK = Submission(None, None)  # a seat's clock may have run out
GRACE = Submission(None, None)  # an absent person's seat may need a stand-in
SAVE = Submission(None, None)  # save the settings (a stand-in stopped)
ABANDON = Submission(None, None)  # nobody has been connected for a long while
DAYS = Submission(None, None)  # a days-per-move clock may have run out (``turn_days.py``)
