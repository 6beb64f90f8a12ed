"""The benchmark's clients: a bare WebSocket client on asyncio protocols, and its workers.

The server is what ``bench_server.py`` measures, so its clients must cost little: each
socket here is an ``asyncio.Protocol`` that reacts to frames in callbacks (no task per
socket, no library framing); a state is parsed only as far as the client needs
(its ``seq`` and ``legal``, and whether its ``events`` hold the client's own move).
Client frames are masked with the all-zero key (RFC 6455 lets a client pick any key;
the server unmasks whatever it gets), so sending is one header and the payload.

Clients run in worker processes (``multiprocessing``, fork) so that many sockets fit
under each process's file-descriptor limit, and report their figures over a pipe.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import random
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from typing import Any

import orjson

ECHO_MESSAGE = orjson.dumps({"type": "act", "action": {"type": "flip", "count": 3}})


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def frame(opcode: int, payload: bytes) -> bytes:
    """A final client frame, masked with the zero key (so the payload goes as it is)."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


class Socket(asyncio.Protocol):
    """One WebSocket client: the handshake, then text frames to ``on_text``."""

    def __init__(self, host: str, path: str) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n\r\n"
        ).encode()
        self.buffer = bytearray()
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.handshaken = False
        self.closed = False

    def connection_made(self, transport: Any) -> None:
        self.transport = transport  # uvloop's transports are no asyncio.Transport subclasses
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("closed during the handshake"))

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if not self.handshaken:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(bytes(buffer[:60]).decode("latin-1")))
                return
            del buffer[: end + 4]
            self.handshaken = True
            self.opened.set_result(None)
        while len(buffer) >= 2:
            opcode, size, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if size == 126:
                if len(buffer) < 4:
                    return
                size, start = int.from_bytes(buffer[2:4], "big"), 4
            elif size == 127:
                if len(buffer) < 10:
                    return
                size, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + size:
                return
            payload = bytes(buffer[start : start + size])
            del buffer[: start + size]
            if opcode == 1:
                self.on_text(payload)
            elif opcode == 9:  # the server's keepalive ping
                self.write(frame(10, payload))
            elif opcode == 8:
                self.close()

    def on_text(self, payload: bytes) -> None:
        """A text frame from the server (idle sockets ignore them)."""

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self.closed:
            self.transport.write(data)

    def send(self, payload: bytes) -> None:
        self.write(frame(1, payload))

    def close(self) -> None:
        if self.transport is not None and not self.closed:
            self.closed = True
            self.transport.write(frame(8, (1000).to_bytes(2, "big")))
            self.transport.close()


@dataclass
class Load:
    """What every acting client shares: the clock of the phase, the think time, figures."""

    stop: float = 0.0
    think: float = 0.0
    rtts: list[float] = field(default_factory=list)
    refused: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)
    active: int = 0

    def delay(self) -> float:
        """A player's thinking time: uniform in [0.5, 1.5] x ``think`` (0: none)."""
        return self.think * (0.5 + random.random()) if self.think > 0 else 0.0

    def finished(self) -> None:
        self.active -= 1
        if self.active == 0:
            self.done.set()


class Actor(Socket):
    """A client that acts whenever nothing of its own is in flight, timing each round trip."""

    sent_at: float | None = None
    planned = False
    finished = False

    def __init__(self, host: str, path: str) -> None:
        super().__init__(host, path)
        self.load = Load()  # until a phase starts (stop 0: nothing to do)

    def plan(self) -> None:
        """Act after thinking (or stop, once the phase is over)."""
        if self.planned or self.finished:
            return
        if time.perf_counter() >= self.load.stop:
            self.finished = True
            self.load.finished()
            return
        self.planned = True
        asyncio.get_running_loop().call_later(self.load.delay(), self.act)

    def act(self) -> None:
        self.planned = False

    def answered(self) -> None:
        assert self.sent_at is not None
        self.load.rtts.append(time.perf_counter() - self.sent_at)
        self.sent_at = None
        self.plan()


class Echo(Actor):
    """Sends an action-sized message to ``/ws/echo`` and waits for it to come back."""

    def act(self) -> None:
        super().act()
        self.sent_at = time.perf_counter()
        self.send(ECHO_MESSAGE)

    def on_text(self, payload: bytes) -> None:
        if self.sent_at is not None:
            self.answered()


class Relay(Actor):
    """A member of an ``/ws/echo?group=`` relay group: sends an action-sized message that
    names it and waits for it to come back; the group's other frames (one for each
    member's message, as a table sends each seat a state per action) are only read."""

    def __init__(self, host: str, path: str, member: int) -> None:
        super().__init__(host, path)
        self.mark = b'"from":%d}' % member
        self.message = ECHO_MESSAGE[:-1] + b"," + self.mark

    def act(self) -> None:
        super().act()
        self.sent_at = time.perf_counter()
        self.send(self.message)

    def on_text(self, payload: bytes) -> None:
        if self.sent_at is not None and payload.endswith(self.mark):
            self.answered()


