"""Tables that wait for you: days per move at turn-based tables (setting ``days_per_move``).

Board Game Arena's turn-based play. Every person who must act (each actor: a
secret simultaneous pick runs several clocks at once) has ``days_per_move`` for
that move, plus what is left of their own reserve (``reserve_days``, for the
whole match: a move's overrun is paid from it, and it does not come back).

- The clocks run on the wall clock (``now``, which tests replace by a fake one).
  When each seat's move began and its reserve are saved in the table's settings
  (``days_clock``) at every accepted action and change, so a restarted server
  goes on from them (time passes for the players whether the server runs or not).
- Such a table stays open with nobody connected: no abandon timer
  (``abandon.py``), no grace and no stand-in that takes a seat by itself
  (``stand_ins.py``): being away is the normal case.
- When a person's time runs out (event ``{"type": "days", "seat", "expired":
  true}``, in a state to everyone) they may still move; the others may expel them
  (``POST /api/tables/{id}/expel``, ``lobby/expel.py``): a bot takes the seat for
  good, as if they had left. When every person still seated is out of time (nobody
  is left to wait for), the match ends as "abandoned", those seats counted as
  leavers.
- A vacation (``server/players/vacations.py``) stops a person's clocks: the time of
  their vacations inside a move is not charged.
- "Your turn" notices are not told here: the Newsroom (``tables/news.py``) tells them
  for every table.

The table looks at its clocks on a timer armed for the next deadline, and at least
every ``Limits.days_check_seconds`` (a fake clock in tests, a vacation taken on
another process), reading the seated players' vacations each time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coffeetable.server.players import vacations as days_off
from coffeetable.server.tables.submission import DAYS
from coffeetable.store import vacations

if TYPE_CHECKING:
    from coffeetable.server.tables.face import DaysFace

log = logging.getLogger("coffeetable.server")

#: The table settings: days for each move (0: a live table), and each seat's reserve.
SETTING = "days_per_move"
RESERVE = "reserve_days"
#: The settings key that keeps the clocks (when each move began, the reserves left).
SAVED = "days_clock"
DAY = 86_400.0


def now() -> float:
    """The wall clock, in seconds since the epoch: the vacations' (tests replace it)."""
    return days_off.now()


def is_days_table(settings: dict[str, Any]) -> bool:
    return float(settings.get(SETTING) or 0) > 0


def paused(spans: Sequence[tuple[float, float]], start: float, end: float) -> float:
    """How much of [start, end] falls inside the vacations ``spans``."""
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in spans)


@dataclass
class DaysClock:
    """Per seat: when its move began (None: not its move), its reserve, out of time."""

    per_move: float
    reserve: list[float]
    since: list[float | None]
    expired: list[bool]

    @classmethod
    def for_table(cls, settings: dict[str, Any], players: int, realtime: bool) -> DaysClock | None:
        """The clocks a table's settings ask for (None: not a days table)."""
        if realtime or not is_days_table(settings):
            return None
        reserve = float(settings.get(RESERVE) or 0) * DAY
        clock = cls(
            float(settings[SETTING]) * DAY, [reserve] * players, [None] * players, [False] * players
        )
        saved = settings.get(SAVED)
        if isinstance(saved, dict) and all(
            len(saved.get(k) or []) == players for k in ("since", "reserve", "expired")
        ):
            clock.since = [None if v is None else float(v) for v in saved["since"]]
            clock.reserve = [max(0.0, float(v)) for v in saved["reserve"]]
            clock.expired = [bool(v) for v in saved["expired"]]
        return clock

    def saved(self) -> dict[str, Any]:
        return {
            "since": list(self.since),
            "reserve": list(self.reserve),
            "expired": list(self.expired),
        }

    def used(self, seat: int, spans: Sequence[tuple[float, float]], at: float) -> float:
        """The time the seat's move has taken (its vacations not counted)."""
        since = self.since[seat]
        return 0.0 if since is None else max(0.0, at - since - paused(spans, since, at))

    def left(self, seat: int, spans: Sequence[tuple[float, float]], at: float) -> float | None:
        """Seconds left for the seat's move, reserve included (None: not its move)."""
        if self.since[seat] is None:
            return None
        return max(0.0, self.per_move + self.reserve[seat] - self.used(seat, spans, at))

    def sync(
        self,
        actors: Sequence[int],
        spans: Callable[[int], Sequence[tuple[float, float]]],
        at: float,
    ) -> list[int]:
        """Start the moves of ``actors``; end the others' (an overrun is paid from the
        reserve). Returns the seats whose move began."""
        began = []
        for seat in range(len(self.since)):
            if seat in actors and self.since[seat] is None:
                self.since[seat] = at
                began.append(seat)
            elif seat not in actors and self.since[seat] is not None:
                overrun = self.used(seat, spans(seat), at) - self.per_move
                self.reserve[seat] = max(0.0, self.reserve[seat] - max(0.0, overrun))
                self.since[seat] = None
                self.expired[seat] = False
        return began


