"""What a client sends to its table: a frame checked, then handed to the table.

The socket's side of a table (``ClientIn``, as lila-ws calls it; what the server
sends is ``wire.py``): which seat a socket takes, a frame parsed and held to the
socket's rates (``handle_frame``), and each message (``act``, ``chat``,
``chat_mute``, ``ping``) handed to the table (``handle``). The table socket
(``server/ws.py``) and the cluster's relay (``cluster/relay.py``, for a socket
another process holds) both use it; the protocol is described in ``ws.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from coffeetable.server.jsonio import JSONError, loads
from coffeetable.server.limits import Limits
from coffeetable.server.tables import chat, reaction, seating, wire
from coffeetable.server.tables.connections import MAX_PENDING, OFFERS_KEPT, Connection
from coffeetable.server.tables.face import TableFace
from coffeetable.server.tables.submission import Submission

#: Close codes: refused (origin, token), no such table, try again later (too
#: many sockets), policy (flooding, not reading).
FORBIDDEN, NOT_FOUND, TRY_LATER, POLICY = 4403, 4404, 1013, 1008

#: A frame as Starlette's ``receive`` gives it (only read here).
Frame = Mapping[str, Any]


#: The ``error`` code that goes with each close code of a refused handshake.
_REFUSAL_CODES = {
    FORBIDDEN: wire.FORBIDDEN,
    NOT_FOUND: wire.NOT_FOUND,
    TRY_LATER: wire.TOO_MANY_SOCKETS,
}


def refusal_message(reason: str, code: int) -> dict[str, Any]:
    """The ``error`` that says why a socket is refused, before its close ``code``."""
    return wire.error(reason, _REFUSAL_CODES.get(code, wire.FORBIDDEN))


def seat_of_socket(
    table: TableFace, token: str | None, user_id: int | None, watch: bool, program: bool = False
) -> tuple[int | None, str | None]:
    """The seat a socket takes (None: it watches), or why it is refused."""
    if token:
        seat = table.seat_for_token(token)
        if seat is None:
            return None, "this token holds no seat at this table"
        return seat, None
    if user_id is None or watch:
        return None, None
    seat = seating.seat_for_user(table, user_id)
    if seat is None and program:
        return None, "this bot has no seat at this table"
    return seat, None


def parse(frame: Frame, limits: Limits) -> tuple[dict[str, Any] | None, str | None]:
    """A frame's message, or why it is not one: (message, None) or (None, reason)."""
    text, data = frame.get("text"), frame.get("bytes")
    limit = limits.max_message_bytes
    if frame_size(text, data) > limit:
        return None, f"a message is at most {limit} bytes"
    if text is None:
        return None, "send JSON in text frames, not binary ones"
    try:
        message = loads(text)
    except JSONError as error:
        return None, f"a message must be JSON: {error.reason}"
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None, "a message is a JSON object with a 'type'"
    return message, None


def frame_size(text: str | None, data: bytes | None) -> int:
    """A frame's size in bytes (UTF-8 only counted when characters alone cannot tell)."""
    if text is None:
        return len(data or b"")
    return len(text) if text.isascii() else len(text.encode("utf-8", errors="surrogatepass"))


def handle_frame(conn: Connection, frame: Frame, deliver: Callable[[dict[str, Any]], bool]) -> bool:
    """One frame from the client: checked, then ``deliver``-ed (to ``handle`` here, or
    relayed to the table's process). False once it floods (the caller closes the socket)."""
    if conn.closed:  # closed by the server (e.g. its session ended): nothing it sends counts
        return True
    throttle = conn.throttle
    message, error = parse(frame, throttle.limits)
    if not throttle.messages.take():
        return _slow_down(conn, message, throttle.too_many_messages, throttle.messages.wait())
    if message is None:
        conn.send_error(error or "not a message")
        return True
    return deliver(message)


def _slow_down(
    conn: Connection, message: dict[str, Any] | None, reason: str, retry_after: float
) -> bool:
    """Refuse a message for its rate (code ``rate``, with the seconds until the rate lets
    one through): an act is rejected, anything else an error."""
    if message is not None and message["type"] == "act":
        conn.send_json(wire.rejected(reason, wire.RATE, message.get("action"), retry_after))
    else:
        conn.send_error(reason, wire.RATE, retry_after)
    return conn.throttle.refused()


#: Chat messages being saved and sent.
_saying: set[asyncio.Task[None]] = set()


def handle(table: TableFace, conn: Connection, message: dict[str, Any]) -> bool:
    """One client message (a JSON object with a type); a bad one gets an error.
    False once the client floods."""
    kind = message["type"]
    if kind == "ping":
        conn.send_json(wire.pong())
    elif kind == "act":
        return act(table, conn, message)
    elif kind == "chat":
        task = asyncio.get_running_loop().create_task(chat.say(table, conn, message))
        _saying.add(task)  # keep a reference until it is done (asyncio holds weak ones)
        task.add_done_callback(_saying.discard)
    elif kind == "chat_mute":
        chat.mute(table, conn, message)
    else:
        conn.send_error(f"unknown message type {kind[:40]!r}")
    return True


def act(table: TableFace, conn: Connection, message: dict[str, Any]) -> bool:
    """Queue the action for the connection's seat, with what it was offered.
    False once the client floods."""
    action, seq = message.get("action"), message.get("seq")
    if not isinstance(action, dict):
        conn.send_error("'act' needs an 'action' object")
        return True
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        conn.send_error("'seq' is the seq of a state you were sent")
        return True
    actions = conn.throttle.actions
    if not actions.take():
        return _slow_down(conn, message, conn.throttle.too_many_actions, actions.wait())
    refusal = None
    offer = conn.offer(seq)
    if conn.seat is None:
        refusal = "spectators cannot act", wire.SPECTATOR
    elif conn.pending >= MAX_PENDING:
        refusal = f"slow down: at most {MAX_PENDING} of your actions wait at once", wire.BUSY
    elif offer is None and seq is not None:  # never sent, or older than the ones kept
        refusal = _stale(seq), wire.STALE_SEQ
    if refusal is not None:
        conn.send_json(wire.rejected(*refusal, action))
        return True
    # Only actions bound for the table spend the seat's and the address's counts (a
    # spectator's or a stale one never reaches it; the socket's own rate counted them).
    if conn.rates is not None and (
        over := conn.rates.action_refusal(table.id, conn.seat, conn.address)
    ):  # the seat's or the address's other sockets spent them
        return _slow_down(conn, message, *over)
    legal = [] if offer is None else offer.legal
    key = None if offer is None else offer.key_of(action)
    submission = Submission(conn.seat, action, legal, conn, key)
    table.submit(submission, reaction.not_before(table, conn.seat, offer))
    return True


def _stale(seq: int) -> str:
    """Why an act's ``seq`` names no state this socket may act on."""
    return (
        f"seq {seq} is not one of the last {OFFERS_KEPT} states sent to this socket:"
        " decide again on the newest one"
    )
