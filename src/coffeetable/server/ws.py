"""WebSockets: ``/ws/tables/{id}?token=T`` to play or watch (``/ws/echo``: ``echo.py``).

Server -> client messages (JSON text frames, each built by ``tables/wire.py``; their
JSON Schemas: ``api/protocol.py``, served at ``GET /api/protocol``):

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
  every refusal's ``code`` is one of ``tables/wire.py``'s, with ``retry_after`` (seconds)
  where waiting helps (a rate, the countdown);
- ``{"type": "pong"}``: answer to ``{"type": "ping"}``;
- ``{"type": "chat_history", "messages"}`` on connect and ``{"type": "chat",
  "message"}``: the table's chat (``tables/chat.py``).

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
(``tables/chat.py``) and ``{"type": "ping"}``. An act may name
the ``"seq"`` of the state it was decided on (one of the last 8 this client
was sent; another seq, older or never sent: ``stale_seq``); without it, the last
state sent counts. "too slow" answers an action that state offered but that is
no longer legal, or no longer means the same (with Chaos: the card in that slot
changed). A client with 16 actions still queued is refused ``busy``. In a
real-time game a bot account's action waits ``min_reaction`` after the state it
answers before it goes to the table (``tables/reaction.py``).

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
  address over all their sockets (``tables/client_rates.py``), refused the same way.
  The table's own bots do not use sockets: they are not limited.

An unknown table closes the socket with code 4404, a token that holds no seat
with 4403 (after an ``error`` message saying why).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from functools import partial
from typing import TYPE_CHECKING, cast

from fastapi import APIRouter, WebSocket
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocketDisconnect

from coffeetable.server.errors import Elsewhere, TableError
from coffeetable.server.limits import client_key
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.origin import origin_refusal
from coffeetable.server.players.api_keys import is_program
from coffeetable.server.tables import chat
from coffeetable.server.tables.connections import Connection, close_reason, encode
from coffeetable.server.tables.inbox import (
    FORBIDDEN,
    NOT_FOUND,
    POLICY,
    TRY_LATER,
    handle,
    handle_frame,
    refusal_message,
    seat_of_socket,
)

if TYPE_CHECKING:
    from coffeetable.server.cluster.node import Cluster

router = APIRouter()


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
        cluster = cast("Cluster", lobby.cluster)  # the lobby's link is its process's Cluster
        username = None if account is None else account.username
        await cluster.relay.serve(
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
        conn.user_id = account.user_id
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
