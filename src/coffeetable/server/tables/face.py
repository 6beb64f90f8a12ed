"""``TableFace``: a live table as its parts and its neighbours see it.

The bots' tasks (``bot_tasks.py``), the chat (``chat.py``), the programs' pace
(``reaction.py``), seating (``seating.py``) and the cluster's relay
(``cluster/relay.py``) take a ``TableFace``, not a ``Table``: the few facts and
calls they use, in one typed place, so that none of them imports the actor
(``table.py``), which starts and stops them. ``Table`` has this face (mypy checks
it wherever a ``Table`` is passed as one).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from coffeetable.engine import Game, State
    from coffeetable.server.limits import Limits
    from coffeetable.server.tables.connections import Connection
    from coffeetable.server.tables.seats import Seat
    from coffeetable.server.tables.submission import Submission
    from coffeetable.store import Store


class TableFace(Protocol):
    """One live table: its facts, its seats and clients, and how to act at it."""

    #: The chat's last messages (None until ``chat.load`` read them).
    chat: deque[dict[str, Any]] | None

    @property
    def id(self) -> str: ...
    @property
    def game(self) -> Game: ...
    @property
    def players(self) -> int: ...
    @property
    def seed(self) -> int: ...
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
    @property
    def acted(self) -> set[int]:
        """Seats that acted by their own player (``seating``: an abandoned match's rating)."""

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
