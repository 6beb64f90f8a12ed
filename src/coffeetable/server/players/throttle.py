"""Slowing down repeated failures (wrong passwords) and repeated actions (sign-ups).

``Throttle`` is the interface; ``MemoryThrottle`` keeps counts in this
process (``cluster/shared.py``'s ``RedisThrottle`` replaces it for several
processes: same three coroutines). A key is any string, e.g. ``"user:bea"`` or
``"addr:10.0.0.7"``. ``Rate`` (``MemoryRate``, ``RedisRate``) counts one thing
site-wide: at most ``allowed`` hits a ``window`` (a minute by default).

The rule, per key: up to ``allowed`` hits within ``window`` seconds are free;
from then on each attempt must wait ``base * 2**(hits - allowed)`` seconds
after the last hit (at most ``window``): with the defaults 5 free failures,
then 15 s, 30 s, 60 s, ... up to 15 minutes. A key's count is forgotten
``window`` seconds after its last hit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol


class Throttle(Protocol):
    """Counts hits per key and says how long a key must wait."""

    async def retry_after(self, keys: Iterable[str]) -> float:
        """Seconds until the most throttled of ``keys`` may try again (0: now)."""
        ...

    async def hit(self, keys: Iterable[str]) -> None:
        """Count one hit (a failure) for each key."""
        ...

    async def clear(self, keys: Iterable[str]) -> None:
        """Forget the keys' hits (a success)."""
        ...


def doubling_wait(hits: int, allowed: int, base: float, window: float) -> float:
    """The rule of every throttle: no wait for ``allowed`` hits, then ``base`` seconds
    doubling with each hit, at most ``window``."""
    if hits < allowed:
        return 0.0
    return float(min(window, base * 2 ** (hits - allowed)))


@dataclass
class _Count:
    hits: int
    last: float


class MemoryThrottle:
    """``Throttle`` in a dict; at most ``max_keys`` keys (the stalest are dropped)."""

    def __init__(
        self,
        allowed: int = 5,
        window: float = 15 * 60,
        base: float = 15.0,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.allowed = allowed
        self.window = window
        self.base = base
        self.max_keys = max_keys
        self.clock = clock
        self._counts: dict[str, _Count] = {}

    def _current(self, key: str, now: float) -> _Count | None:
        count = self._counts.get(key)
        if count is not None and now - count.last >= self.window:
            del self._counts[key]
            return None
        return count

    def wait(self, hits: int) -> float:
        """The wait after ``hits`` hits (0 while they are allowed)."""
        return doubling_wait(hits, self.allowed, self.base, self.window)

    async def retry_after(self, keys: Iterable[str]) -> float:
        now = self.clock()
        longest = 0.0
        for key in keys:
            count = self._current(key, now)
            if count is not None:
                longest = max(longest, count.last + self.wait(count.hits) - now)
        return max(0.0, longest)

    async def hit(self, keys: Iterable[str]) -> None:
        now = self.clock()
        for key in keys:
            count = self._current(key, now)
            if count is None:
                if len(self._counts) >= self.max_keys:
                    self._drop_stalest()
                self._counts[key] = _Count(1, now)
            else:
                count.hits += 1
                count.last = now

    async def clear(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._counts.pop(key, None)

    def _drop_stalest(self) -> None:
        stalest = sorted(self._counts.items(), key=lambda item: item[1].last)
        for key, _ in stalest[: max(1, len(stalest) // 10)]:
            del self._counts[key]


class Rate(Protocol):
    """At most ``allowed`` hits in each ``window`` of seconds, counted site-wide."""

    async def retry_after(self) -> float:
        """Seconds until the next window when this one is full (0: not full)."""
        ...

    async def hit(self) -> None:
        """Count one hit in this window."""
        ...


class MemoryRate:
    """``Rate`` in this process: a count per fixed window."""

    def __init__(
        self, allowed: int, window: float = 60.0, clock: Callable[[], float] = time.time
    ) -> None:
        self.allowed = allowed
        self.window = window
        self.clock = clock
        self._window = -1
        self._hits = 0

    def _now(self) -> tuple[int, float]:
        now = self.clock()
        index = int(now // self.window)
        if index != self._window:
            self._window, self._hits = index, 0
        return index, now

    async def retry_after(self) -> float:
        index, now = self._now()
        if self._hits < self.allowed:
            return 0.0
        return (index + 1) * self.window - now

    async def hit(self) -> None:
        self._now()
        self._hits += 1
