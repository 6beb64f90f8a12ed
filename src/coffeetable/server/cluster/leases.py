"""Leases in Redis: which process runs which table (or the matchmaker).

A lease is a key ``<prefix>:lease:<name>`` whose value is the owner's process
id, with an expiry of ``lease_seconds``. The owner renews all of its leases in
one round trip every third of that; a process that misses its renewals loses
them. A lease whose owner's heartbeat (``<prefix>:alive:<id>``, same expiry)
has gone may be taken at once: the owner is dead, not slow.

Each operation is one Lua script, so "read the owner, then change it" is atomic.
"""

from __future__ import annotations

from typing import Any

# Returns the owner after the call: ARGV[1] if it holds (or took) the lease.
_ACQUIRE = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return owner
end
if owner and redis.call('EXISTS', ARGV[3] .. owner) == 1 then
  return owner
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]
"""

# Renews every lease still held; returns the indexes (1-based) of those lost.
_RENEW = """
local lost = {}
for index, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, index)
  end
end
return lost
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    """Acquire, renew and release leases for process ``me``."""

    def __init__(self, redis: Any, prefix: str, me: str, seconds: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.me = me
        self.milliseconds = max(100, int(seconds * 1000))
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def key(self, name: str) -> str:
        return f"{self.prefix}:lease:{name}"

    def alive_key(self, process: str) -> str:
        return f"{self.prefix}:alive:{process}"

    async def acquire(self, name: str) -> str:
        """Take (or keep) the lease ``name`` unless a live process holds it; return
        its owner after the call (``me`` on success)."""
        owner = await self._acquire(
            keys=[self.key(name)], args=[self.me, self.milliseconds, f"{self.prefix}:alive:"]
        )
        return owner.decode() if isinstance(owner, bytes) else str(owner)

    async def owner(self, name: str) -> str | None:
        value = await self.redis.get(self.key(name))
        return None if value is None else value.decode()

    async def renew(self, names: list[str]) -> list[str]:
        """Renew the leases ``names``; return those this process no longer holds."""
        if not names:
            return []
        keys = [self.key(name) for name in names]
        lost = await self._renew(keys=keys, args=[self.me, self.milliseconds])
        return [names[int(index) - 1] for index in lost]

    async def release(self, name: str) -> None:
        await self._release(keys=[self.key(name)], args=[self.me])

    async def heartbeat(self) -> None:
        """Say this process is alive for one more lease period."""
        await self.redis.set(self.alive_key(self.me), b"1", px=self.milliseconds)

    async def alive(self, processes: list[str]) -> set[str]:
        """Which of ``processes`` still have a heartbeat."""
        if not processes:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for process in processes:
                pipe.exists(self.alive_key(process))
            answers = await pipe.execute()
        return {process for process, answer in zip(processes, answers, strict=True) if answer}

    async def forget_me(self) -> None:
        """Shutdown: this process is gone (its remaining leases may be taken at once)."""
        await self.redis.delete(self.alive_key(self.me))
