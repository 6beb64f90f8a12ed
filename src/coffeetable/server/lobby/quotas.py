"""Who may open another table: a rate and a count per client address, totals per process.

Every per-address limit of the site counts by ``limits.client_key``: an IPv4 address,
or an IPv6 address's /64 (one home or host gets a whole /64, so its addresses are
one client, not endless ones).

The numbers are ``Limits`` fields: ``tables_per_minute`` and ``open_tables_per_client``
per client address, ``max_live_tables`` and ``max_bot_seats`` for the process. The
bookkeeping is in memory (one process); a table's address is forgotten once the
table is over, and after a restart. A play-now table counts for the address of
each person dealt to it (``matchmaking.py``), and a waiting ticket counts as the
table it will become (``pending``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from coffeetable.server.limits import Limits

WINDOW = 60.0
#: A refusal: the HTTP status, its sentence, and the seconds after which asking again
#: may succeed (a rate's ``Retry-After``; None for a count or a total).
Refusal = tuple[int, str, float | None]


class TableQuotas:
    """Counts tables by the client address that created them."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._created: dict[str, deque[float]] = {}
        self._owned: dict[str, set[str]] = {}

    async def refusal(
        self,
        address: str | None,
        bot_seats: int,
        is_live: Callable[[str], bool],
        live_tables: int,
        live_bot_seats: int,
    ) -> Refusal | None:
        """Why a new table with ``bot_seats`` bots may not be created now, or None.
        ``is_live(table_id)`` says whether a table still counts."""
        limits = self.limits
        if live_tables >= limits.max_live_tables:
            full = f"the server is full ({limits.max_live_tables} tables)"
            return 503, f"{full}: try again later", None
        if live_bot_seats + bot_seats > limits.max_bot_seats:
            return 503, "the server has no room for more bots now: try again later", None
        if address is None:
            return None
        return await self.address_refusal(address, is_live)

    async def address_refusal(
        self, address: str, is_live: Callable[[str], bool], pending: int = 0
    ) -> Refusal | None:
        """The per-address part of ``refusal``. ``pending``: tables the address is
        already owed (its play-now tickets still waiting), counted as made now."""
        now = time.monotonic()
        created = self._created.get(address)
        stamps: list[float] = []
        if created is not None:
            while created and now - created[0] > WINDOW:
                created.popleft()
            stamps = [now - stamp for stamp in created]
        owned = self._owned.get(address)
        live = 0
        if owned is not None:
            owned.difference_update([table_id for table_id in owned if not is_live(table_id)])
            live = len(owned)
        return address_refusal(self.limits, stamps, live, pending)

    async def record(self, address: str | None, table_id: str) -> None:
        """A table was created from ``address``."""
        if address is None:
            return
        self._created.setdefault(address, deque()).append(time.monotonic())
        self._owned.setdefault(address, set()).add(table_id)
        if len(self._created) > 10_000:  # forget addresses quiet for a minute
            now = time.monotonic()
            for key in [k for k, d in self._created.items() if not d or now - d[-1] > WINDOW]:
                del self._created[key]
                if not self._owned.get(key):
                    self._owned.pop(key, None)


def address_refusal(limits: Limits, ages: list[float], live: int, pending: int) -> Refusal | None:
    """The per-address rule, wherever the counts are kept: ``ages`` of the address's
    tables made in the last minute (seconds, oldest first), ``live`` tables it holds,
    and ``pending`` tables it is owed (waiting play-now tickets)."""
    waiting = f" (with your {pending} play-now tickets still waiting)" if pending else ""
    if len(ages) + pending >= limits.tables_per_minute:
        wait = WINDOW - ages[0] if ages else WINDOW
        sentence = f"at most {limits.tables_per_minute} new tables a minute{waiting}"
        return 429, f"{sentence}: try again in {wait:.0f} s", wait
    if live + pending >= limits.open_tables_per_client:
        return (
            409,
            f"you already have {live} tables open or running{waiting}"
            f" (at most {limits.open_tables_per_client}): finish or leave one first",
            None,
        )
    return None
