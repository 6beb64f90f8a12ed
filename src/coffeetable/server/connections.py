"""One WebSocket client of a table: who it is, what it was last sent, its outbox.

The table never awaits a client: messages go to the connection's outbox and a
pump task writes them to the socket. A client that falls too far behind is
closed rather than slowing the table down.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket

log = logging.getLogger("coffeetable.server")

#: Messages a client may leave unread before it is dropped.
MAX_BACKLOG = 2000
#: Actions a client may have waiting in its table's queue.
MAX_PENDING = 16


def dumps(message: Any) -> str:
    """Compact JSON, as every message goes on the wire."""
    return json.dumps(message, separators=(",", ":"))


#: States a client may act on after newer ones were sent (``"seq"`` in an act).
OFFERS_KEPT = 8


@dataclass(frozen=True)
class Offer:
    """What one state message offered a seat: its legal actions and what each meant."""

    seq: int
    legal: list[dict[str, Any]]
    #: ``Table.action_key`` of each legal action (None: the game has no keys).
    keys: list[Any] | None = None

    def key_of(self, action: Any) -> Any:
        """The key of ``action`` if this state offered it, else None."""
        if self.keys is not None:
            for offered, key in zip(self.legal, self.keys, strict=True):
                if offered == action:
                    return key
        return None


class Connection:
    """A client of one table: a seat (None for a spectator) and an outbox."""

    def __init__(self, websocket: WebSocket, seat: int | None) -> None:
        self.websocket = websocket
        self.seat = seat
        #: The last states this client was sent, newest last ("too slow").
        self.offers: deque[Offer] = deque(maxlen=OFFERS_KEPT)
        #: Its actions submitted and not yet processed.
        self.pending = 0
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, text: str) -> None:
        """Queue an already serialized message."""
        if self.closed:
            return
        if self._outbox.qsize() >= MAX_BACKLOG:
            log.warning("dropping a client that stopped reading")
            self.close()
            return
        self._outbox.put_nowait(text)

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def send_state(self, text: str, offer: Offer) -> None:
        """Queue a state message and remember what it offered."""
        self.offers.append(offer)
        self.send(text)

    def offer(self, seq: int | None = None) -> Offer | None:
        """The newest state sent with ``seq`` (None: the last state sent), if kept."""
        for offer in reversed(self.offers):
            if seq is None or offer.seq == seq:
                return offer
        return None

    def close(self) -> None:
        """Stop sending; the pump closes the socket once the outbox is empty."""
        if not self.closed:
            self.closed = True
            self._outbox.put_nowait(None)

    async def pump(self) -> None:
        """Write the outbox to the socket until closed (run as a task)."""
        try:
            while True:
                text = await self._outbox.get()
                if text is None:
                    await self.websocket.close(code=1008)
                    return
                await self.websocket.send_text(text)
        except Exception:  # the client went away mid-send: the receive loop cleans up
            self.closed = True
