"""The ``Cluster``: this process's part in a site of several processes.

Every ``lease_seconds / 3`` it says it is alive, renews the leases of the
tables it runs (dropping any it lost), writes their summaries to the lobby's
list, drops the remote clients of processes that died, closes the sockets it
relays for tables whose owner died, and adopts live tables that no live
process runs (rebuilt from the log: bots, clocks and timers start again). It
adopts a few at a time in random order, so that the survivors of a crash share
the orphans.

On shutdown it hands its tables over: each one is stopped, its clients are
told to reconnect (close code 1012), and its lease is released, so another
process takes it at once instead of after the lease expires.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from coffeetable.server.cluster.bus import Bus, Message
from coffeetable.server.cluster.leases import Leases
from coffeetable.server.cluster.relay import Relay
from coffeetable.server.cluster.shared import (
    Listing,
    RedisRate,
    RedisThrottle,
    SharedCounts,
    SharedTableQuotas,
)
from coffeetable.server.errors import Elsewhere, OwnerGone, TableError

if TYPE_CHECKING:
    from coffeetable.server.lobby.lobby import Lobby

log = logging.getLogger("coffeetable.cluster")

#: Redis key prefix (one Redis may serve several sites with different prefixes).
PREFIX = "coffeetable"
#: The matchmaker's lease name (one process runs the play-now queues).
MATCHMAKER = "matchmaker"
#: Redis connections per process (the pub/sub listener has one of its own).
REDIS_CONNECTIONS = 32
#: Orphaned tables one process adopts per tick.
ADOPT_PER_TICK = 20


def redis_pool(redis_url: str, wait_seconds: float) -> Any:
    """The connection pool of one process, from its Redis URL as redis-py reads it:
    ``redis://`` or ``rediss://`` (TLS; ``?ssl_ca_certs=...`` and the other ``ssl_*``
    options in the query), ``user:password@`` (an ACL user, or ``:password@``,
    percent-encoded), ``/db``. Redis holds authority over the site (docs/deploy.md).

    A bounded pool whose callers wait (``wait_seconds``) for a free connection: a burst
    (hundreds of sockets opening at once) queues instead of failing with "too many
    connections"."""
    import redis.asyncio

    return redis.asyncio.BlockingConnectionPool.from_url(
        redis_url, max_connections=REDIS_CONNECTIONS, timeout=wait_seconds
    )


