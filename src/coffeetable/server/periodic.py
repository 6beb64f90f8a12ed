"""A task that runs a coroutine every few seconds for the life of the app (the
tournaments' runner, the programs' league): started and closed with the app, and one
failed round is logged, never the end of the loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger("coffeetable.server")


class Periodic:
    """Calls ``tick()`` every ``tick_seconds`` once started, until closed."""

    #: What the log calls a failed round ("tournaments", "league").
    name = "periodic"
    tick_seconds = 1.0

    _task: asyncio.Task[None] | None = None

    async def tick(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._forever())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _forever(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # one bad round must not stop the others
                log.exception("%s: a tick failed", self.name)
            await asyncio.sleep(self.tick_seconds)
