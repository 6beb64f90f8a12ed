"""The faces of a live table: what its parts and its neighbours may see of it.

``Table`` (``table.py``) is built from parts, each a plain object that holds one
concern: its audience (``audience.py``: clients and broadcasts), its chess clock
(``clock.py``), the countdown at a round's start (``countdown.py``), its stand-ins
(``stand_ins.py``), its idle rule's timer (``idle.py``), its abandon timer
(``abandon.py``) and, at a table with days per move, its days clocks
(``turn_days.py``). A part never imports the actor; it is handed the table as one of
the Protocols below, which say exactly what it reads and calls:

- ``TableFacts``: the facts every part reads (id, game, seats, state, status);
- ``AudienceFace``: what the clients are sent (summary, recent events, chat,
  clock, whether play is held);
- ``Chores``: how a timer wakes the actor (``chore``: a chore through its queue);
- ``Broadcasts``: the audience as the other parts see it;
- ``ClockFace``, ``CountdownFace``, ``IdleFace``, ``AbandonFace``,
  ``StandInsFace``, ``DaysFace``: the faces of the clock, the countdown, the idle
  rule's timer, the abandon timer, the stand-ins and the days clocks;
- ``TableFace``: the table as its neighbours see it: the bots' tasks
  (``bot_tasks.py``), the chat (``chat.py``), the inbox (``inbox.py``), the
  programs' pace (``reaction.py``), seating (``seating.py``) and the cluster's
  relay (``cluster/relay.py``).

``Table`` has every face; mypy checks it wherever a ``Table`` is passed as one.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from coffeetable.engine import Event, Game, State
    from coffeetable.server.limits import Limits
    from coffeetable.server.tables.connections import Connection
    from coffeetable.server.tables.seats import Seat
    from coffeetable.server.tables.submission import Submission
    from coffeetable.store import Store


class TableFacts(Protocol):
    """The facts of one live table that every part reads."""

    @property
    def id(self) -> str: ...
    @property
    def game(self) -> Game: ...
    @property
    def players(self) -> int: ...
    @property
    def seq(self) -> int:
        """How many actions the log holds."""

    @property
    def settings(self) -> dict[str, Any]: ...
    @property
    def status(self) -> str:
        """open | running | over | abandoned"""

    @property
    def live(self) -> bool:
        """Open or running."""

    @property
    def seats(self) -> list[Seat]: ...
    @property
    def state(self) -> State: ...


class Chores(Protocol):
    """How a part's timer wakes the table's actor."""

    def chore(self, submission: Submission) -> None:
        """Queue one of ``submission.py``'s chores (CLOCK, GRACE, ...) for the actor."""


class AudienceFace(TableFacts, Protocol):
    """What the audience (``audience.py``) sends the table's clients from."""

    #: The chat's last messages (None until ``chat.load`` read them).
    chat: deque[dict[str, Any]] | None

    @property
    def holding(self) -> bool:
        """The countdown of a round holds play: nobody is offered a move."""

    @property
    def committing(self) -> bool:
        """An action is being saved (its broadcast will reach a client arriving now)."""

    @property
    def recent(self) -> deque[Event]:
        """The match's last public events, for clients that arrive mid-match."""

    def summary(self) -> dict[str, Any]:
        """The table's public description (the ``table`` message)."""

    def action_key(self, seat: int, action: Any, state: State | None = None) -> Any:
        """What ``action`` means as ``seat`` sees it (None: the game cannot tell)."""

    def clock_json(self) -> dict[str, Any] | None:
        """The seats' time left (None: the table has no clock)."""

    def days_json(self) -> dict[str, Any] | None:
        """The days clocks (None: not a table with days per move)."""


class ClockFace(TableFacts, Chores, Protocol):
    """What the chess clock (``clock.py``) reads: whose turn it is, and a bot's seat."""


class CountdownFace(Chores, Protocol):
    """What the countdown (``countdown.py``) reads."""

    @property
    def bot_speed(self) -> float: ...