def process_name() -> str:
    """A name for this process, unique even when a pid is reused."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Cluster:
    """Leases, the bus, the relay and the shared counts of one process."""

    def __init__(
        self,
        redis_url: str,
        lobby: Lobby,
        *,
        lease_seconds: float = 5.0,
        prefix: str = PREFIX,
    ) -> None:
        import redis.asyncio

        self.me = process_name()
        self.prefix = prefix
        self.lease_seconds = lease_seconds
        self.redis = redis.asyncio.Redis(connection_pool=redis_pool(redis_url, lease_seconds))
        self.lobby = lobby
        self.leases = Leases(self.redis, prefix, self.me, lease_seconds)
        self.bus = Bus(self.redis, prefix, self.me, call_timeout=max(2.0, lease_seconds))
        self.relay = Relay(self)
        self.listing = Listing(self.redis, prefix)
        ttl_ms = self.leases.milliseconds
        self.sockets = SharedCounts(
            self.redis, prefix, self.me, lobby.limits.sockets_per_client, ttl_ms
        )
        #: Reviews running per client address and per account (``api/review_jobs.py``).
        self.reviewers = SharedCounts(
            self.redis, prefix, self.me, lobby.limits.reviews_per_client, ttl_ms, kind="reviews"
        )
        #: Set by the app: what ``call`` messages run (``operations.run_here``).
        self.run_here: Any = None
        #: Leases on other things than tables that this process holds (the matchmaker,
        #: reviews): renewed with the tables'.
        self.held: set[str] = set()
        self.closing = False
        self._ticker: asyncio.Task[None] | None = None
        self._releasing: set[asyncio.Task[None]] = set()
        lobby.cluster = self
        lobby.quotas = SharedTableQuotas(lobby.limits, self.redis, prefix)
        self.bus.handlers["call"] = self._on_call

    # -- life ----------------------------------------------------------------------

    async def start(self) -> None:
        await self.leases.heartbeat()
        await self.bus.start()
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        log.info("cluster: this process is %s", self.me)

    async def close(self) -> None:
        """Hand every table over, then leave."""
        self.closing = True
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        log.info("cluster: handing %d tables over", len(self.lobby.tables))
        for table_id in list(self.lobby.tables):
            await self.lobby.drop(table_id, "the server restarts: reconnecting")
            with contextlib.suppress(Exception):
                await self.leases.release(f"table:{table_id}")
        for name in list(self.held):
            with contextlib.suppress(Exception):
                await self.leases.release(name)
        self.relay.restart()
        with contextlib.suppress(Exception):
            await self.leases.forget_me()
        await self.bus.close()
        for task in list(self._releasing):
            with contextlib.suppress(Exception):
                await task
        await self.redis.aclose()
        log.info("cluster: left")

    # -- leases ----------------------------------------------------------------------

    async def take(self, table_id: str) -> None:
        """Run table ``table_id`` here from now on, unless a live process does
        (``Elsewhere``). Called before a table is loaded or created."""
        if self.closing:
            raise TableError(503, "this server is shutting down: try again")
        owner = await self.leases.acquire(f"table:{table_id}")
        if owner != self.me:
            raise Elsewhere(owner)

    def release_soon(self, table_id: str) -> None:
        """We let go of a table (finished, nobody watching): free its lease."""
        task = asyncio.get_running_loop().create_task(self.leases.release(f"table:{table_id}"))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def take_named(self, name: str) -> None:
        """Hold the lease ``name`` (e.g. ``matchmaker``, ``review:<table>``) from now on,
        unless a live process does (``Elsewhere``)."""
        if name in self.held:
            return
        if self.closing:
            raise TableError(503, "this server is shutting down: try again")
        owner = await self.leases.acquire(name)
        if owner != self.me:
            raise Elsewhere(owner)
        self.held.add(name)

    async def holds(self, name: str) -> bool:
        """Whether this process holds the lease ``name`` now, as Redis says (``held`` may
        not know yet that it ran out while this process was too busy to renew it)."""
        return name in self.held and await self.leases.owner(name) == self.me

    async def take_matchmaker(self) -> None:
        """Run the play-now queues here, unless a live process does (``Elsewhere``)."""
        await self.take_named(MATCHMAKER)

    def release_named(self, name: str) -> None:
        if name in self.held:
            self.held.discard(name)
            task = asyncio.get_running_loop().create_task(self.leases.release(name))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    def throttles(self, limits: Any) -> dict[str, Any]:
        """The players' sign-in and sign-up throttles, shared by every process."""
        redis, prefix = self.redis, self.prefix
        return {
            "user_throttle": RedisThrottle(
                redis, prefix, "sign-in-name", allowed=limits.sign_in_failures_per_name
            ),
            "address_throttle": RedisThrottle(
                redis, prefix, "sign-in-address", allowed=limits.sign_in_failures_per_address
            ),
            "signup_throttle": RedisThrottle(
                redis, prefix, "sign-up", allowed=limits.sign_ups_per_hour, window=3600.0, base=60.0
            ),
            "name_throttle": RedisThrottle(
                redis, prefix, "sign-in-anywhere", allowed=limits.sign_in_failures_per_name_anywhere
            ),
            "site_failures": RedisRate(
                redis, prefix, "sign-in-failures", allowed=limits.sign_in_failures_per_minute
            ),
        }

    async def call(self, owner: str, op: str, args: Message) -> tuple[str, Any]:
        return await self.bus.call(owner, op, args)

    async def _on_call(self, message: Message) -> None:
        """Run a call another process sent us, and answer it."""
        try:
            value = await self.run_here(message["op"], message["args"])
        except Elsewhere as moved:
            self.bus.answer(message, "moved", moved.owner)
        except TableError as error:
            self.bus.answer(message, "error", [error.status, error.detail, error.retry_after])
        except Exception:
            log.exception("call %s failed", message.get("op"))
            self.bus.answer(message, "error", [500, "the server failed on this request"])
        else:
            self.bus.answer(message, "ok", value)

    # -- the tick ----------------------------------------------------------------------

    async def _tick_forever(self) -> None:
        period = self.lease_seconds / 3
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster tick failed")
            await asyncio.sleep(period)

    async def tick(self) -> None:
        await self.leases.heartbeat()
        await self.sockets.keep()
        await self.reviewers.keep()
        await self._renew()
        await self._publish_listing()
        await self._check_peers()
        await self._adopt_orphans()

    async def _renew(self) -> None:
        names = [f"table:{table_id}" for table_id in self.lobby.tables]
        names += sorted(self.held)
        for name in await self.leases.renew(names):
            if name in self.held:
                log.warning("cluster: lost the lease %s", name)
                self.held.discard(name)
                continue
            table_id = name.removeprefix("table:")
            log.warning("cluster: lost the lease on table %s", table_id)
            await self.lobby.drop(table_id, "the table moves to another server: reconnecting")

    async def _publish_listing(self) -> None:
        tables = list(self.lobby.tables.values())
        live = [table.summary() for table in tables if table.live]
        ended = [table.id for table in tables if not table.live]
        await self.listing.publish(live, ended)

    async def _check_peers(self) -> None:
        relay = self.relay
        peers = sorted(relay.processes() | relay.owners())
        alive = await self.leases.alive(peers)
        for peer in peers:
            if peer in alive:
                continue
            log.warning("cluster: process %s is gone", peer)
            relay.process_gone(peer)
            relay.owner_gone(peer)
            self.bus.forget(peer)

    async def _adopt_orphans(self) -> None:
        """Live tables that no live process runs: take a few."""
        if self.closing:
            return
        store = self.lobby.store
        live_ids = await store.read(_live_table_ids)
        candidates = [table_id for table_id in live_ids if table_id not in self.lobby.tables]
        if not candidates:
            return
        found = await self.redis.mget([self.leases.key(f"table:{t}") for t in candidates])
        owners = [_text(owner) for owner in found]
        named = {owner for owner in owners if owner is not None}
        alive = await self.leases.alive(sorted(named))
        orphans = [
            table_id
            for table_id, owner in zip(candidates, owners, strict=True)
            if owner is None or owner not in alive
        ]
        random.shuffle(orphans)
        for table_id in orphans[:ADOPT_PER_TICK]:
            with contextlib.suppress(Elsewhere, TableError, OwnerGone):
                await self.lobby.get(table_id)
                log.info("cluster: adopted table %s", table_id)

    async def shared_listing(self) -> list[dict[str, Any]]:
        """Every process's live tables, ours fresh."""
        ours = {table.id: table for table in self.lobby.tables.values()}
        listed = [s for s in await self.listing.read() if s["table_id"] not in ours]
        listed += [table.summary() for table in ours.values() if table.live]
        listed.sort(key=lambda summary: summary.get("created") or 0)
        return listed


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _live_table_ids(conn: Any) -> list[str]:
    from coffeetable.store.db import tables

    query = sa.select(tables.c.id).where(tables.c.status.in_(("open", "running")))
    return [row[0] for row in conn.execute(query)]
