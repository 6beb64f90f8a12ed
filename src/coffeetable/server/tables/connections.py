"""One WebSocket client of a table: who it is, what it was last sent, its outbox.

The table never awaits a client. A message is written to the socket at once
when nothing is waiting before it and the socket takes it without waiting
(the common case: uvicorn's send only waits while the kernel's buffer is
full); else it goes to the outbox, which a pump task writes out in order. The
direct write saves a task switch per message, four per action at a table of
four. A client that falls too far behind is closed rather than slowing the
table down.

Every socket also has a ``SocketRates`` (its message and action rates, and how
long it is let flood), and ``SocketQuota`` counts the sockets each client
address holds open. The numbers are ``Limits`` fields.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Coroutine, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from coffeetable.server.jsonio import dumps
from coffeetable.server.limits import Limits, TokenBucket
from coffeetable.server.tables.wire import BAD_MESSAGE, FORBIDDEN, error

if TYPE_CHECKING:
    from coffeetable.server.tables.client_rates import ClientRates

__all__ = [
    "MAX_BACKLOG",
    "MAX_PENDING",
    "OFFERS_KEPT",
    "Connection",
    "Offer",
    "SocketQuota",
    "SocketRates",
    "close_reason",
    "dumps",
    "encode",
]

log = logging.getLogger("coffeetable.server")

#: Messages a client may leave unread before it is dropped.
MAX_BACKLOG = 2000
#: Actions a client may have waiting in its table's queue.
MAX_PENDING = 16
#: States a client may act on after newer ones were sent (``"seq"`` in an act).
OFFERS_KEPT = 8
#: The longest close reason a WebSocket close frame holds, in UTF-8 bytes.
MAX_CLOSE_REASON = 123


def encode(message: dict[str, Any]) -> str:
    """``message`` as JSON text. A refusal whose echoed ``action`` cannot be encoded
    (an integer beyond 64 bits, say) goes without the echo: it is still answered."""
    try:
        return dumps(message)
    except TypeError:
        if "action" in message:
            return encode({key: value for key, value in message.items() if key != "action"})
        raise


def close_reason(text: str) -> str:
    """``text`` cut to what a close frame holds (whole characters only)."""
    data = text.encode("utf-8")[:MAX_CLOSE_REASON]
    return data.decode("utf-8", errors="ignore")


@dataclass(frozen=True)
class Offer:
    """What one state message offered a seat: its legal actions and what each meant."""

    seq: int
    legal: list[dict[str, Any]]
    #: ``Table.action_key`` of each legal action (None: the game has no keys).
    keys: list[Any] | None = None
    #: When it was sent (``time.monotonic``): a program's answer counts no sooner
    #: than ``min_reaction`` after it (``reaction.py``).
    sent: float = field(default_factory=time.monotonic)

    def key_of(self, action: Any) -> Any:
        """The key of ``action`` if this state offered it, else None."""
        if self.keys is not None:
            for offered, key in zip(self.legal, self.keys, strict=True):
                if offered == action:
                    return key
        return None


class SocketRates:
    """The rates of one socket: messages, actions, and its patience with a flood.

    Refused messages spend ``patience``, which refills at the message rate: a
    client a little over the limit never runs out, one sending many times the
    limit does within seconds (then the socket is closed).
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.messages = TokenBucket(limits.messages_per_second, limits.message_burst)
        self.actions = TokenBucket(limits.actions_per_second, limits.action_burst)
        self.chat = TokenBucket(limits.chat_per_minute / 60, limits.chat_burst)
        self.patience = TokenBucket(
            limits.messages_per_second, limits.flood_bursts * limits.message_burst
        )

    @property
    def too_many_messages(self) -> str:
        return f"slow down: at most {self.limits.messages_per_second:g} messages a second"

    @property
    def too_many_actions(self) -> str:
        return f"slow down: at most {self.limits.actions_per_second:g} actions a second"

    def refused(self) -> bool:
        """Count a message refused for its rate; False once the client floods."""
        return self.patience.take()


