"""Stand-ins: a bot plays for a person who is away, and the seat stays theirs.

Board Game Arena's "zombie mode, with a way home". A person is away while no
client holds their seat's token. Once they have been away for the table's
``grace_seconds`` (a table setting; ``grace_default``):

- any other seated person may seat a stand-in there
  (``POST /api/tables/{id}/seats/{seat}/bot``, any level the game offers);
- and when the seat must act (it is among ``state.actors()``: its turn, a
  simultaneous pick, Espresso's ready check or its play) a stand-in takes it
  by itself, at ``level_for(game)``: medium for real-time games, greedy for
  turn-based ones.

The person's token keeps working: when they connect with it, the stand-in
stops and the seat is theirs again at once (a ``table`` message shows every
seat's ``stand_in``). A seat out of time on the clock is the exception: the
greedy stand-in plays it for the rest of the match (its time stays at zero);
the person may connect and watch their seat but not act.

At a table with days per move (``turn_days.py``) nobody's grace ever ends: the seat
waits for its person, until the others expel them once their time ran out.

Stand-ins survive a restart: the table's settings hold them (``stand_ins``:
``{"seat": level}``), saved whenever they change; the seats' records are
not theirs to change.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from coffeetable import bots
from coffeetable.engine import Game
from coffeetable.server.tables import wire
from coffeetable.server.tables.bot_tasks import start_bots, stop_bot
from coffeetable.server.tables.clock import CLOCK_BOT
from coffeetable.server.tables.submission import GRACE, SAVE
from coffeetable.server.tables.turn_days import is_days_table

if TYPE_CHECKING:
    from coffeetable.server.tables.face import StandInsFace

#: The settings key that holds the stand-ins: {"seat": level}.
STAND_INS = "stand_ins"
#: Stand-in levels in order of preference: the first one the game offers plays.
REALTIME_LEVELS = ("medium", "greedy", "random")
TURN_BASED_LEVELS = ("greedy", "random")
#: Default ``grace_seconds``. Espresso is a race: while an absent player's seat
#: waits, the others' ready check waits and the round runs on without them, so
#: 30 s (a reload, a dropped Wi-Fi). Turn-based games wait only on the absent
#: seat's turns, and a phone switching networks takes a while: 60 s.
REALTIME_GRACE = 30.0
TURN_BASED_GRACE = 60.0


def grace_default(game: Game) -> float:
    return REALTIME_GRACE if game.realtime else TURN_BASED_GRACE


def level_for(game: Game) -> str:
    """The bot that stands in for an absent person at ``game``."""
    offered = bots.available(game.name)
    preferred = REALTIME_LEVELS if game.realtime else TURN_BASED_LEVELS
    return next((level for level in preferred if level in offered), offered[0])


class StandIns:
    """Grace timers, stand-ins and reclaiming a seat, for one table (seen through
    ``StandInsFace``)."""

    def __init__(self, table: StandInsFace, saved: Any) -> None:
        """``saved``: the stand-ins the table's settings held (``STAND_INS``)."""
        self.table = table
        self._grace_timers: dict[int, asyncio.TimerHandle] = {}
        self._grace_queued = False
        levels = bots.available(table.game.name)
        seats = table.seats
        if isinstance(saved, dict):
            for key, level in saved.items():
                index = int(key) if str(key).isdigit() else -1
                if 0 <= index < table.players and level in levels:
                    seats[index].stand_in = level
        for seat in seats:
            if not seat.is_person:
                seat.stand_in = None
            elif table.out_of_time(seat.index):
                seat.stand_in = seat.stand_in or CLOCK_BOT

    @property
    def grace_seconds(self) -> float:
        value = self.table.settings.get("grace_seconds")
        return grace_default(self.table.game) if value is None else float(value)

    def saved(self) -> dict[str, str]:
        """The stand-ins as the settings keep them: {"seat": level}."""
        return {str(s.index): s.stand_in for s in self.table.seats if s.stand_in is not None}

    # -- grace ---------------------------------------------------------------

    def arm_grace(self, index: int) -> None:
        """The person of seat ``index`` is away: look again once their grace is over."""
        self.cancel_grace(index)
        seat = self.table.seats[index]
        if not self.table.live or not seat.is_person or seat.stand_in is not None:
            return
        if is_days_table(self.table.settings):
            return  # away is the normal case: the seat waits for its person
        due = max(0.0, self.grace_seconds - seat.away_for())
        loop = asyncio.get_running_loop()
        self._grace_timers[index] = loop.call_later(due, self._wake)

    def cancel_grace(self, index: int | None = None) -> None:
        """Forget seat ``index``'s grace timer (None: every seat's)."""
        indices = list(self._grace_timers) if index is None else [index]
        for key in indices:
            timer = self._grace_timers.pop(key, None)
            if timer is not None:
                timer.cancel()

    def _wake(self) -> None:
        if not self._grace_queued:
            self._grace_queued = True
            self.table.chore(GRACE)

    def grace_over(self, index: int, now: float | None = None) -> bool:
        """The seat's person has been away for at least ``grace_seconds`` (as of ``now``,
        a ``time.monotonic()`` reading; None: this moment)."""
        seat = self.table.seats[index]
        if not seat.is_person or seat.connections or is_days_table(self.table.settings):
            return False  # at a days table, a seat waits for its person (or is expelled)
        moment = time.monotonic() if now is None else now
        return moment - seat.absent_since >= self.grace_seconds

    def _due(self, now: float | None = None) -> list[int]:
        """Absent people's seats that must act now and have no stand-in yet."""
        table = self.table
        if table.status != "running" or table.holding or not table.running:
            return []
        return [
            index
            for index in table.state.actors()
            if table.seats[index].stand_in is None and self.grace_over(index, now)
        ]

    def check(self) -> None:
        """Whenever the table changes: wake the actor if a stand-in is due."""
        if self._due():
            self._wake()

    async def on_grace(self) -> None:
        """The GRACE chore: seat the stand-ins that are due, look again later for the rest."""
        self._grace_queued = False
        # One clock reading for both looks: a seat whose grace ends between them would
        # be neither stood in for nor looked at again (seen in CI).
        now = time.monotonic()
        level = level_for(self.table.game)
        for index in self._due(now):
            await self.stand_in(index, level)
        for seat in self.table.seats:  # a timer may fire a moment early: look again then
            away = seat.is_person and not seat.connections and seat.stand_in is None
            if away and not self.grace_over(seat.index, now):
                self.arm_grace(seat.index)

    # -- stand-ins -----------------------------------------------------------

    async def stand_in(self, index: int, level: str, expired: bool = False) -> None:
        """A ``level`` bot plays seat ``index`` for its person (who keeps the seat)."""
        table = self.table
        seat = table.seats[index]
        if seat.stand_in != level:
            stop_bot(table, index)
        seat.stand_in = level
        self.cancel_grace(index)
        await table.save_settings()
        if table.status == "running":  # else the match's start starts it (Table.begin)
            start_bots(table)
        table.audience.broadcast_table()
        if expired:  # everyone hears it, in a state (events ride in states)
            table.audience.broadcast_state([wire.clock_expired(index)])
        else:
            table.audience.send_seat_state(index)

    def reclaim(self, index: int) -> bool:
        """The person of seat ``index`` is back: their stand-in stops (unless the seat
        is out of time). True if one did (the settings are saved through the actor)."""
        table = self.table
        seat = table.seats[index]
        self.cancel_grace(index)
        if seat.stand_in is None or table.out_of_time(index):
            return False
        stop_bot(table, index)
        seat.stand_in = None
        if table.running:
            table.chore(SAVE)
        return True

    def person_left(self, index: int) -> None:
        """Seat ``index`` has no person any more (left, or handed to a bot)."""
        self.cancel_grace(index)
        seat = self.table.seats[index]
        seat.stand_in = None
        seat.absent_since = time.monotonic()
