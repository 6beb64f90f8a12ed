"""What every process must count together, in Redis.

- ``SharedCounts``: open WebSockets per client address (``sockets_per_client``),
  and reviews running per client address and per account (``reviews_per_client``),
  over every live process. Each process counts its own in a hash that lives only
  as long as its heartbeat, so a dead process's sockets stop counting.
- ``SharedTableQuotas``: new tables a minute and live tables per address
  (``tables_per_minute``, ``open_tables_per_client``). The per-process totals
  (``max_live_tables``, ``max_bot_seats``) stay per process: they protect that
  process's CPU and memory.
- ``RedisThrottle``: sign-in failures and sign-ups (``players/throttle.py``'s
  rule: allowed hits, then a doubling wait), per name and address, per address,
  per name from everywhere, per name and known device.
- ``RedisRate``: failed sign-ins a minute on the whole site (``players/throttle.py``'s
  ``Rate``), one counter per window that every process increments.
- ``Listing``: the lobby's open and running tables, each owner writing its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from coffeetable.server.limits import Limits
from coffeetable.server.lobby.quotas import WINDOW, Refusal, TableQuotas, address_refusal
from coffeetable.server.players.throttle import doubling_wait

_ACQUIRE_SOCKET = """
local total = 0
for _, process in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. 'alive:' .. process) == 1 then
    total = total + tonumber(redis.call('HGET', ARGV[1] .. ARGV[6] .. process, ARGV[3]) or '0')
  else
    redis.call('SREM', KEYS[1], process)
  end
