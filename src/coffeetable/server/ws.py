"""WebSockets: ``/ws/tables/{id}?token=T`` to play or watch (``/ws/echo``: ``echo.py``).

Server -> client messages (JSON text frames; their JSON Schemas: ``protocol.py``,
served at ``GET /api/protocol``):

- ``{"type": "table", "table": summary}``: on connect and whenever seats change
  (a seat's ``stand_in`` names the bot playing for its absent person);
- ``{"type": "history", "events": [...]}``: on connect, the match's last public
  events (at most ``tables.HISTORY``), so a board can tell its log again;
- ``{"type": "state", "seq", "seat", "view", "legal", "actors", "events"}``: on
  connect and after every change (``legal``: this seat's actions now; empty for
  spectators and while a stand-in plays the seat); with ``"clock": {"left":
  [seconds per seat], "running": seat | null}`` on tables with a clock
  (``clock_minutes``); with ``"yours": true`` to the socket whose action it
  holds (a program knows its answer landed: one answer in flight at a time).
  ``events``: the public events since the previous state
  this socket was sent (``[]`` on connect: the past is in ``history``), so one
  frame per client carries an action and what it caused; after
  ``round_started`` they end with ``{"type": "countdown", "seconds"}``, and
  ``{"type": "clock", "seat", "expired": true}`` says a seat's time ran out.
  There are no separate event frames; on the match's last action its state
  comes before the ``table`` message saying it is over;
- ``{"type": "rejected", "reason", "code", "action"}``: your action was refused (the
  ``action`` echo is left out if it cannot be encoded);
- ``{"type": "error", "reason", "code"}``: a malformed message (nothing changed);
  every refusal's ``code`` is one of ``wire.py``'s, with ``retry_after`` (seconds)
  where waiting helps (a rate, the countdown);
- ``{"type": "pong"}``: answer to ``{"type": "ping"}``;
- ``{"type": "chat_history", "messages"}`` on connect and ``{"type": "chat",
  "message"}``: the table's chat (``chat.py``).

The socket's seat (``seat`` in its states; null: a spectator) comes from the
``token``, else from a signed-in player's session cookie (their seat at this
table, from any browser; ``?watch=true`` to watch instead), else from a bot's
API key in the handshake's ``Authorization: Bearer`` header (docs/bots.md: a
bad or revoked key, or a bot with no seat here, is refused with 4403).

Frames are JSON text encoded by orjson (``jsonio.dumps``); ``serve`` offers no
permessage-deflate (frames are small: compressing cost more CPU than sending).

Client -> server: ``{"type": "act", "action": {...}}`` (the seat comes from
the token or the session, never from the message), ``{"type": "chat", "text"
| "phrase"}``, ``{"type": "chat_mute", "channel": "spectators", "muted"}``
(``chat.py``) and ``{"type": "ping"}``. An act may name
the ``"seq"`` of the state it was decided on (one of the last 8 this client
was sent; another seq, older or never sent: ``stale_seq``); without it, the last
state sent counts. "too slow" answers an action that state offered but that is
no longer legal, or no longer means the same (with Chaos: the card in that slot
changed). A client with 16 actions still queued is refused ``busy``. In a
real-time game a bot account's action waits ``min_reaction`` after the state it
answers before it goes to the table (``reaction.py``).

Limits (``Limits`` fields), on every socket, people's and programs' alike:

- Origin: a handshake with an ``Origin`` header is accepted only from the
  site's own pages or ``allowed_origins`` (``origin.py``); else an ``error``
  and close code 4403. No Origin header (a program, not a page): accepted.
- ``sockets_per_client`` sockets open per client address; the next one gets an
  ``error`` and close code 1013 (try again later).
- A frame over ``max_message_bytes`` gets an ``error`` and the socket lives
  (uvicorn's ``ws_max_size``, 1 MiB in ``serve``, closes with 1009 above that).
  Binary frames, JSON that is not strict (NaN, nesting deeper than
  ``jsonio.MAX_DEPTH``) and messages of the wrong shape get an ``error`` too.
- Rates, per socket: ``messages_per_second`` (burst ``message_burst``) and
  ``actions_per_second`` (burst ``action_burst``). Over them an act is
  ``rejected`` and any other message gets an ``error`` ("slow down: ..."),
  nothing applied; a socket that floods far past them (``flood_bursts``) is
  closed with 1008. Actions and chat are also counted per seat and per client
  address over all their sockets (``client_rates.py``), refused the same way.
  The table's own bots do not use sockets: they are not limited.

An unknown table closes the socket with code 4404, a token that holds no seat
with 4403 (after an ``error`` message saying why).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocketDisconnect

from coffeetable.server.errors import Elsewhere, TableError
from coffeetable.server.jsonio import JSONError, loads
from coffeetable.server.limits import Limits, client_key
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.origin import origin_refusal
from coffeetable.server.tables import seating
from coffeetable.server.players.api_keys import is_program
from coffeetable.server.tables import chat, reaction, wire
from coffeetable.server.tables.connections import (
    MAX_PENDING,
    OFFERS_KEPT,
    Connection,
    close_reason,
    encode,
)
from coffeetable.server.tables.table import Submission, Table

router = APIRouter()

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


async def refuse(websocket: WebSocket, reason: str, code: int) -> None:
    """Accept only to say why, then close with ``code``."""
    await websocket.accept()
    await websocket.send_text(encode(refusal_message(reason, code)))
    await websocket.close(code=code, reason=close_reason(reason))


def client_address(websocket: WebSocket) -> str:
    return client_key(websocket) or "unknown"


async def admit(websocket: WebSocket, lobby: Lobby) -> str | None:
    """Check the Origin and the socket quota; the client's address, or None if refused."""
    limits = lobby.limits
    refusal = origin_refusal(websocket.headers, websocket.url.scheme, limits.allowed_origins)
    if refusal is not None:
        await refuse(websocket, refusal, FORBIDDEN)
        return None
    address = client_address(websocket)
    if not await lobby.admit_socket(address):
        reason = f"too many connections from your address (at most {limits.sockets_per_client})"
        await refuse(websocket, reason + ": close one and try again", TRY_LATER)
        return None
    return address


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    websocket: WebSocket, table_id: str, token: str | None = None, watch: bool = False
) -> None:
    lobby: Lobby = websocket.app.state.lobby
    address = await admit(websocket, lobby)
    if address is None:
        return
    try:
        await _serve_table(websocket, lobby, table_id, token, watch, address)
    finally:
        await lobby.socket_closed(address)


