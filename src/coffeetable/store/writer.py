"""The database for the event loop: ordered calls, and group commit.

Every call runs in the order it was made, on one connection kept open for the
store's life. Writes that arrive while a commit is being made are gathered and
committed together in the next transaction, so a hundred busy tables cost a
few commits, not a hundred. A write's ``await`` returns only once its
transaction is committed.

Where the calls run. PostgreSQL (a network round trip): on one worker thread.
SQLite: on the event loop, which costs less (measured with
``benchmarks/bench_server.py``: a thread hop per commit added ~150 us of CPU
to each accepted action, a quarter of it), and stalls nothing: in WAL mode
with ``synchronous=NORMAL`` a commit writes to the WAL and never fsyncs; only
a checkpoint does (10 ms and more), and SQLite's automatic checkpoint, run by
the committing connection, is what stalled every table at once. So this
store's connection has no automatic checkpoint, and every
``CHECKPOINT_EVERY`` commits a PASSIVE checkpoint runs on a thread of its own
(it waits for no reader or writer). ``inline`` forces one way or the other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from coffeetable.store.db import Database

T = TypeVar("T")
log = logging.getLogger("coffeetable.store")

_Item = tuple[Callable[[Connection], Any], "asyncio.Future[Any]"]
#: SQLite commits between two checkpoints (~10 KB of WAL each: a few MB).
CHECKPOINT_EVERY = 300


class Store:
    """Asynchronous, ordered, group-committed access to a ``Database``."""

    def __init__(self, url: str | None = None, *, inline: bool | None = None) -> None:
        self.db = Database(url)
        sqlite = self.db.url.startswith("sqlite")
        #: Run on the event loop (SQLite) rather than on a worker thread.
        self.inline = sqlite if inline is None else inline
        self._executor = None if self.inline else ThreadPoolExecutor(1, "coffeetable-db")
        #: SQLite files on the loop: checkpoints on a thread (an in-memory database has none).
        self._checkpoints: ThreadPoolExecutor | None = None
        if self.inline and sqlite and ":memory:" not in self.db.url:
            self._checkpoints = ThreadPoolExecutor(1, "coffeetable-checkpoint")
        self._commits = 0
        self._checkpoint: Future[None] | None = None
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
        if self._checkpoints is not None:
            self._checkpoints.shutdown(wait=True)
        self.db.close()

    # -- on the database's thread ---------------------------------------------

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        if self._executor is None:
            return function(*args)
        return await asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

    def _connection(self) -> Connection:
        if self._conn is None:
            self._conn = self.db.engine.connect()
            if self._checkpoints is not None:  # they run on their own thread
                raw: Any = self._conn.connection.driver_connection
                raw.execute("PRAGMA wal_autocheckpoint=0")
        return self._conn

    def _committed(self) -> None:
        """Count a commit; start a checkpoint every ``CHECKPOINT_EVERY`` (one at a time)."""
        if self._checkpoints is None:
            return
        self._commits += 1
        busy = self._checkpoint is not None and not self._checkpoint.done()
        if self._commits >= CHECKPOINT_EVERY and not busy:
            self._commits = 0
            self._checkpoint = self._checkpoints.submit(self._run_checkpoint)

    def _run_checkpoint(self) -> None:
        """Copy the WAL into the database file (on the checkpoint thread)."""
        try:
            with self.db.engine.connect() as conn:
                raw: Any = conn.connection.driver_connection
                raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except Exception:  # the next one tries again; the WAL keeps every commit meanwhile
            log.exception("WAL checkpoint failed")

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
                self._committed()
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
