"""Actions and chat counted per seat and per client address, whatever the sockets.

Each socket has rates of its own (``connections.SocketRates``); a seat may be
connected on many sockets, and one address may hold ``sockets_per_client`` of
them, so the socket's rates alone let one seat act 60 times a second on 60
sockets. A table's process therefore also counts, over all the sockets it
serves (its own and those relayed to it from other processes, ``cluster/relay.py``):

- each seat's actions (``actions_per_second``, ``action_burst``: a seat on many
  sockets acts as fast as on one) and chat messages (``chat_per_minute``,
  ``chat_burst``);
- each client address's actions (``address_actions_per_second``,
  ``address_action_burst``) and chat messages (``address_chat_per_minute``,
  ``address_chat_burst``), over every seat and table it is at.

Every action of a seat reaches its table's process, so the seat's count holds
across processes. An address's count is its own on each process (tables on
several processes count apart): a shared count would cost a Redis round trip
per action.
"""

from __future__ import annotations

from collections.abc import Hashable

from coffeetable.server.limits import Limits, TokenBucket

#: Why a message is over a rate, and the seconds until one would be let through; None: not.
RateRefusal = tuple[str, float] | None

#: Keys kept before full buckets (as good as new ones) are forgotten.
PRUNE_AT = 1024


class KeyedBuckets:
    """A ``TokenBucket`` per key, made on first use, forgotten once full again."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[Hashable, TokenBucket] = {}
        self._prune_at = PRUNE_AT

    def take(self, key: Hashable) -> bool:
        """Spend one token of ``key``'s bucket if there is one."""
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
            taken = bucket.take()
            if len(self.buckets) > self._prune_at:  # (after the take: this one is kept)
                self._prune()
            return taken
        return bucket.take()

    def wait(self, key: Hashable) -> float:
        """Seconds until ``key``'s bucket has a token again (0 if it has one)."""
        bucket = self.buckets.get(key)
        return 0.0 if bucket is None else bucket.wait()

    def _prune(self) -> None:
        """Forget the buckets that refilled (amortised: the bound doubles with the keys
        still in use)."""
        for key in [key for key, bucket in self.buckets.items() if bucket.full()]:
            del self.buckets[key]
        self._prune_at = max(PRUNE_AT, 2 * len(self.buckets))


class ClientRates:
    """The per-seat and per-address counts of one process."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.seat_actions = KeyedBuckets(limits.actions_per_second, limits.action_burst)
        self.address_actions = KeyedBuckets(
            limits.address_actions_per_second, limits.address_action_burst
        )
        self.seat_chat = KeyedBuckets(limits.chat_per_minute / 60, limits.chat_burst)
        self.address_chat = KeyedBuckets(
            limits.address_chat_per_minute / 60, limits.address_chat_burst
        )

    def action_refusal(self, table_id: str, seat: int | None, address: str | None) -> RateRefusal:
        """Count one action of ``seat`` at ``table_id`` from ``address``; if over, why not
        and the seconds until one would be let through."""
        limits = self.limits
        if seat is not None and not self.seat_actions.take((table_id, seat)):
            reason = f"slow down: at most {limits.actions_per_second:g} actions a second a seat"
            return reason, self.seat_actions.wait((table_id, seat))
        if address is not None and not self.address_actions.take(address):
            most = limits.address_actions_per_second
            reason = f"slow down: at most {most:g} actions a second from your address"
            return reason, self.address_actions.wait(address)
        return None

    def chat_refusal(self, table_id: str, seat: int | None, address: str | None) -> RateRefusal:
        """Count one chat message (``seat`` None: a spectator's); if over, why not and the
        seconds until one would be let through."""
        limits = self.limits
        if seat is not None and not self.seat_chat.take((table_id, seat)):
            reason = f"slow down: at most {limits.chat_per_minute} chat messages a minute a seat"
            return reason, self.seat_chat.wait((table_id, seat))
        if address is not None and not self.address_chat.take(address):
            most = limits.address_chat_per_minute
            reason = f"slow down: at most {most} chat messages a minute from your address"
            return reason, self.address_chat.wait(address)
        return None
