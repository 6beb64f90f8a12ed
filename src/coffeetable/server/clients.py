"""The clients of a table: who is connected, and what each of them is sent.

``TableClients`` is the half of ``Table`` that talks: it attaches and detaches
WebSocket clients, counts each seat's connections, and sends states computed
once per seat (view, legal actions and actors) to every client of that seat.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from coffeetable.engine import Event, State
from coffeetable.server.connections import Connection, Offer, dumps
from coffeetable.server.seats import Seat


class TableClients:
    """Connections of one table (mixed into ``Table``, which sets the attributes)."""

    connections: set[Connection]
    seats: list[Seat]
    state: State
    status: str
    holding: bool
    _committing: bool
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

    def attach(self, conn: Connection) -> None:
        """A client arrives: it gets the table, the recent public events, then (unless a
        commit is in flight) the state."""
        self.connections.add(conn)
        if conn.seat is not None:
            self.seats[conn.seat].connections += 1
        conn.send_json({"type": "table", "table": self.summary()})
        conn.send_json({"type": "history", "events": list(self.recent)})
        if not self._committing:  # else the broadcast after the commit reaches it
            self._send_state({conn})
        if conn.seat is not None and self.seats[conn.seat].connections == 1:
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
                self.broadcast_table()

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
        self.broadcast({"type": "table", "table": self.summary()})

    def broadcast_state(self) -> None:
        self._send_state(self.connections)

    def _send_state(self, conns: set[Connection]) -> None:
        """Each client's state: view, legal and actors computed once per seat."""
        if not conns:
            return
        actors = [] if self.status != "running" or self.holding else self.state.actors()
        seq = self.seq
        clock = self.clock_json()
        cache: dict[int | None, tuple[str, Offer]] = {}
        for conn in conns:
            seat = conn.seat
            if seat not in cache:
                legal = self.state.legal_actions(seat) if seat in actors else []
                keys = None
                if legal and seat is not None:
                    keys = [self.action_key(seat, action) for action in legal]
                message = {
                    "type": "state",
                    "seq": seq,
                    "view": self.state.view(seat),
                    "legal": legal,
                    "actors": actors,
                }
                if clock is not None:
                    message["clock"] = clock
                cache[seat] = (dumps(message), Offer(seq, legal, keys))
            conn.send_state(*cache[seat])