class IdleFace(Chores, Protocol):
    """What the idle rule's timer (``idle.py``) reads."""

    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def status(self) -> str: ...
    @property
    def holding(self) -> bool: ...


class Broadcasts(Protocol):
    """What the audience (``audience.py``) sends everyone, as the other parts see it."""

    def broadcast_table(self) -> None:
        """Every client's ``table`` message."""

    def broadcast_state(self, events: list[Event] | None = None) -> None:
        """Every client's new state, carrying ``events``."""

    def send_seat_state(self, index: int) -> None:
        """The new state to the clients of seat ``index`` only."""


class AbandonFace(Chores, Protocol):
    """What the abandon timer (``abandon.py``) reads, and what it closes."""

    @property
    def live(self) -> bool: ...
    @property
    def settings(self) -> dict[str, Any]:
        """A table with days per move is never abandoned (``turn_days.py``)."""

    @property
    def limits(self) -> Limits: ...
    @property
    def connections(self) -> set[Connection]: ...

    async def abandon(self) -> None:
        """Close the table as abandoned."""


class TableFace(TableFacts, Protocol):
    """One live table as its neighbours see it: its seats and clients, how to act at it."""

    #: The chat's last messages (None until ``chat.load`` read them).
    chat: deque[dict[str, Any]] | None

    @property
    def seed(self) -> int: ...
    @property
    def acted(self) -> set[int]:
        """Seats that acted by their own player (``seating``: an abandoned match's rating)."""

    @property
    def stood_in(self) -> set[int]:
        """Seats for which a stand-in chose at least once (a tournament's miss, the
        league's forfeit: ``seating.summary_for``)."""

    @property
    def limits(self) -> Limits: ...
    @property
    def store(self) -> Store: ...
    @property
    def connections(self) -> set[Connection]: ...
    @property
    def bots(self) -> dict[int, asyncio.Task[None]]:
        """The bots' tasks by seat (``bot_tasks.py`` starts and stops them)."""

    @property
    def version(self) -> int:
        """Bumped whenever what a seat may do changes (``wait_change``)."""

    @property
    def bot_speed(self) -> float: ...

    def seat_for_token(self, token: str) -> int | None:
        """The seat this token holds, or None."""

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` may do right now."""

    def action_key(self, seat: int, action: Any, state: State | None = None) -> Any:
        """What ``action`` means as ``seat`` sees it (None: the game cannot tell)."""

    def submit(self, submission: Submission, not_before: float | None = None) -> None:
        """Queue an action (``not_before``: hold it until then, ``time.monotonic``)."""

    async def wait_change(self, seen: int) -> None:
        """Return once ``version`` differs from ``seen``."""

    def attach(self, conn: Connection) -> None:
        """A client arrives (it is sent the table, history, chat and state)."""

    def detach(self, conn: Connection) -> None:
        """A client went away."""


class StandInsFace(TableFace, Chores, Protocol):
    """What the stand-ins (``stand_ins.py``) read, start and tell."""

    @property
    def holding(self) -> bool: ...
    @property
    def running(self) -> bool:
        """The actor runs (stand-ins are due only while it does)."""

    def out_of_time(self, index: int) -> bool:
        """The seat's clock has run out."""

    @property
    def audience(self) -> Broadcasts: ...

    async def save_settings(self) -> None:
        """Save the settings with the clock and the stand-ins."""


class DaysFace(TableFacts, Chores, Protocol):
    """What the days clocks (``turn_days.py``) read, tell and end."""

    @property
    def limits(self) -> Limits: ...
    @property
    def store(self) -> Store: ...
    @property
    def left_order(self) -> list[int]:
        """Seats whose person left, in that order (an expired seat joins them)."""

    @property
    def audience(self) -> Broadcasts: ...

    async def save_settings(self) -> None:
        """Save the settings with the clocks and the stand-ins."""

    async def abandon(self) -> None:
        """Close the table as abandoned."""
