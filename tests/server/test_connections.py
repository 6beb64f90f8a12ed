"""A connection writes at once when it can, and in order through its pump when not."""

from __future__ import annotations

import asyncio

from coffeetable.server.tables.connections import MAX_BACKLOG, Connection


class SlowSocket:
    """A socket whose sends wait while ``full`` (as uvicorn's do on a full buffer)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.room = asyncio.Event()
        self.room.set()

    async def send_text(self, text: str) -> None:
        await self.room.wait()
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_a_free_socket_is_written_at_once_and_a_full_one_in_order_later() -> None:
    async def scenario() -> None:
        socket = SlowSocket()
        conn = Connection(socket, 0)  # type: ignore[arg-type]
        pump = asyncio.create_task(conn.pump())
        conn.send("a")
        assert socket.sent == ["a"]  # no task switch needed
        socket.room.clear()  # the kernel's buffer is full
        conn.send("b")
        conn.send("c")
        conn.send_json({"type": "pong"})
        await asyncio.sleep(0.01)
        assert socket.sent == ["a"]
        socket.room.set()
        await asyncio.sleep(0.01)
        assert socket.sent == ["a", "b", "c", '{"type":"pong"}']
        conn.send("d")  # the pump is idle again: at once
        assert socket.sent[-1] == "d"
        conn.close(1000, "bye")
        conn.send("e")  # after close: dropped
        await asyncio.wait_for(pump, 1)
        assert socket.closed == (1000, "bye") and socket.sent[-1] == "d"

    asyncio.run(scenario())


def test_a_client_that_stops_reading_is_closed_not_waited_for() -> None:
    async def scenario() -> None:
        socket = SlowSocket()
        socket.room.clear()
        conn = Connection(socket, None)  # type: ignore[arg-type]
        pump = asyncio.create_task(conn.pump())
        for index in range(MAX_BACKLOG + 5):
            conn.send(str(index))
        assert conn.closed and conn.close_code == 1008
        pump.cancel()
        await asyncio.gather(pump, return_exceptions=True)

    asyncio.run(scenario())
