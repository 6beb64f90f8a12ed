"""WebSockets: ``/ws/tables/{id}?token=T`` to play or watch, ``/ws/echo`` for benchmarks.

Server -> client messages (JSON text frames):

- ``{"type": "table", "table": summary}``: on connect and whenever seats change;
- ``{"type": "history", "events": [...]}``: on connect, the match's last public
  events (at most ``tables.HISTORY``), so a board can tell its log again;
- ``{"type": "state", "seq", "view", "legal", "actors"}``: on connect and after
  every change (``legal``: this seat's actions now; empty for spectators); with
  ``"clock": {"left": [seconds per seat], "running": seat | null}`` on tables
  with a clock (``clock_minutes``);
- ``{"type": "event", "event"}``: public events of an action, before its state;
  ``{"type": "countdown", "seconds"}`` after ``round_started``;
  ``{"type": "clock", "seat", "expired": true}`` when a seat's time ran out;
- ``{"type": "rejected", "reason", "action"}``: your action was refused;
- ``{"type": "error", "reason"}``: a malformed message (nothing changed);
- ``{"type": "pong"}``: answer to ``{"type": "ping"}``.

Client -> server: ``{"type": "act", "action": {...}}`` (the seat comes from
the token, never from the message) and ``{"type": "ping"}``. An act may name
the ``"seq"`` of the state it was decided on (one of the last 8 this client
was sent; older: "too slow"); without it, the last state sent counts. "too
slow" answers an action that state offered but that is no longer legal, or no
longer means the same (with Chaos: the card in that slot changed). A client
with 16 actions still queued is refused "slow down".

An unknown table closes the socket with code 4404, a token that holds no seat
with 4403 (after an ``error`` message saying why).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from coffeetable.server.connections import MAX_PENDING, Connection, dumps
from coffeetable.server.lobby import Lobby, TableError
from coffeetable.server.tables import Submission, Table

router = APIRouter()
log = logging.getLogger("coffeetable.server")


async def _refuse(websocket: WebSocket, reason: str, code: int) -> None:
    await websocket.accept()
    await websocket.send_text(dumps({"type": "error", "reason": reason}))
    await websocket.close(code=code, reason=reason[:120])


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
    lobby: Lobby = websocket.app.state.lobby
    try:
        table = await lobby.get(table_id)
    except TableError as error:
        await _refuse(websocket, error.detail, 4404)
        return
    seat = None
    if token:
        seat = table.seat_for_token(token)
        if seat is None:
            await _refuse(websocket, "this token holds no seat at this table", 4403)
            return
    await websocket.accept()
    conn = Connection(websocket, seat)
    table.attach(conn)
    pump = asyncio.create_task(conn.pump())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.send_json({"type": "error", "reason": "send JSON in text frames"})
                continue
            handle(table, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        table.detach(conn)
        pump.cancel()
        lobby.release(table)


def handle(table: Table, conn: Connection, text: str) -> None:
    """One client message; a malformed one gets an error and changes nothing."""
    try:
        message = json.loads(text)
    except ValueError:
        conn.send_json({"type": "error", "reason": "a message must be JSON"})
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        conn.send_json({"type": "error", "reason": "a message is a JSON object with a 'type'"})
        return
    kind = message["type"]
    if kind == "ping":
        conn.send_json({"type": "pong"})
    elif kind == "act":
        act(table, conn, message)
    else:
        conn.send_json({"type": "error", "reason": f"unknown message type {kind!r}"})


def act(table: Table, conn: Connection, message: dict[str, Any]) -> None:
    """Queue the action for the connection's seat, with what it was offered."""
    action, seq = message.get("action"), message.get("seq")
    if not isinstance(action, dict):
        conn.send_json({"type": "error", "reason": "'act' needs an 'action' object"})
        return
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        conn.send_json({"type": "error", "reason": "'seq' is the seq of a state you were sent"})
        return
    reason = None
    offer = conn.offer(seq)
    if conn.seat is None:
        reason = "spectators cannot act"
    elif conn.pending >= MAX_PENDING:
        reason = "slow down"
    elif offer is None and seq is not None:
        reason = "too slow"  # it acted on a state older than the ones kept
    if reason is not None:
        conn.send_json({"type": "rejected", "reason": reason, "action": action})
        return
    legal = [] if offer is None else offer.legal
    key = None if offer is None else offer.key_of(action)
    table.submit(Submission(conn.seat, action, legal, conn, key))


@router.websocket("/ws/echo")
async def echo_socket(websocket: WebSocket) -> None:
    """Sends every text frame back: the bare cost of the stack, for benchmarks."""
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass
