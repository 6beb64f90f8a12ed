"""Review with the bot: a finished match's decisions judged in the background.

``POST /api/tables/{id}/review`` starts the review of a finished turn-based match
(or finds the one already made); ``GET`` says how far it is, and once done lists
every decision of a person (a seat that is not a bot) with the move the search
prefers and what the person's choice cost by its estimate, biggest first
(``coffeetable.bots.review``).

Only for matches that are over: a review reads every hidden card (the log and its
seed), so a live match is refused with 409, and so is a real-time game (Espresso:
there are no turns to weigh). A seat a stand-in bot played for a while is still
the person's seat: the log does not say who chose.

The searches run in worker processes (``review_workers`` of them, a
``ProcessPoolExecutor``), a few decisions at a time, so the event loop and the
tables never wait on them and progress is counted as the parts come back; one
review's parts run on every worker at once (a review with two workers takes about
half the time). At
most ``reviews_at_once`` run at once (then 429), and at most ``reviews_per_client``
of them for one client address or one account (then 429: one client's requests
held every slot for minutes); the last ``review_cache``
finished reviews are kept in memory (a restart forgets them: they can be made
again, the same, since every search is seeded from the match's seed and the
decision's place in the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from coffeetable.bots.review import decisions, judge_chunk
from coffeetable.server.errors import TableError
from coffeetable.server.limits import Limits
from coffeetable.server.lobby.lobby import Lobby

if TYPE_CHECKING:
    from coffeetable.server.tables.table import Table

log = logging.getLogger("coffeetable.server")

#: Decisions a worker judges per part (progress moves by this much; the log is
#: replayed once a part).
CHUNK = 4


@dataclass
class Review:
    """One match's review: how far it is, and once done its judgements."""

    table_id: str
    total: int
    iterations: int
    status: str = "running"  # running, done, failed
    done: int = 0
    #: Judgements as JSON, biggest cost first once done.
    decisions: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    task: asyncio.Task[None] | None = None
    #: Who asked for it (``ClientSlots`` keys), counted while it runs.
    holders: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        """What ``GET /api/tables/{id}/review`` answers."""
        seconds = (self.finished or time.monotonic()) - self.started
        return {
            "table_id": self.table_id,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "iterations": self.iterations,
            "seconds": round(seconds, 3),
            "decisions": self.decisions if self.status == "done" else [],
            "error": self.error,
        }