class SocketQuota:
    """How many WebSockets each client address holds open (``sockets_per_client``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def acquire(self, address: str) -> bool:
        """Count one more socket from ``address``; False (not counted) if it has the most."""
        count = self.open.get(address, 0)
        if count >= self.limit:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)


class Connection:
    """A client of one table: a seat (None for a spectator), an outbox and a throttle."""

    #: Its socket is held by another process (``cluster/relay.py``'s ``RemoteConnection``).
    remote = False

    def __init__(
        self, websocket: WebSocket, seat: int | None, limits: Limits | None = None
    ) -> None:
        self.websocket = websocket
        self.seat = seat
        #: The last states this client was sent, newest last ("too slow").
        self.offers: deque[Offer] = deque(maxlen=OFFERS_KEPT)
        #: Its actions submitted and not yet processed.
        self.pending = 0
        self.throttle = SocketRates(limits or Limits())
        #: The name a spectator chats under (their username when signed in).
        self.viewer_name = "Spectator"
        #: The signed-in account of the socket (None: a guest, or a seat's token): whose
        #: blocks it reads chat under (``chat.py``).
        self.user_id: int | None = None
        #: The client's address, and the process's counts per seat and per address that
        #: its actions and chat also spend (``client_rates.py``; None: not counted).
        self.address: str | None = None
        self.rates: ClientRates | None = None
        #: The chat channels this client said it hides: it is not sent them (``chat.py``).
        self.muted: set[str] = set()
        #: Messages waiting for the pump (None: then the close frame).
        self._outbox: deque[str | None] = deque()
        #: A send that had to wait for the socket, for the pump to finish first.
        self._stalled: _Stalled | None = None
        self._wake = asyncio.Event()
        self.closed = False
        #: The close frame the pump sends once the outbox is empty.
        self.close_code = 1008
        self.close_reason = ""

    async def still_open(self) -> bool:
        """Whether the socket is still open (asked of the process that holds it, if that is
        another: what that process had to tell of the socket, a close, arrives first)."""
        return not self.closed

    def send(self, text: str) -> None:
        """Send an already serialized message: now if the socket takes it, else queued."""
        if self.closed:
            return
        if self._outbox or self._stalled is not None:
            if len(self._outbox) >= MAX_BACKLOG:
                log.warning("dropping a client that stopped reading")
                self.close(1008, "you stopped reading: too many messages unread")
                return
            self._outbox.append(text)
            return
        sending = self.websocket.send_text(text)
        try:
            waiting = sending.send(None)  # runs to its end unless the socket is full
        except StopIteration:
            return
        except Exception:  # the client went away: the receive loop cleans up
            self.closed = True
            return
        self._stalled = _Stalled(sending, waiting)
        self._wake.set()

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(encode(message))

    def send_error(
        self, reason: str, code: str = BAD_MESSAGE, retry_after: float | None = None
    ) -> None:
        self.send_json(error(reason, code, retry_after))

    def send_state(self, text: str, offer: Offer, yours: bool = False) -> None:
        """Queue a state message (its seat's, shared by the seat's sockets) and remember
        what it offered. ``yours``: it holds the action this socket sent, which it says
        (``"yours": true``, spliced in rather than encoding the seat's state again)."""
        self.offers.append(offer)
        self.send(text[:-1] + ',"yours":true}' if yours else text)

    def offer(self, seq: int | None = None) -> Offer | None:
        """The newest state sent with ``seq`` (None: the last state sent), if kept."""
        for offer in reversed(self.offers):
            if seq is None or offer.seq == seq:
                return offer
        return None

    def refuse(self, reason: str, code: int) -> None:
        """Say why (an ``error``, code ``forbidden``), then close with ``code``: the
        session or key that opened this socket ended (``players/revocation.py``)."""
        self.send_error(reason, FORBIDDEN)
        self.close(code, reason)

    def close(self, code: int = 1008, reason: str = "") -> None:
        """Stop sending; the pump closes the socket (``code``) once the outbox is empty."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, close_reason(reason)
            self._outbox.append(None)
            self._wake.set()

    async def pump(self) -> None:
        """Write what could not be sent at once, in order, until closed (run as a task)."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                if self._stalled is not None:
                    await self._stalled
                    self._stalled = None
                while self._outbox:
                    text = self._outbox.popleft()
                    if text is None:
                        await self.websocket.close(code=self.close_code, reason=self.close_reason)
                        return
                    await self.websocket.send_text(text)
        except Exception:  # the client went away mid-send: the receive loop cleans up
            self.closed = True
        finally:
            self._stalled = None
            self._outbox.clear()


class _Stalled:
    """A send that started at once and had to wait for the socket: awaiting this
    finishes it (the pump's task takes over the coroutine where it stopped)."""

    def __init__(self, sending: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.sending, self.waiting = sending, waiting

    def __await__(self) -> Generator[Any, Any, None]:
        sending, waiting = self.sending, self.waiting
        while True:
            try:
                answer = yield waiting  # the future it waits on, to the pump's task
            except BaseException as error:  # cancelled: pass it on to the send
                try:
                    waiting = sending.throw(error)
                except StopIteration:
                    return
            else:
                try:
                    waiting = sending.send(answer)
                except StopIteration:
                    return