async def _serve_table(
    websocket: WebSocket,
    lobby: Lobby,
    table_id: str,
    token: str | None,
    watch: bool = False,
    address: str | None = None,
) -> None:
    account = None
    since = time.monotonic()  # a revocation from now on reaches this socket
    if not token:  # a signed-in player's seat from any browser (the Origin was checked),
        # or a bot's by its API key (``Authorization: Bearer``; never in the URL)
        try:
            account = await websocket.app.state.players.account_for(websocket)
        except HTTPException as error:
            await refuse(websocket, str(error.detail), FORBIDDEN)
            return
    user_id = None if account is None else account.user_id
    program = account is not None and is_program(account)
    # Signing out or revoking the key closes the socket (``players/revocation.py``).
    opened_by = websocket.app.state.players.revocations.opened_by(account, since)
    try:
        table = await lobby.get(table_id)
    except Elsewhere as moved:  # another process runs it: relay this socket there
        assert lobby.cluster is not None
        username = None if account is None else account.username
        await lobby.cluster.relay.serve(
            websocket,
            moved.owner,
            table_id,
            token,
            user_id,
            username,
            watch,
            program,
            address,
            opened_by,
        )
        return
    except TableError as error:
        await refuse(websocket, error.detail, NOT_FOUND)
        return
    seat, refusal = seat_of_socket(table, token, user_id, watch, program)
    if refusal is not None:
        await refuse(websocket, refusal, FORBIDDEN)
        return
    await chat.load(table)
    await websocket.accept()
    conn = Connection(websocket, seat, lobby.limits)
    conn.address, conn.rates = address, lobby.rates
    if account is not None:
        conn.viewer_name = account.username
    table.attach(conn)
    opened_by.attach(conn)
    pump = asyncio.create_task(conn.pump())
    flooded = False
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if not handle_frame(conn, frame, partial(handle, table, conn)):
                flooded = True
                conn.close(POLICY, "you sent too many messages: this socket is closed")
                break
    except WebSocketDisconnect:
        pass
    finally:
        opened_by.detach(conn)
        table.detach(conn)
        if flooded:  # let the pump send what is queued, then the close frame
            with contextlib.suppress(Exception):
                await pump
        pump.cancel()
        lobby.release(table)


def seat_of_socket(
    table: Table, token: str | None, user_id: int | None, watch: bool, program: bool = False
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


def handle(table: Table, conn: Connection, message: dict[str, Any]) -> bool:
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


def act(table: Table, conn: Connection, message: dict[str, Any]) -> bool:
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
    if conn.rates is not None and (
        over := conn.rates.action_refusal(table.id, conn.seat, conn.address)
    ):  # the seat's or the address's other sockets spent them
        return _slow_down(conn, message, *over)
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
