"""The audience of a table: who is connected, and what each of them is sent.

``Audience`` holds a table's WebSocket clients: it counts each seat's
connections, welcomes an arriving client (the table, recent events, chat and its
state), and sends states computed once per seat (view, legal actions and actors)
to every client of that seat. The public events of an action ride in the state
that follows it (``"events"``): one frame per client per action, whatever the
action caused. It sees the table through ``AudienceFace`` (``face.py``).

What arrivals and departures start (a person's grace timer, a stand-in's stop,
the abandon timer) is the table's to decide: ``add`` and ``remove`` say whether a
seat's first client arrived or its last one left, and ``Table.attach`` and
``Table.detach`` act on it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from coffeetable.server.tables import wire
from coffeetable.server.tables.connections import Connection, Offer, dumps

if TYPE_CHECKING:
    from coffeetable.engine import Event
    from coffeetable.server.tables.face import AudienceFace


class Audience:
    """The clients of one table, and the messages they are sent."""

    def __init__(self, table: AudienceFace) -> None:
        self.table = table
        self.connections: set[Connection] = set()

    @property
    def spectators(self) -> int:
        return sum(1 for conn in self.connections if conn.seat is None)

    def add(self, conn: Connection) -> bool:
        """Count a client in; True if it is the first one of its seat (a person is back)."""
        self.connections.add(conn)
        if conn.seat is None:
            return False
        seat = self.table.seats[conn.seat]
        seat.connections += 1
        return seat.connections == 1

    def welcome(self, conn: Connection) -> None:
        """An arriving client gets the table, the recent public events and chat, then
        (unless a commit is in flight: its broadcast reaches the client) its state."""
        table = self.table
        conn.send_json(wire.table(table.summary()))
        conn.send_json(wire.history(list(table.recent)))
        conn.send_json(wire.chat_history(list(table.chat or ())))
        if not table.committing:
            self.send_state({conn})

    def remove(self, conn: Connection) -> bool:
        """Count a client out (and close it); True if it was the last of its seat (its
        person is away from now on)."""
        if conn not in self.connections:
            return False
        self.connections.discard(conn)
        conn.close()
        if conn.seat is None:
            return False
        seat = self.table.seats[conn.seat]
        seat.connections -= 1
        if seat.connections:
            return False
        seat.absent_since = time.monotonic()
        return True

    def unseat(self, index: int) -> None:
        """The person of seat ``index`` is gone: their open clients become spectators."""
        moved = {conn for conn in self.connections if conn.seat == index}
        for conn in moved:
            conn.seat = None
        seat = self.table.seats[index]
        seat.connections = 0
        seat.absent_since = time.monotonic()
        self.send_state(moved)

    def broadcast(self, message: dict[str, Any]) -> None:
        """``message`` (one of ``wire.py``'s) to every client, encoded once."""
        text = dumps(message)
        for conn in self.connections:
            conn.send(text)

    def broadcast_table(self) -> None:
        self.broadcast(wire.table(self.table.summary()))

    def broadcast_state(
        self, events: list[Event] | None = None, sender: Connection | None = None
    ) -> None:
        """Every client's new state, carrying ``events`` (what led to it; public);
        ``sender``: the socket whose action it holds."""
        self.send_state(self.connections, events, sender)

    def send_seat_state(self, index: int) -> None:
        """The clients of seat ``index`` get their state (what they may do changed)."""
        self.send_state({conn for conn in self.connections if conn.seat == index})

    def send_state(
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
        table = self.table
        state, seats = table.state, table.seats
        shown = events or []
        actors = [] if table.status != "running" or table.holding else state.actors()
        seq = table.seq
        clock, days = table.clock_json(), table.days_json()
        cache: dict[int | None, tuple[str, Offer]] = {}
        # A game whose views are all public (``Game.public_views``): one view a state.
        public = state.view(None) if state.game.public_views else None
        for conn in conns:
            seat = conn.seat
            if seat not in cache:
                # A seat a stand-in plays offers its person nothing (only its bot acts).
                legal: list[dict[str, Any]] = []
                if seat is not None and seat in actors and seats[seat].bot_level is None:
                    legal = state.legal_actions(seat)
                keys = None
                if legal and seat is not None:
                    keys = [table.action_key(seat, action) for action in legal]
                view = state.view(seat) if public is None else {**public, "seat": seat}
                message = wire.state(seq, seat, view, legal, actors, shown, clock, days)
                cache[seat] = (dumps(message), Offer(seq, legal, keys))
            conn.send_state(*cache[seat], yours=conn is sender)
