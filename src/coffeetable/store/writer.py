"""The database for the event loop: ordered calls, and group commit.

Every call runs in the order it was made, on one connection kept open for the
store's life. Writes that arrive while a commit is being made are gathered and
committed together in the next transaction, so a hundred busy tables cost a
few commits, not a hundred. A write's ``await`` returns only once its
transaction is committed.

Where the calls run: on one worker thread, for every database. A commit is
~0.1 ms on SQLite (WAL) most of the time, but a WAL checkpoint (an fsync) now
and then takes 10 ms or more, and on the event loop that stalled every table
of the process at once (issue 14); on the thread, the loop serves the other
tables meanwhile, and their writes gather into the next group commit.
``inline=True`` runs them on the event loop instead (tests, measurements).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from coffeetable.store.db import Database

T = TypeVar("T")
log = logging.getLogger("coffeetable.store")

_Item = tuple[Callable[[Connection], Any], "asyncio.Future[Any]"]


class Store:
    """Asynchronous, ordered, group-committed access to a ``Database``."""

    def __init__(self, url: str | None = None, *, inline: bool = False) -> None:
        self.db = Database(url)
        #: Run on the event loop rather than on the worker thread.
        self.inline = bool(inline)
        self._executor = None if self.inline else ThreadPoolExecutor(1, "coffeetable-db")
        self._conn: Connection | None = None
        self._pending: list[_Item] = []
        self._flusher: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return self.db.url

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(conn)`` in a transaction; return once it is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._pending.append((work, future))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush())
        return await future

    async def read(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(conn)``, after every write made before this call."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        return await self._run(self._read, work)

    async def close(self) -> None:
        """Finish pending writes, then release the connection and the engine."""
        if self._flusher is not None:
            await self._flusher
        await self._run(self._disconnect)
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        self.db.close()

    # -- on the database's thread ---------------------------------------------

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        if self._executor is None:
            return function(*args)
        return await asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

    def _connection(self) -> Connection:
        if self._conn is None:
            self._conn = self.db.engine.connect()
        return self._conn

    def _disconnect(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _read(self, work: Callable[[Connection], T]) -> T:
        conn = self._connection()
        try:
            return work(conn)
        finally:
            conn.rollback()  # end the implicit read transaction

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                outcomes = await self._run(self._commit, batch)
                for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
                if self.inline:
                    await asyncio.sleep(0)  # let the woken writers queue their next writes
        finally:
            self._flusher = None

    def _commit(self, batch: list[_Item]) -> list[tuple[bool, Any]]:
        """Commit the batch in one transaction; if it fails, each write alone."""
        conn = self._connection()
        try:
            with conn.begin():
                return [(True, work(conn)) for work, _ in batch]
        except Exception as error:
            if len(batch) == 1:
                log.exception("database write failed")
                return [(False, error)]
        # One bad write must not sink the others.
        return [self._commit([item])[0] for item in batch]