class Player(Actor):
    """A seat: plays its first legal action (a play if any) from the last state it got.

    Round trip: from sending an action to receiving the state whose ``events`` hold
    an event of this seat (events ride in states); "rejected" ends the wait too.
    """

    def __init__(self, host: str, path: str, seat: int) -> None:
        super().__init__(host, path)
        self.mark = b'"seat":%d' % seat
        self.last: bytes | None = None

    def on_text(self, payload: bytes) -> None:
        if payload.startswith(b'{"type":"state"'):
            self.last = payload
            if self.sent_at is not None:
                if self.sent_at < 0:  # (an older server) its event came apart
                    self.sent_at = -self.sent_at
                    self.answered()
                elif self.mark in payload[payload.rfind(b',"events":') :]:
                    self.answered()
            elif self.load.stop and not self.planned:
                self.plan()
        elif payload.startswith(b'{"type":"event"'):  # servers before events rode in states
            if self.sent_at is not None and self.mark in payload:
                self.sent_at = -self.sent_at  # ours is in: its state comes next
        elif payload.startswith(b'{"type":"rejected"'):
            self.load.refused += 1
            self.sent_at = None
            self.plan()

    def act(self) -> None:
        super().act()
        state = self.last
        if state is None or self.finished:
            return
        legal = orjson.loads(state[state.index(b',"legal":') + 9 : state.index(b',"actors":')])
        if not legal:
            return  # the next state will say when there is something to do
        plays = [action for action in legal if action["type"] in ("play", "joker")]
        seq = int(state[22 : state.index(b",", 22)])  # '{"type":"state","seq":' is 22 bytes
        self.sent_at = time.perf_counter()
        self.send(orjson.dumps({"type": "act", "action": (plays or legal)[0], "seq": seq}))


async def open_sockets(
    host: str, port: int, targets: list[tuple[str, Any]], at_once: int = 200
) -> list[Socket]:
    """Open one socket per (path, seat) target (seat None: an idle socket; "echo": an
    echo; ("relay", member): a relay group's member; an int: a table's seat)."""
    loop = asyncio.get_running_loop()
    limit = asyncio.Semaphore(at_once)

    async def one(path: str, seat: Any) -> Socket:
        async with limit:
            if seat == "echo":
                make: Any = lambda: Echo(f"{host}:{port}", path)  # noqa: E731
            elif isinstance(seat, tuple):  # ("relay", member)
                make = lambda: Relay(f"{host}:{port}", path, seat[1])  # noqa: E731
            elif seat is None:
                make = lambda: Socket(f"{host}:{port}", path)  # noqa: E731
            else:
                make = lambda: Player(f"{host}:{port}", path, seat)  # noqa: E731
            _, sock = await loop.create_connection(make, host, port)
            await asyncio.wait_for(sock.opened, 60)
            return sock

    return list(await asyncio.gather(*(one(path, seat) for path, seat in targets)))


def worker(pipe: Pipe, host: str, port_targets: list[tuple[int, str, Any]]) -> None:
    """A client process: open the sockets, report "open", then follow the parent's orders.

    Orders: ("run", seconds to start, seconds, think) plays a phase and answers its
    figures; ("close",) closes every socket and ends the process.
    """
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(_work(pipe, host, port_targets))
    except Exception as error:  # say why instead of leaving the parent waiting
        pipe.send(("failed", f"{type(error).__name__}: {error}"))


async def _work(pipe: Pipe, host: str, port_targets: list[tuple[int, str, Any]]) -> None:
    loop = asyncio.get_running_loop()
    sockets: list[Socket] = []
    try:
        by_port: dict[int, list[tuple[str, Any]]] = {}
        for port, path, seat in port_targets:
            by_port.setdefault(port, []).append((path, seat))
        for port, targets in by_port.items():
            sockets += await open_sockets(host, port, targets)
        pipe.send(("open", len(sockets)))
    except Exception as error:  # say why instead of hanging the parent
        pipe.send(("failed", f"{type(error).__name__}: {error}"))
        return
    while True:
        order = await loop.run_in_executor(None, pipe.recv)
        if order[0] == "close":
            for sock in sockets:
                sock.close()
            await asyncio.sleep(0.5)
            pipe.send(("closed",))
            return
        _, start_in, seconds, think = order
        await asyncio.sleep(start_in)
        actors = [sock for sock in sockets if isinstance(sock, Actor)]
        load = Load(stop=time.perf_counter() + seconds, think=think, active=len(actors))
        cpu = time.process_time()
        for sock in actors:
            sock.load = load
            sock.finished = False
            sock.plan()
        if actors:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(load.done.wait(), seconds + 30)
        pipe.send(("ran", load.rtts, load.refused, time.process_time() - cpu))
