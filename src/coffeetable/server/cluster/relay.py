"""WebSockets whose table another process runs.

The process that holds the socket (the *socket side*) keeps it: the Origin
check, the socket quota, the size and message-rate limits all apply there, as
for a local table (the action and chat rates, per socket, per seat and per
client address, apply on the owner, which is told the socket's address). Each
message that passes is relayed to the table's owner, in order, on the bus. On
the owner (the *table side*) a ``RemoteConnection`` stands for the socket in
the table's ``connections``: the table attaches it, seats it, counts it
(presence, grace, spectators, abandon) and sends it its own seat's states,
exactly as a local client, and each text it is sent goes back to the socket
side, to that one socket only.

The socket side completes the handshake only once the owner answered the open
(``ws_ready`` once the table counts the socket, or a refusal): from the moment a
page's socket is open, the table knows the person is there, as for a local socket
(a move made then tells them no "your turn": ``tables/news.py``). What the owner
sends before the socket is accepted waits, in order.

If the owner dies, the socket side closes its sockets with 1012 ("service
restart"), and the pages reconnect (to any process) by themselves; if the
socket side dies, the owner drops its remote connections.

The owner may ask whether a socket is still open (``RemoteConnection.still_open``,
for a "your turn" at a seat present only through other processes): the socket side
answers after everything it sent before about that socket, its goodbye included.

Bus messages: ``ws_open`` / ``ws_in`` / ``ws_bye`` / ``ws_checked`` go to the owner;
``ws_ready`` / ``ws_out`` / ``ws_close`` / ``ws_check`` come back.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from starlette.websockets import WebSocket, WebSocketDisconnect

from coffeetable.server.errors import Elsewhere, TableError
from coffeetable.server.tables import chat, inbox
from coffeetable.server.tables.connections import Connection, close_reason, encode

if TYPE_CHECKING:
    from coffeetable.server.cluster.bus import Bus, Message
    from coffeetable.server.lobby.lobby import Lobby
    from coffeetable.server.players.revocation import OpenedBy
    from coffeetable.server.tables.face import TableFace

log = logging.getLogger("coffeetable.cluster")

#: Close codes: the server restarts (reconnect), no such table.
RESTART, NOT_FOUND, POLICY = 1012, 4404, 1008
#: How long a socket waits for its table's owner to answer its open, and the owner for
#: an answer to ``still_open`` (seconds).
OPENING_SECONDS = 10.0


class Node(Protocol):
    """What the relay uses of its process's ``Cluster`` (``node.py``, which makes it)."""

    @property
    def me(self) -> str:
        """This process's name (its bus channel)."""

    @property
    def bus(self) -> Bus: ...

    @property
    def lobby(self) -> Lobby: ...