def _order(judged: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Biggest cost first (unknown costs last), then in the order they were played."""
    return sorted(judged, key=lambda j: (j["cost"] is None, -(j["cost"] or 0.0), j["index"]))


class ClientSlots:
    """Reviews running per client address and per account, in this process's memory
    (a cluster shares them in Redis instead: ``cluster.shared.SharedCounts``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: dict[str, int] = {}

    async def acquire(self, key: str) -> bool:
        """Count one more review for ``key``; False (not counted) if it has the most."""
        if self.held.get(key, 0) >= self.limit:
            return False
        self.held[key] = self.held.get(key, 0) + 1
        return True

    async def release(self, key: str) -> None:
        left = self.held.pop(key, 0) - 1
        if left > 0:
            self.held[key] = left


def client_keys(address: str | None, user_id: int | None) -> list[str]:
    """The keys a review request counts under: its address and its account."""
    keys = [] if address is None else [f"address:{address}"]
    return keys + ([] if user_id is None else [f"account:{user_id}"])


class Reviews:
    """The reviews this process made or is making (bounded) and its worker pool."""

    def __init__(self, lobby: Lobby, limits: Limits, executor: Executor | None = None) -> None:
        """``executor``: where the searches run (default: a pool of ``review_workers``
        processes, started at the first review)."""
        self.lobby = lobby
        self.limits = limits
        #: Called with a table id when its review is forgotten (a cluster frees its lease).
        self.on_forget: Callable[[str], None] | None = None
        self.reviews: OrderedDict[str, Review] = OrderedDict()
        self._executor = executor
        self._own_executor = executor is None
        #: Reviews running per client (``ClientSlots`` or, in a cluster, its shared one).
        self.clients: Any = ClientSlots(limits.reviews_per_client)

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=max(1, self.limits.review_workers),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._executor

    def running(self) -> int:
        return sum(1 for review in self.reviews.values() if review.status == "running")

    async def start(
        self, table_id: str, address: str | None = None, user_id: int | None = None
    ) -> Review:
        """The review of ``table_id``: the one kept (running or done), else a new one,
        asked for from ``address`` by account ``user_id`` (None: a guest)."""
        table = await self.lobby.peek(table_id)
        _check(table)
        kept = self._kept(table.id)
        if kept is not None:
            return kept
        holders = await self._hold(client_keys(address, user_id))
        kept = self._kept(table.id)  # started meanwhile, by someone else
        if kept is not None or self.running() >= self.limits.reviews_at_once:
            await self._let_go(holders)
            if kept is not None:
                return kept
            raise TableError(
                429,
                f"the bot is already reviewing {self.limits.reviews_at_once} matches:"
                " try again in a minute",
            )
        match = table.match_log()
        people = {seat.index for seat in table.seats if seat.bot is None}
        indices = decisions(match, people)
        review = Review(table.id, len(indices), self.limits.review_iterations, holders=holders)
        self.reviews[table.id] = review
        self.reviews.move_to_end(table.id)
        review.task = asyncio.create_task(self._run(review, match.to_json(), indices, match.seed))
        self._forget_old()
        return review

    def _kept(self, table_id: str) -> Review | None:
        kept = self.reviews.get(table_id)
        if kept is None or kept.status == "failed":
            return None
        self.reviews.move_to_end(table_id)
        return kept

    async def _hold(self, keys: list[str]) -> list[str]:
        """Count a review for each of ``keys``; 429 (nothing counted) if one has the most."""
        held: list[str] = []
        for key in keys:
            if not await self.clients.acquire(key):
                await self._let_go(held)
                most = self.limits.reviews_per_client
                raise TableError(
                    429,
                    f"you already have {most} review{'s' if most != 1 else ''} running"
                    " (the most for one person): wait until it is done",
                )
            held.append(key)
        return held

    async def _let_go(self, keys: list[str]) -> None:
        for key in keys:
            with contextlib.suppress(Exception):  # a cluster's counts also expire
                await self.clients.release(key)

    async def get(self, table_id: str) -> Review:
        """The review kept for ``table_id`` (404: none was started, or it was forgotten)."""
        review = self.reviews.get(table_id)
        if review is None:
            table = await self.lobby.peek(table_id)  # 404 for no such table
            _check(table)
            raise TableError(404, "this match has not been reviewed yet: start a review")
        return review

    async def _run(
        self, review: Review, match: dict[str, Any], indices: list[int], seed: int
    ) -> None:
        loop = asyncio.get_running_loop()
        parts = [indices[start : start + CHUNK] for start in range(0, len(indices), CHUNK)]
        # One review keeps every worker busy (its parts are independent), but never
        # more parts in the pool than workers: another review's parts take turns.
        slots = asyncio.Semaphore(max(1, self.limits.review_workers))

        async def judge_part(part: list[int]) -> list[dict[str, Any]]:
            async with slots:
                found = await loop.run_in_executor(
                    self._pool(), judge_chunk, match, part, review.iterations, seed
                )
            review.done += len(part)
            return found

        tasks = [asyncio.ensure_future(judge_part(part)) for part in parts]
        try:
            try:
                judged = [j for found in await asyncio.gather(*tasks) for j in found]
            finally:  # a part failed, or the server stops: the others stop too
                for task in tasks:
                    task.cancel()
        except asyncio.CancelledError:
            review.status, review.error = "failed", "the server stopped"
            raise
        except Exception as error:  # a broken worker or log: say so, keep serving
            log.exception("the review of table %s failed", review.table_id)
            review.status, review.error = "failed", f"the review failed: {error}"
            if isinstance(self._executor, ProcessPoolExecutor) and self._own_executor:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None  # a broken pool is made again for the next review
        else:
            review.decisions = _order(judged)
            review.status = "done"
        finally:
            review.finished = time.monotonic()
            review.task = None
            holders, review.holders = review.holders, []
            await self._let_go(holders)
            self._forget_old()

    def _forget_old(self) -> None:
        """Keep at most ``review_cache`` finished reviews (the least recently asked go)."""
        finished = [key for key, review in self.reviews.items() if review.status != "running"]
        for key in finished[: max(0, len(finished) - self.limits.review_cache)]:
            del self.reviews[key]
            if self.on_forget is not None:
                self.on_forget(key)

    async def close(self) -> None:
        """Stop the running reviews and the worker processes."""
        tasks = [review.task for review in self.reviews.values() if review.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for review in self.reviews.values():
            if review.status == "running":  # cancelled before it began
                review.status, review.error = "failed", "the server stopped"
        if self._own_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _exit_with_parent(parent: int) -> None:
    """In a review worker: exit once the server that started it is gone (a server killed
    with kill -9 cannot shut its pool down, and its workers would wait forever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _check(table: Table) -> None:
    """409 unless the table's match is over and turn-based."""
    if table.live:
        raise TableError(
            409, "a match can be reviewed once it is over (the review reads every card)"
        )
    if table.game.realtime:
        raise TableError(
            409, f"{table.game.title} is played in real time: only turn-based matches are reviewed"
        )
