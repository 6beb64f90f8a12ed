"""A few slots for costly work, shared fairly among clients.

``FairSlots(slots, per_client)`` lets ``slots`` jobs run at once. A client (a
client address's key) may have at most ``per_client`` jobs running or waiting;
one more is refused at once (``Busy``), so one address cannot fill the queue.
Waiting jobs get freed slots client by client, in turn (round robin), not in
arrival order: a client with one job waits behind at most one job of each other
waiting client, however many those have queued.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Busy(Exception):
    """This client already has as many jobs running or waiting as it may."""


class FairSlots:
    """``slots`` at once, at most ``per_client`` per client, handed out in turn."""

    def __init__(self, slots: int, per_client: int) -> None:
        self.slots = slots
        self.per_client = per_client
        self._free = slots
        self._held: dict[str, int] = {}
        #: Waiting jobs per client, in the order clients take turns (dicts keep order).
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}

    def held(self, client: str) -> int:
        """The client's jobs running or waiting."""
        return self._held.get(client, 0)

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """Hold a slot for ``client`` while the block runs (``Busy`` if it has too many)."""
        if self.held(client) >= self.per_client:
            raise Busy(client)
        self._held[client] = self.held(client) + 1
        try:
            await self._acquire(client)
            try:
                yield
            finally:
                self._release()
        finally:
            self._held[client] -= 1
            if not self._held[client]:
                del self._held[client]

    async def _acquire(self, client: str) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # handed a slot, but gone: pass it on
            raise

    def _release(self) -> None:
        """Hand the freed slot to the next client in turn, or keep it free."""
        while self._waiting:
            client = next(iter(self._waiting))
            queue = self._waiting.pop(client)
            turn = queue.popleft()
            if queue:
                self._waiting[client] = queue  # its next job waits for its next turn
            if not turn.done():
                turn.set_result(None)
                return
        self._free += 1
