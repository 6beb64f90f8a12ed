"""Messages between processes: one Redis channel per process, calls with answers.

``send(process, message)`` queues a message for another process; one task per
destination publishes them in order, so what one process sends another
arrives in the order it was sent. ``broadcast(message)`` sends one to every
process (this one too), on a channel they all listen to. ``call(process, op,
args)`` sends a call and waits for its answer on this process's own channel.
Messages are JSON (orjson) objects with a ``kind``; the cluster registers a
handler per kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from coffeetable.server.errors import OwnerGone

log = logging.getLogger("coffeetable.cluster")

Message = dict[str, Any]
Handler = Callable[[Message], Awaitable[None] | None]
#: A call's answer: ("ok", result) | ("error", [status, detail, retry_after]) | ("moved", owner).
Answer = tuple[str, Any]
#: The destination of ``broadcast``: every process listens on its channel.
EVERYONE = "*"


class Bus:
    """This process's channel, its ordered outboxes, and calls awaiting answers."""

    def __init__(self, redis: Any, prefix: str, me: str, call_timeout: float = 10.0) -> None:
        self.redis = redis
        self.prefix = prefix
        self.me = me
        self.call_timeout = call_timeout
        self.handlers: dict[str, Handler] = {"answer": self._on_answer}
        self._outboxes: dict[str, asyncio.Queue[bytes]] = {}
        self._publishers: dict[str, asyncio.Task[None]] = {}
        self._calls: dict[int, asyncio.Future[Answer]] = {}
        self._numbers = itertools.count(1)
        self._listener: asyncio.Task[None] | None = None
        self._pubsub: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    def channel(self, process: str) -> str:
        if process == EVERYONE:
            return f"{self.prefix}:everyone"
        return f"{self.prefix}:inbox:{process}"

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel(self.me), self.channel(EVERYONE))
        self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def close(self) -> None:
        """Send what is queued (briefly), then stop listening."""
        for queue in self._outboxes.values():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_drained(queue), 2.0)
        tasks = [*self._publishers.values(), *self._tasks]
        if self._listener is not None:
            tasks.append(self._listener)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        for future in self._calls.values():
            if not future.done():
                future.set_exception(OwnerGone("this process is shutting down"))

    # -- sending -----------------------------------------------------------------

    def send(self, process: str, message: Message) -> None:
        """Queue ``message`` for ``process`` (in order with everything sent it before)."""
        queue = self._outboxes.get(process)
        if queue is None:
            queue = self._outboxes[process] = asyncio.Queue()
            task = asyncio.get_running_loop().create_task(self._publish(process, queue))
            self._publishers[process] = task
        queue.put_nowait(orjson.dumps(message))

    def broadcast(self, message: Message) -> None:
        """Queue ``message`` for every process (this one gets it too)."""
        self.send(EVERYONE, message)

    async def _publish(self, process: str, queue: asyncio.Queue[bytes]) -> None:
        channel = self.channel(process)
        while True:
            data = await queue.get()
            # Whatever queued up meanwhile goes in the same round trip, in order.
            batch = [data]
            while not queue.empty() and len(batch) < 256:
                batch.append(queue.get_nowait())
            try:
                if len(batch) == 1:
                    await self.redis.publish(channel, batch[0])
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for item in batch:
                            pipe.publish(channel, item)
                        await pipe.execute()
            except Exception:
                log.exception("could not publish to %s", process)
            for _ in batch:
                queue.task_done()

    def forget(self, process: str) -> None:
        """``process`` is dead: drop its outbox."""
        task = self._publishers.pop(process, None)
        if task is not None:
            task.cancel()
        self._outboxes.pop(process, None)

    # -- calls -------------------------------------------------------------------

    async def call(self, process: str, op: str, args: Message) -> Answer:
        """Ask ``process`` to run ``op(**args)``; its answer, or ``OwnerGone``."""
        number = next(self._numbers)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._calls[number] = future
        self.send(process, {"kind": "call", "id": number, "op": op, "args": args, "from": self.me})
        try:
            return await asyncio.wait_for(future, self.call_timeout)
        except TimeoutError:
            raise OwnerGone(f"{process} did not answer {op}") from None
        finally:
            self._calls.pop(number, None)

    def answer(self, message: Message, outcome: str, value: Any) -> None:
        """Answer the call ``message``."""
        self.send(
            message["from"],
            {"kind": "answer", "id": message["id"], "outcome": outcome, "value": value},
        )

    def _on_answer(self, message: Message) -> None:
        future = self._calls.get(message["id"])
        if future is not None and not future.done():
            future.set_result((message["outcome"], message["value"]))

    # -- receiving -----------------------------------------------------------------

    async def _listen(self) -> None:
        """Read our channel; if Redis drops the connection, subscribe again."""
        while True:
            try:
                await self._listen_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the bus channel: subscribing again in a second")
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()
                self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(self.channel(self.me), self.channel(EVERYONE))

    async def _listen_once(self) -> None:
        async for item in self._pubsub.listen():
            try:
                message = orjson.loads(item["data"])
                handler = self.handlers.get(message.get("kind"))
                if handler is None:
                    log.warning("no handler for a %r message", message.get("kind"))
                    continue
                outcome = handler(message)
                if outcome is not None:  # a coroutine: run it beside the listener
                    task = asyncio.get_running_loop().create_task(_logged(outcome))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            except Exception:
                log.exception("a bus message failed")


async def _logged(work: Awaitable[None]) -> None:
    try:
        await work
    except Exception:
        log.exception("a bus handler failed")


async def _drained(queue: asyncio.Queue[bytes]) -> None:
    await queue.join()
