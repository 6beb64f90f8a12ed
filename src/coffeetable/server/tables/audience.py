"""The clients of a table: who is connected, and what each of them is sent.

``TableClients`` is the half of ``Table`` that talks: it attaches and detaches
WebSocket clients, counts each seat's connections, and sends states computed
once per seat (view, legal actions and actors) to every client of that seat.
The public events of an action ride in the state that follows it
(``"events"``): one frame per client per action, whatever the action caused.

Arrivals and departures drive two timers: a person whose last client leaves is
away (the seat's grace timer starts; coming back stops a stand-in), and a table
whose last client leaves may be abandoned (``abandon.py``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from coffeetable.engine import Event, State
from coffeetable.server.tables import wire
from coffeetable.server.tables.connections import Connection, Offer, dumps
from coffeetable.server.tables.seats import Seat


class TableClients:
    """Connections of one table: the half of ``Table`` the others build on (clock.py,
    stand_in.py, abandon.py); ``Table`` sets the attributes."""

    connections: set[Connection]
    seats: list[Seat]
    state: State
    status: str
    holding: bool
    _committing: bool
    #: The chat's last messages (``chat.py``; None until loaded).
    chat: deque[dict[str, Any]] | None
    #: The match's last public events, for clients that arrive mid-match.
    recent: deque[Event]

    @property
    def seq(self) -> int:
        raise NotImplementedError

    def summary(self) -> dict[str, Any]:
        raise NotImplementedError

    def action_key(self, seat: int, action: Any, state: State | None = None) -> Any:
        raise NotImplementedError

    def clock_json(self) -> dict[str, Any] | None:
        return None

    def days_json(self) -> dict[str, Any] | None:
        return None

    # From the other halves of ``Table`` (stand_in.py, abandon.py): declared, not
    # stubbed, so that nothing here can answer for them.
    reclaim: Callable[[int], bool]
    arm_grace: Callable[[int], None]
    arm_abandon: Callable[[], None]
    cancel_abandon: Callable[[], None]

    def attach(self, conn: Connection) -> None:
        """A client arrives: it gets the table, the recent public events and chat, then (unless a
        commit is in flight) the state. A person back at their seat takes it back
        from its stand-in first, so that this state already offers them their moves."""
        self.connections.add(conn)
        self.cancel_abandon()
        first = False
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connections += 1
            first = seat.connections == 1
            if first:
                self.reclaim(conn.seat)
        conn.send_json(wire.table(self.summary()))
        conn.send_json(wire.history(list(self.recent)))
        conn.send_json(wire.chat_history(list(self.chat or ())))
        if not self._committing:  # else the broadcast after the commit reaches it
            self._send_state({conn})
        if first:
            self.broadcast_table()

    def detach(self, conn: Connection) -> None:
        """A client went away."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        conn.close()
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connections -= 1
            if not seat.connections:
                seat.absent_since = time.monotonic()
                self.arm_grace(conn.seat)
                self.broadcast_table()
        if not self.connections:
            self.arm_abandon()

    def unseat_clients(self, index: int) -> None:
        """The person of seat ``index`` is gone: their open clients become spectators."""
        moved = {conn for conn in self.connections if conn.seat == index}
        for conn in moved:
            conn.seat = None
        self.seats[index].connections = 0
        self.seats[index].absent_since = time.monotonic()
        self._send_state(moved)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = dumps(message)
        for conn in self.connections:
            conn.send(text)

    def broadcast_table(self) -> None:
        self.broadcast(wire.table(self.summary()))

    def broadcast_state(
        self, events: list[Event] | None = None, sender: Connection | None = None
    ) -> None:
        """Every client's new state, carrying ``events`` (what led to it; public);
        ``sender``: the socket whose action it holds."""
        self._send_state(self.connections, events, sender)

    def _send_state(
        self,
        conns: set[Connection],
        events: list[Event] | None = None,
        sender: Connection | None = None,
    ) -> None:
        """Each client's state: view, legal and actors computed once per seat.

        ``events``: the public events since the last state these clients were sent
        (none: the state changed without an action, or they have just arrived).
        ``sender``'s state says ``"yours": true``: it holds the action that socket sent.
        """
        if not conns:
            return
        shown = events or []
        actors = [] if self.status != "running" or self.holding else self.state.actors()
        seq = self.seq
        clock, days = self.clock_json(), self.days_json()
        cache: dict[int | None, tuple[str, Offer]] = {}
        # A game whose views are all public (``Game.public_views``): one view a state.
        public = self.state.view(None) if self.state.game.public_views else None
        for conn in conns:
            seat = conn.seat
            if seat not in cache:
                # A seat a stand-in plays offers its person nothing (only its bot acts).
                legal: list[dict[str, Any]] = []
                if seat is not None and seat in actors and self.seats[seat].bot_level is None:
                    legal = self.state.legal_actions(seat)
                keys = None
                if legal and seat is not None:
                    keys = [self.action_key(seat, action) for action in legal]
                message = {
                    "type": "state",
                    "seq": seq,
                    "seat": seat,
                    "view": self.state.view(seat) if public is None else {**public, "seat": seat},
                    "legal": legal,
                    "actors": actors,
                    "events": shown,
                }
                if clock is not None:
                    message["clock"] = clock
                if days is not None:
                    message["days"] = days
                cache[seat] = (dumps(message), Offer(seq, legal, keys))
            conn.send_state(*cache[seat], yours=conn is sender)
