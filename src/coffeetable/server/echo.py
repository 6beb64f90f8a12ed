"""``/ws/echo``: the bare cost of the stack, for benchmarks (benchmarks/bench_server.py).

Without ``group``, every text frame comes back to its sender: one frame in, one out.
With ``?group=NAME`` the socket joins the relay group NAME (at most ``MAX_GROUP``
sockets, a table's most seats) and every text frame goes to each socket of the group,
its sender included, in order: one frame in and one out to each seat, as an action at a
table sends, through the same ``Connection`` sends, with no game behind it.

The same Origin check, socket quota, size limit and message rate as a table's socket.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.tables import wire
from coffeetable.server.tables.connections import Connection, SocketRates, encode
from coffeetable.server.tables.inbox import POLICY, TRY_LATER, frame_size
from coffeetable.server.ws import admit, refuse

router = APIRouter()

#: Sockets a relay group holds: the most seats a game has.
MAX_GROUP = 6
#: Longest group name.
MAX_GROUP_NAME = 64


class EchoGroups:
    """The relay groups of one process, by name."""

    def __init__(self) -> None:
        self._groups: dict[str, set[Connection]] = {}

    def join(self, name: str, conn: Connection) -> set[Connection] | None:
        """The group ``conn`` now belongs to, or None if it is full."""
        members = self._groups.setdefault(name, set())
        if len(members) >= MAX_GROUP:
            return None
        members.add(conn)
        return members

    def leave(self, name: str, conn: Connection) -> None:
        members = self._groups.get(name)
        if members is not None:
            members.discard(conn)
            if not members:
                del self._groups[name]


@router.websocket("/ws/echo")
async def echo_socket(websocket: WebSocket, group: str | None = None) -> None:
    lobby: Lobby = websocket.app.state.lobby
    address = await admit(websocket, lobby)
    if address is None:
        return
    try:
        if group is not None and not (0 < len(group) <= MAX_GROUP_NAME and group.isprintable()):
            reason = f"a group is named by 1 to {MAX_GROUP_NAME} printable characters"
            await refuse(websocket, reason, POLICY)
            return
        await _serve_echo(websocket, lobby, group)
    finally:
        await lobby.socket_closed(address)


async def _serve_echo(websocket: WebSocket, lobby: Lobby, group: str | None) -> None:
    groups: EchoGroups = websocket.app.state.echo_groups
    await websocket.accept()
    conn = Connection(websocket, None, lobby.limits)
    members = {conn} if group is None else groups.join(group, conn)
    if members is None:
        reason = f"this echo group is full (at most {MAX_GROUP} sockets)"
        conn.send_json(wire.error(reason, wire.TOO_MANY_SOCKETS))
        conn.close(TRY_LATER, reason)
        await conn.pump()
        return
    pump = asyncio.create_task(conn.pump())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            reply, to_group = answer(frame, conn.throttle)
            if reply is None:
                conn.close(POLICY, "you sent too many messages: this socket is closed")
                with contextlib.suppress(Exception):
                    await pump
                break
            for member in members if to_group else (conn,):
                member.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        if group is not None:
            groups.leave(group, conn)
        pump.cancel()


def answer(frame: Mapping[str, Any], throttle: SocketRates) -> tuple[str | None, bool]:
    """What the echo answers a frame, and whether its whole group gets it (an error
    goes to its sender only); ``(None, False)``: close the socket, it floods."""
    text = frame.get("text")
    limit = throttle.limits.max_message_bytes
    if frame_size(text, frame.get("bytes")) > limit:
        return encode(wire.error(f"a message is at most {limit} bytes")), False
    if not throttle.messages.take():
        if not throttle.refused():
            return None, False
        return encode(wire.error(throttle.too_many_messages, wire.RATE)), False
    if text is None:
        return encode(wire.error("send text frames, not binary ones")), False
    return text, True
