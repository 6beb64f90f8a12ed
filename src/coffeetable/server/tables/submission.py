"""What goes through a table's queue: actions, and the table's own wake-ups.

``Submission`` is one action (a person's, a bot's, or the table's as seat None).
The markers below are the table's timers and chores, handled by its actor in
the same order as the actions around them, so nothing else ever changes a
table while an action is being applied and saved.

``reject``, ``not_running``, ``refusal`` and ``illegal`` say why the actor refuses one
(``wire.py``'s codes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from coffeetable.server.tables import wire
from coffeetable.server.tables.connections import Connection
from coffeetable.server.tables.seats import Seat


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


def reject(sub: Submission, reason: str, code: str, retry_after: float | None = None) -> None:
    """Refuse ``sub``: settle it, and tell its sender why (``rejected``)."""
    sub.settle(False)
    if sub.sender is not None:
        sub.sender.send_json(wire.rejected(reason, code, sub.action, retry_after))


def not_running(status: str) -> tuple[str, str]:
    """Why a table of ``status`` takes no action now, and the code that says so."""
    reason = {
        "open": "the match has not started: waiting for players",
        "over": "the match is over",
    }.get(status, "the table is closed")
    return reason, wire.NOT_RUNNING


def refusal(
    sub: Submission, seats: list[Seat], out_of_time: Callable[[int], bool]
) -> tuple[str, str] | None:
    """Why ``sub`` no longer speaks for its seat, and its code; or None.
    ``out_of_time``: whether a seat's clock has run out."""
    sender, seat = sub.sender, sub.seat
    if sender is not None and sender.seat != seat:
        return "this seat is no longer yours", wire.NOT_YOURS
    if seat is None:
        return None
    playing = seats[seat].bot_level
    if sender is not None and playing is not None:
        if out_of_time(seat):
            reason = f"your time ran out: the {playing} stand-in plays your seat"
            return reason, wire.STAND_IN
        return f"the {playing} stand-in plays this seat", wire.STAND_IN
    if sender is None and playing is None:
        return "this seat is no longer a bot's", wire.NOT_YOURS  # its person came back
    return None


def illegal(sub: Submission, reason: str, actors: list[int]) -> tuple[str, str]:
    """Why an action the game refused (``IllegalAction``'s ``reason``) is refused, and
    its code: "too slow" if the state it was decided on offered it (``sub.basis``)."""
    if sub.basis is not None and sub.action in sub.basis:
        return "too slow", wire.TOO_SLOW
    if sub.seat is not None and sub.seat not in actors:
        return reason, wire.NOT_YOUR_TURN
    return reason, wire.ILLEGAL