class TableDays:
    """A table's days clocks (none: ``clock`` is None), the timer of their next deadline,
    and the seated players' vacations. It sees the table through ``DaysFace``."""

    def __init__(self, table: DaysFace, players: int, realtime: bool) -> None:
        self.table = table
        self.clock = DaysClock.for_table(table.settings, players, realtime)
        table.settings.pop(SAVED, None)
        self._timer: asyncio.TimerHandle | None = None
        #: The seated accounts' vacations (None: not read yet), by account.
        self._vacations: dict[int, list[tuple[float, float]]] | None = None

    def spans(self, seat: int) -> list[tuple[float, float]]:
        """The vacations of seat ``seat``'s account."""
        user = self.table.seats[seat].user_id
        return [] if user is None or not self._vacations else self._vacations.get(user, [])

    def saved(self) -> dict[str, Any] | None:
        """The clocks as the settings keep them (None: not a days table)."""
        return None if self.clock is None else self.clock.saved()

    def expired(self, index: int) -> bool:
        """Seat ``index``'s time ran out (the others may expel them)."""
        return self.clock is not None and self.clock.expired[index]

    def json(self) -> dict[str, Any] | None:
        """Days per move, each seat's time left for its move (null: not its move),
        reserve and whether it ran out (None: not a days table)."""
        days = self.clock
        if days is None:
            return None
        at = now()
        left = [days.left(seat, self.spans(seat), at) for seat in range(len(days.since))]
        return {
            "per_move": days.per_move,
            "left": [None if value is None else round(value, 1) for value in left],
            "reserve": [round(value, 1) for value in days.reserve],
            "expired": list(days.expired),
        }

    def _waiting_on(self) -> list[int]:
        """The people who must move now (a bot's move is no one's wait)."""
        table = self.table
        if table.status != "running":
            return []
        return [
            s
            for s in table.state.actors()
            if table.seats[s].is_person and table.seats[s].bot_level is None
        ]

    def refresh(self, over: bool = False) -> None:
        """Start the clocks of the people who must move now, stop the others'."""
        if self.clock is None:
            return
        self.clock.sync([] if over else self._waiting_on(), self.spans, now())
        self.arm()

    def arm(self) -> None:
        """Look again at the next deadline (at least every ``days_check_seconds``)."""
        self.cancel()
        days = self.clock
        if days is None or self.table.status != "running":
            return
        at = now()
        due = [
            days.left(seat, self.spans(seat), at) or 0.0
            for seat in range(len(days.since))
            if days.since[seat] is not None and not days.expired[seat]
        ]
        delay = min([*due, self.table.limits.days_check_seconds])
        if self._vacations is None:
            delay = 0.0  # read the vacations first
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(max(0.0, delay), self.table.chore, DAYS)

    def vacations_changed(self) -> None:
        """A seated player's vacations changed: read them again, look at the clocks."""
        if self.clock is not None and self.table.status == "running":
            self.cancel()
            self.table.chore(DAYS)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def check(self) -> None:
        """The table's chore: read the vacations, mark the seats whose time ran out,
        end the match if nobody is left to wait for."""
        self._timer = None
        days, table = self.clock, self.table
        if days is None or table.status != "running":
            return
        users = [seat.user_id for seat in table.seats if seat.user_id is not None]
        oldest = min((v for v in days.since if v is not None), default=now())
        try:
            self._vacations = await table.store.read(
                lambda conn: vacations.of_players(conn, users, oldest)
            )
        except Exception:
            log.exception("table %s: could not read vacations", table.id)
            self._vacations = self._vacations or {}
        at = now()
        ran_out = [
            seat
            for seat in self._waiting_on()
            if not days.expired[seat] and (days.left(seat, self.spans(seat), at) or 0.0) <= 0
        ]
        for seat in ran_out:
            days.expired[seat] = True
        if ran_out:
            await table.save_settings()
            table.audience.broadcast_table()
            table.audience.broadcast_state(
                [{"type": "days", "seat": seat, "expired": True} for seat in ran_out]
            )
        if await self.end_if_nobody_waits():  # also: the others left since one ran out
            return
        self.arm()

    async def end_if_nobody_waits(self) -> bool:
        """Every person still seated is out of time: the match ends, abandoned, those
        seats counted as leavers. True if it did."""
        days, table = self.clock, self.table
        seated = [seat.index for seat in table.seats if seat.is_person and not seat.left]
        if days is None or table.status != "running" or not seated:
            return False
        if not all(days.expired[index] for index in seated):
            return False
        table.left_order.extend(index for index in seated if index not in table.left_order)
        await table.abandon()
        return True