class RemoteConnection(Connection):
    """A client of a local table whose socket another process holds."""

    remote = True

    def __init__(self, relay: Relay, process: str, conn_id: str, seat: int | None) -> None:
        super().__init__(None, seat, relay.cluster.lobby.limits)  # type: ignore[arg-type]
        self.relay = relay
        self.cluster = relay.cluster
        self.process = process
        self.conn_id = conn_id

    async def still_open(self) -> bool:
        if self.closed:
            return False
        return await self.relay.check(self)

    def send(self, text: str) -> None:
        if not self.closed:
            self.cluster.bus.send(
                self.process, {"kind": "ws_out", "conn": self.conn_id, "text": text}
            )

    def close(self, code: int = 1008, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            message = {"kind": "ws_close", "conn": self.conn_id, "code": code}
            self.cluster.bus.send(self.process, {**message, "reason": close_reason(reason)})

    async def pump(self) -> None:  # nothing to pump: ``send`` forwards at once
        return


@dataclass
class _Opening:
    """A socket whose owner has not answered its open yet, and what came back meanwhile."""

    owner: str
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    early: list[Message] = field(default_factory=list)


@dataclass
class _Remote:
    """The table side of one relayed socket (messages wait until it is attached)."""

    table: TableFace | None = None
    conn: RemoteConnection | None = None
    waiting: list[Message] = field(default_factory=list)


class Relay:
    """Both sides of relayed sockets for one process."""

    def __init__(self, cluster: Node) -> None:
        self.cluster = cluster
        #: Socket side: our sockets whose table is elsewhere: id -> (connection, owner).
        self.sockets: dict[str, tuple[Connection, str]] = {}
        #: Socket side: sockets in their handshake, waiting for the owner's answer.
        self.opening: dict[str, _Opening] = {}
        #: Table side: (process, id) -> the remote connection at our table.
        self.remotes: dict[tuple[str, str], _Remote] = {}
        #: Table side: ``still_open`` questions awaiting their answer, by number.
        self.checks: dict[int, asyncio.Future[bool]] = {}
        self._ids = itertools.count(1)
        bus = cluster.bus
        bus.handlers.update(
            ws_open=self._on_open,
            ws_in=self._on_in,
            ws_bye=self._on_bye,
            ws_check=self._on_check,
            ws_checked=self._on_checked,
            ws_ready=self._on_ready,
            ws_out=self._on_out,
            ws_close=self._on_close,
        )

    # -- the socket side ---------------------------------------------------------

    async def serve(
        self,
        websocket: WebSocket,
        owner: str,
        table_id: str,
        token: str | None,
        user_id: int | None,
        username: str | None,
        watch: bool,
        program: bool = False,
        address: str | None = None,
        opened_by: OpenedBy | None = None,
    ) -> None:
        """Hold ``websocket`` for a table ``owner`` runs, until either side closes.
        ``address``: the client's, for the owner's per-address counts; ``opened_by``: its
        session or key, whose revocation closes it."""
        cluster = self.cluster
        conn_id = f"{next(self._ids)}"
        waiting = self.opening[conn_id] = _Opening(owner)
        opening = {"kind": "ws_open", "conn": conn_id, "from": cluster.me, "table": table_id}
        cluster.bus.send(
            owner,
            {
                **opening,
                "token": token,
                "user_id": user_id,
                "username": username,
                "watch": watch,
                "program": program,
                "address": address,
            },
        )
        try:  # the handshake completes once the table counts this socket (or refused it)
            await asyncio.wait_for(waiting.answered.wait(), OPENING_SECONDS)
        except TimeoutError:
            cluster.bus.send(owner, {"kind": "ws_bye", "conn": conn_id, "from": cluster.me})
            waiting.early.append({"code": RESTART, "reason": "the table's server is slow"})
        except BaseException:  # cancelled: this process stops
            self.opening.pop(conn_id, None)
            cluster.bus.send(owner, {"kind": "ws_bye", "conn": conn_id, "from": cluster.me})
            raise
        try:
            await websocket.accept()
        except (WebSocketDisconnect, RuntimeError, OSError):  # the client left meanwhile
            self.opening.pop(conn_id, None)
            cluster.bus.send(owner, {"kind": "ws_bye", "conn": conn_id, "from": cluster.me})
            return
        conn = Connection(websocket, None, cluster.lobby.limits)
        self.sockets[conn_id] = (conn, owner)
        del self.opening[conn_id]
        for early in waiting.early:  # in order, before anything that comes next
            self._to_socket(conn, early)
        if opened_by is not None:
            opened_by.attach(conn)
        pump = asyncio.get_running_loop().create_task(conn.pump())

        def deliver(message: Message) -> bool:
            cluster.bus.send(
                owner, {"kind": "ws_in", "conn": conn_id, "from": cluster.me, "message": message}
            )
            return True

        try:
            while not conn.closed:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                if not inbox.handle_frame(conn, dict(frame), deliver):
                    conn.close(POLICY, "you sent too many messages: this socket is closed")
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if opened_by is not None:
                opened_by.detach(conn)
            self.sockets.pop(conn_id, None)
            cluster.bus.send(owner, {"kind": "ws_bye", "conn": conn_id, "from": cluster.me})
            conn.close(RESTART, "")
            try:
                await asyncio.wait_for(pump, 2.0)
            except (TimeoutError, Exception):
                pump.cancel()

    def _on_ready(self, message: Message) -> None:
        waiting = self.opening.get(message["conn"])
        if waiting is not None:
            waiting.answered.set()

    def _on_out(self, message: Message) -> None:
        self._from_owner(message)

    def _on_close(self, message: Message) -> None:
        self._from_owner(message)

    def _from_owner(self, message: Message) -> None:
        """A text or a close for one of our sockets (kept, if it is still opening)."""
        found = self.sockets.get(message["conn"])
        if found is not None:
            self._to_socket(found[0], message)
            return
        waiting = self.opening.get(message["conn"])
        if waiting is not None:  # a refusal, or the owner's first texts: an answer too
            waiting.early.append(message)
            waiting.answered.set()

    @staticmethod
    def _to_socket(conn: Connection, message: Message) -> None:
        if "text" in message:
            conn.send(message["text"])
        else:
            conn.close(message["code"], message.get("reason", ""))

    def _on_check(self, message: Message) -> None:
        """Is this socket still open? (Anything we sent of it, its goodbye, went before.)"""
        found = self.sockets.get(message["conn"])
        is_open = message["conn"] in self.opening or (found is not None and not found[0].closed)
        answer = {"kind": "ws_checked", "check": message["check"], "open": is_open}
        self.cluster.bus.send(message["from"], answer)

    def owners(self) -> set[str]:
        """The processes our relayed sockets' tables are on."""
        return {owner for _, owner in self.sockets.values()}

    def restart(self) -> None:
        """This process stops: every socket it holds (opening ones too) reconnects."""
        reason = "the server restarts: reconnecting"
        for conn, _ in list(self.sockets.values()):
            conn.close(RESTART, reason)
        for waiting in self.opening.values():
            waiting.early.append({"code": RESTART, "reason": reason})
            waiting.answered.set()

    def owner_gone(self, owner: str) -> None:
        """``owner`` died: its tables' sockets are told to reconnect."""
        for conn, their_owner in list(self.sockets.values()):
            if their_owner == owner:
                conn.close(RESTART, "the table moves to another server: reconnecting")
        for waiting in self.opening.values():
            if waiting.owner == owner:
                waiting.early.append({"code": RESTART, "reason": "the table moves: reconnecting"})
                waiting.answered.set()

    # -- the table side ----------------------------------------------------------

    async def _on_open(self, message: Message) -> None:
        key = (message["from"], message["conn"])
        remote = self.remotes[key] = _Remote()
        cluster = self.cluster
        reply = {"conn": message["conn"]}
        try:
            table = await cluster.lobby.get(message["table"])
        except Elsewhere:
            self.remotes.pop(key, None)
            cluster.bus.send(
                key[0], {**reply, "kind": "ws_close", "code": RESTART, "reason": "moved"}
            )
            return
        except TableError as error:
            self.remotes.pop(key, None)
            self._refuse(key, error.detail, NOT_FOUND)
            return
        seat, refusal = inbox.seat_of_socket(
            table,
            message.get("token"),
            message.get("user_id"),
            bool(message.get("watch")),
            bool(message.get("program")),
        )
        if refusal is not None:
            self.remotes.pop(key, None)
            self._refuse(key, refusal, inbox.FORBIDDEN)
            return
        await chat.load(table)
        if self.remotes.get(key) is not remote:  # it said goodbye meanwhile
            return
        conn = RemoteConnection(self, key[0], key[1], seat)
        conn.address, conn.rates = message.get("address"), cluster.lobby.rates
        if message.get("username"):
            conn.viewer_name = message["username"]
        if isinstance(message.get("user_id"), int):
            conn.user_id = message["user_id"]
        remote.table, remote.conn = table, conn
        # Ready first, then counted at once (no await between): by the time the socket's
        # handshake completes there, the table knows this person is at it.
        cluster.bus.send(key[0], {"kind": "ws_ready", "conn": key[1]})
        table.attach(conn)
        for waiting in remote.waiting:
            inbox.handle(table, conn, waiting)
        remote.waiting.clear()

    async def check(self, conn: RemoteConnection) -> bool:
        """Ask ``conn``'s process whether its socket is still open (by the time the answer
        comes, its goodbye, if it was gone, was handled here). No answer: not open."""
        number = next(self._ids)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.checks[number] = future
        question = {"kind": "ws_check", "conn": conn.conn_id, "check": number}
        self.cluster.bus.send(conn.process, {**question, "from": self.cluster.me})
        try:
            return await asyncio.wait_for(future, OPENING_SECONDS)
        except TimeoutError:
            return False
        finally:
            self.checks.pop(number, None)

    def _on_checked(self, message: Message) -> None:
        future = self.checks.get(message["check"])
        if future is not None and not future.done():
            future.set_result(bool(message["open"]))

    def _refuse(self, key: tuple[str, str], reason: str, code: int) -> None:
        bus = self.cluster.bus
        text = encode(inbox.refusal_message(reason, code))
        bus.send(key[0], {"kind": "ws_out", "conn": key[1], "text": text})
        bus.send(
            key[0],
            {"kind": "ws_close", "conn": key[1], "code": code, "reason": close_reason(reason)},
        )

    def _on_in(self, message: Message) -> None:
        remote = self.remotes.get((message["from"], message["conn"]))
        if remote is None:
            return
        if remote.conn is None or remote.table is None:
            remote.waiting.append(message["message"])
        elif not inbox.handle(remote.table, remote.conn, message["message"]):
            remote.conn.close(POLICY, "you sent too many messages: this socket is closed")

    def _on_bye(self, message: Message) -> None:
        remote = self.remotes.pop((message["from"], message["conn"]), None)
        if remote is not None and remote.table is not None and remote.conn is not None:
            remote.conn.closed = True  # its socket is gone: nothing more to send
            remote.table.detach(remote.conn)
            self.cluster.lobby.release(remote.table)

    def processes(self) -> set[str]:
        """The processes holding sockets of our tables."""
        return {process for process, _ in self.remotes}

    def process_gone(self, process: str) -> None:
        """``process`` died: its sockets left our tables."""
        for key in [key for key in self.remotes if key[0] == process]:
            self._on_bye({"from": key[0], "conn": key[1]})

    def table_dropped(self, table: TableFace) -> None:
        """We no longer run ``table``: forget its remote connections (the table closed them)."""
        for key, remote in list(self.remotes.items()):
            if remote.table is table:
                del self.remotes[key]