end
if total >= tonumber(ARGV[4]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[2])
redis.call('HINCRBY', ARGV[1] .. ARGV[6] .. ARGV[2], ARGV[3], 1)
redis.call('PEXPIRE', ARGV[1] .. ARGV[6] .. ARGV[2], ARGV[5])
return 1
"""

_RELEASE_SOCKET = """
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return left
"""


class SharedCounts:
    """Things held at once per key (a client address, an account) over all processes,
    each at most ``limit``: ``sockets_per_client`` (kind ``sockets``), reviews running
    per client (kind ``reviews``)."""

    def __init__(
        self, redis: Any, prefix: str, me: str, limit: int, ttl_ms: int, kind: str = "sockets"
    ) -> None:
        self.redis, self.prefix, self.me = redis, prefix, me
        self.limit, self.ttl_ms, self.kind = limit, ttl_ms, kind
        # (The sockets' key names are the ones they had before there were other kinds.)
        self._processes = f"{prefix}:{'socket' if kind == 'sockets' else kind}-processes"
        self._acquire = redis.register_script(_ACQUIRE_SOCKET)
        self._release = redis.register_script(_RELEASE_SOCKET)

    @property
    def mine(self) -> str:
        return f"{self.prefix}:{self.kind}:{self.me}"

    async def acquire(self, key: str) -> bool:
        """Count one more for ``key``; False (not counted) if it holds ``limit`` already."""
        args = [f"{self.prefix}:", self.me, key, self.limit, self.ttl_ms, f"{self.kind}:"]
        return bool(await self._acquire(keys=[self._processes], args=args))

    async def release(self, key: str) -> None:
        await self._release(keys=[self.mine], args=[key])

    async def keep(self) -> None:
        """Heartbeat: our counts live as long as we do."""
        await self.redis.pexpire(self.mine, self.ttl_ms)


class SharedTableQuotas(TableQuotas):
    """Per-address table quotas in Redis (the per-process totals stay in memory)."""

    def __init__(self, limits: Limits, redis: Any, prefix: str) -> None:
        super().__init__(limits)
        self.redis, self.prefix = redis, prefix

    async def address_refusal(
        self, address: str, is_live: Callable[[str], bool], pending: int = 0
    ) -> Refusal | None:
        now = time.time()
        created_key = f"{self.prefix}:quota:created:{address}"
        await self.redis.zremrangebyscore(created_key, 0, now - WINDOW)
        created = await self.redis.zrange(created_key, 0, -1, withscores=True)
        owned_key = f"{self.prefix}:quota:owned:{address}"
        owned = [member.decode() for member in await self.redis.smembers(owned_key)]
        listed = await self.redis.hmget(f"{self.prefix}:lobby", owned) if owned else []
        ended = [
            table_id
            for table_id, summary in zip(owned, listed, strict=True)
            if summary is None and not is_live(table_id)
        ]
        if ended:
            await self.redis.srem(owned_key, *ended)
        ages = [now - stamp for _, stamp in created]
        return address_refusal(
            limits=self.limits, ages=ages, live=len(owned) - len(ended), pending=pending
        )

    async def record(self, address: str | None, table_id: str) -> None:
        if address is None:
            return
        now = time.time()
        created_key = f"{self.prefix}:quota:created:{address}"
        owned_key = f"{self.prefix}:quota:owned:{address}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(created_key, {f"{table_id}": now})
            pipe.expire(created_key, int(WINDOW) + 1)
            pipe.sadd(owned_key, table_id)
            pipe.expire(owned_key, 24 * 3600)
            await pipe.execute()


class RedisThrottle:
    """``players.throttle.Throttle`` in Redis: the same rule as ``MemoryThrottle``."""

    def __init__(
        self,
        redis: Any,
        prefix: str,
        name: str,
        allowed: int = 5,
        window: float = 15 * 60,
        base: float = 15.0,
    ) -> None:
        self.redis = redis
        self.prefix = f"{prefix}:throttle:{name}:"
        self.allowed, self.window, self.base = allowed, window, base

    def wait(self, hits: int) -> float:
        return doubling_wait(hits, self.allowed, self.base, self.window)

    async def retry_after(self, keys: Iterable[str]) -> float:
        now = time.time()
        longest = 0.0
        async with self.redis.pipeline(transaction=False) as pipe:
            names = list(keys)
            for key in names:
                pipe.hmget(self.prefix + key, "hits", "last")
            found = await pipe.execute()
        for hits, last in found:
            if hits is not None and last is not None:
                longest = max(longest, float(last) + self.wait(int(hits)) - now)
        return max(0.0, longest)

    async def hit(self, keys: Iterable[str]) -> None:
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hincrby(self.prefix + key, "hits", 1)
                pipe.hset(self.prefix + key, "last", repr(now))
                pipe.expire(self.prefix + key, int(self.window) + 1)
            await pipe.execute()

    async def clear(self, keys: Iterable[str]) -> None:
        names = [self.prefix + key for key in keys]
        if names:
            await self.redis.delete(*names)


class RedisRate:
    """``players.throttle.Rate`` in Redis: one count per fixed window, shared."""

    def __init__(self, redis: Any, prefix: str, name: str, allowed: int, window: float = 60.0):
        self.redis = redis
        self.prefix = f"{prefix}:rate:{name}:"
        self.allowed, self.window = allowed, window

    async def retry_after(self) -> float:
        now = time.time()
        index = int(now // self.window)
        hits = await self.redis.get(f"{self.prefix}{index}")
        if hits is None or int(hits) < self.allowed:
            return 0.0
        return (index + 1) * self.window - now

    async def hit(self) -> None:
        key = f"{self.prefix}{int(time.time() // self.window)}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.incr(key)
            pipe.expire(key, int(self.window) + 1)
            await pipe.execute()


class Listing:
    """The lobby's list of live tables: a hash of table id -> summary JSON."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.key = f"{prefix}:lobby"

    async def publish(self, live: list[dict[str, Any]], ended: list[str]) -> None:
        """Our live tables' summaries, and the ids of our tables that ended."""
        async with self.redis.pipeline(transaction=False) as pipe:
            if live:
                pipe.hset(self.key, mapping={s["table_id"]: orjson.dumps(s) for s in live})
            if ended:
                pipe.hdel(self.key, *ended)
            await pipe.execute()

    async def read(self) -> list[dict[str, Any]]:
        found = await self.redis.hgetall(self.key)
        summaries = [orjson.loads(value) for value in found.values()]
        return [s for s in summaries if s.get("status") in ("open", "running")]

    async def forget(self, table_ids: list[str]) -> None:
        if table_ids:
            await self.redis.hdel(self.key, *table_ids)
