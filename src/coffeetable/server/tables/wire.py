"""What the server sends over a socket, in one place (as lila-ws keeps ClientOut): the
builder of every message (``table``, ``history``, ``state``, ``rejected``, ``error``,
``pong``, ``chat_history``, ``chat``, ``rematch``), of the table's own events that
ride in states (``countdown``, ``clock``), and the refusal codes. No other module
writes a message's dict (``tests/server/test_wire.py``); ``ws.py`` describes them.

Every refusal carries a sentence for people (``reason``) and a machine-readable
``code`` beside it; where waiting helps, ``retry_after`` says how many seconds
(a program waits exactly that, then sends again). The codes are listed in
docs/bots.md and in the socket's message schemas (``api/protocol.py``).
"""

from __future__ import annotations

import math
from typing import Any

# -- ``rejected`` (an action refused; nothing changed) -------------------------

#: Over the socket's action or message rate: send it again after ``retry_after``.
RATE = "rate"
#: The state it was decided on offered it, but the table moved on: decide again.
TOO_SLOW = "too_slow"
#: Its ``seq`` names no state kept for this socket (unknown, future or too old).
STALE_SEQ = "stale_seq"
#: The seat is not among those that may act now.
NOT_YOUR_TURN = "not_your_turn"
#: Against the rules, or not an action of this game.
ILLEGAL = "illegal"
#: Too many of this socket's actions still queued at the table.
BUSY = "busy"
#: The countdown of a round holds play: every action waits for its end (``retry_after``).
WAIT = "wait"
#: A spectator's socket holds no seat.
SPECTATOR = "spectator"
#: The match is not on (waiting for players, over, or the table closed).
NOT_RUNNING = "not_running"
#: A stand-in bot plays this seat (its person is away, or out of time).
STAND_IN = "stand_in"
#: The seat is no longer this socket's.
NOT_YOURS = "not_yours"
#: The server failed to apply or save it (nothing changed; it may be sent again).
SERVER = "server"

# -- ``error`` (a message refused, or why the socket is closed) ----------------

#: Not a message: too big, binary, not strict JSON, the wrong shape, an unknown type.
BAD_MESSAGE = "bad_message"
#: The handshake is refused (origin, token, key, no seat): the socket closes (4403).
FORBIDDEN = "forbidden"
#: No such table: the socket closes (4404).
NOT_FOUND = "not_found"
#: Too many sockets from this address: the socket closes (1013).
TOO_MANY_SOCKETS = "too_many_sockets"

#: Every ``rejected`` code and every ``error`` code (the schemas enumerate them).
REJECTED_CODES = (
    RATE,
    TOO_SLOW,
    STALE_SEQ,
    NOT_YOUR_TURN,
    ILLEGAL,
    BUSY,
    WAIT,
    SPECTATOR,
    NOT_RUNNING,
    STAND_IN,
    NOT_YOURS,
    SERVER,
)
ERROR_CODES = (BAD_MESSAGE, RATE, FORBIDDEN, NOT_FOUND, TOO_MANY_SOCKETS)


def _seconds(wait: float) -> float:
    """``retry_after`` as sent: rounded up to the millisecond (never early), at least 1 ms."""
    return max(0.001, math.ceil(wait * 1000) / 1000)


def rejected(
    reason: str, code: str, action: Any = None, retry_after: float | None = None
) -> dict[str, Any]:
    """An action refused: ``{"type": "rejected", "reason", "code", "action"[, "retry_after"]}``."""
    message: dict[str, Any] = {"type": "rejected", "reason": reason, "code": code}
    message["action"] = action
    if retry_after is not None:
        message["retry_after"] = _seconds(retry_after)
    return message


def error(reason: str, code: str = BAD_MESSAGE, retry_after: float | None = None) -> dict[str, Any]:
    """A message refused (nothing changed), or why the socket closes:
    ``{"type": "error", "reason", "code"[, "retry_after"]}``."""
    message: dict[str, Any] = {"type": "error", "reason": reason, "code": code}
    if retry_after is not None:
        message["retry_after"] = _seconds(retry_after)
    return message


def pong() -> dict[str, Any]:
    """The answer to a ``ping``."""
    return {"type": "pong"}


def table(summary: dict[str, Any]) -> dict[str, Any]:
    """The table's summary (on connect and when seats change)."""
    return {"type": "table", "table": summary}


def history(events: list[Any]) -> dict[str, Any]:
    """The match's last public events (on connect)."""
    return {"type": "history", "events": events}


def chat_history(messages: list[Any]) -> dict[str, Any]:
    """The table's last chat messages (on connect)."""
    return {"type": "chat_history", "messages": messages}


def chat(message: dict[str, Any]) -> dict[str, Any]:
    """Someone said something at the table."""
    return {"type": "chat", "message": message}


def state(
    seq: int,
    seat: int | None,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    actors: list[int],
    events: list[Any],
    clock: dict[str, Any] | None = None,
    days: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One seat's state: ``{"type": "state", "seq", "seat", "view", "legal", "actors",
    "events"[, "clock"][, "days"]}`` (``events``: the public events that led to it)."""
    message: dict[str, Any] = {
        "type": "state",
        "seq": seq,
        "seat": seat,
        "view": view,
        "legal": legal,
        "actors": actors,
        "events": events,
    }
    if clock is not None:
        message["clock"] = clock
    if days is not None:
        message["days"] = days
    return message


def clock_expired(seat: int) -> dict[str, Any]:
    """The event of a seat whose time ran out (its stand-in plays from now on)."""
    return {"type": "clock", "seat": seat, "expired": True}


def rematch(status: dict[str, Any]) -> dict[str, Any]:
    """Who accepted the rematch, who it waits for, and its table once dealt:
    ``{"type": "rematch", "accepted", "waiting", "table_id"}``."""
    return {"type": "rematch", **status}


def countdown(seconds: float) -> dict[str, Any]:
    """The event that holds play at a round's start, for ``seconds``."""
    return {"type": "countdown", "seconds": round(seconds, 3)}
