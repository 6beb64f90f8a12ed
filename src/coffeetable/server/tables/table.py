"""A live table: one match, its seats, its clients, and the actor that applies actions.

Every action (a person's, a bot's, or the table's own timer as seat None) goes
through one queue, read by one task, in arrival order:

1. applied to the state (refused: a "rejected" message to its sender only).
   "too slow": the state the sender acted on offered the action, but it is no
   longer legal or no longer means the same (the game's ``heuristics.action_key``:
   with Chaos someone took the card that slot held);
2. committed to the database (``seq`` = its position in the log);
3. only then broadcast: each client's new state, carrying the action's public
   events (``"events"``; one frame per client per action).

Countdown: when a round starts (event ``round_started``) the table holds play
for ``COUNTDOWN / bot_speed`` seconds (the state's events end with
``{"type": "countdown", "seconds"}``). During the hold every seat's ``legal`` is
empty and actions are refused with "wait for ESPRESSO!" (no false starts);
when it ends a fresh state goes out and the bots start.

Clock: a turn-based table with the setting ``clock_minutes`` gives each seat
that much thinking time (``server/tables/clock.py``); it runs only for the single
actor, is sent in every state (``clock``) and in the summary, and a seat whose
time runs out is played by the greedy stand-in for the rest of the match
(event ``{"type": "clock", "seat": s, "expired": true}``, in a state to everyone).

Stand-ins (``server/tables/stand_ins.py``): a person away longer than the table's
``grace_seconds`` keeps their seat; when it must act, a bot plays it for them
until they connect again with their token.

Abandon (``server/tables/abandon.py``): a live table with no client at all for
``Limits.abandon_after_seconds`` is closed as "abandoned" (not a table with days per
move, ``server/tables/turn_days.py``, which waits for its players).

History: a client that arrives gets, before its first state, the last
``HISTORY`` public events of the match (``{"type": "history", "events": [...]}``;
rebuilt from the log after a restart), so a board's game log survives a reload.

Idle rule: if the game has an ``idle_seconds`` option, a running table with no
accepted action for that long applies ``(None, {"type": "idle"})``; the game
decides whether it applies (Espresso: only during play), and it is logged like
any other action.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from coffeetable.bots.hooks import hook
from coffeetable.bots.registry import heuristics
from coffeetable.engine import Event, Game, IllegalAction, MatchLog, State
from coffeetable.server.limits import Limits
from coffeetable.server.players import bot_seats
from coffeetable.server.players.ratings import finish_match
from coffeetable.server.tables import seating, wire
from coffeetable.server.tables.abandon import TableAbandon
from coffeetable.server.tables.bot_tasks import start_bots
from coffeetable.server.tables.clock import SAVED, ChessClock, TableClock
from coffeetable.server.tables.connections import Connection
from coffeetable.server.tables.seats import Seat
from coffeetable.server.tables.stand_ins import STAND_INS, TableStandIns
from coffeetable.server.tables.submission import (
    ABANDON,
    CLOCK,
    DAYS,
    GRACE,
    IDLE,
    IDLE_ACTION,
    SAVE,
    TICK,
    Submission,
)
from coffeetable.server.tables.turn_days import TableDays
from coffeetable.store import Store, TableRecord

__all__ = ["COUNTDOWN", "HISTORY", "IDLE_ACTION", "Submission", "Table"]

log = logging.getLogger("coffeetable.server")

#: Seconds of "3, 2, 1, ESPRESSO!" at bot_speed 1.
COUNTDOWN = 3.0
#: Public events kept for clients that arrive mid-match.
HISTORY = 200
KeyFn = Callable[[Any, int, Any], Any]


class Table(TableStandIns, TableAbandon, TableClock, TableDays):
    """One table: its match state, log, seats, clients, actor and bots."""

    def __init__(
        self, record: TableRecord, game: Game, store: Store, limits: Limits | None = None
    ) -> None:
        self.id = record.id
        self.game = game
        self.players = record.players
        self.seed = record.seed
        self.options = dict(record.options)
        self.settings = dict(record.settings)
        #: The server's limits (the lobby's).
        self.limits = limits or Limits()
        self.clock = ChessClock.for_table(self.settings, record.players, game.realtime)
        self.settings.pop(SAVED, None)
        self._init_days(record.players, game.realtime)  # days per move (``turn_days.py``)
        stand_ins = self.settings.pop(STAND_INS, None)
        self.name = record.name
        self.status = record.status  # open | running | over | abandoned
        self.created = record.created
        self.store = store
        self.seats = [Seat.from_record(seat) for seat in record.seats]
        bot_seats.restore(self.seats, self.settings)  # which seats programs hold
        #: Seats whose person left the match (or handed it to a bot), in that order:
        #: they rank last, later leavers above earlier ones (``ratings``).
        self.left_order: list[int] = [seat.index for seat in self.seats if seat.left]
        self.log: list[tuple[int | None, dict[str, Any]]] = list(record.actions)
        #: Seats that acted by their own player (a socket, or the seat's own bot): an
        #: abandoned match is rated only once all have (``seating``). After a restart:
        #: from the log, leavers left out (who played a seat is not logged).
        self.acted: set[int] = {
            seat for seat, _ in self.log if seat is not None and seat not in self.left_order
        }
        self.recent: deque[Event] = deque(maxlen=HISTORY)
        #: The chat's last messages (None until ``chat.load`` read them).
        self.chat: deque[dict[str, Any]] | None = None
        self.state: State = self._replay()
        self.connections: set[Connection] = set()
        #: Bumped whenever what a seat may do changes (bots wait on it).
        self.version = 0
        self._changed = asyncio.Event()
        self.holding = False
        #: When the countdown's hold ends (``time.monotonic``; while ``holding``).
        self._hold_until = 0.0
        self._committing = False
        self._queue: asyncio.Queue[Submission] = asyncio.Queue()
        self._actor: asyncio.Task[None] | None = None
        self._idle_timer: asyncio.TimerHandle | None = None
        self._clock_timer: asyncio.TimerHandle | None = None
        self._last_action = time.monotonic()
        self.bots: dict[int, asyncio.Task[None]] = {}
        module = heuristics(game.name)
        self._key: KeyFn | None = hook(module, "action_key", None)
        self._init_stand_ins(stand_ins)

    # -- facts ---------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of accepted actions (the seq of the last one)."""
        return len(self.log)

    @property
    def bot_speed(self) -> float:
        return float(self.settings.get("bot_speed", 1))

    @property
    def idle_seconds(self) -> float | None:
        value = self.options.get("idle_seconds")
        return float(value) if value else None

    @property
    def live(self) -> bool:
        return self.status in ("open", "running")

    def match_log(self) -> MatchLog:
        return MatchLog(self.game.name, self.players, self.seed, dict(self.options), list(self.log))

    def seat_for_token(self, token: str) -> int | None:
        """The seat this token holds, or None. A program's seat (a bot account's) answers
        to a live API key of its bot only, never to a token (``players/bot_seats.py``)."""
        for seat in self.seats:
            if seat.program is None and seat.matches(token):
                return seat.index
        return None

    def action_key(self, seat: int, action: Any, state: State | None = None) -> Any:
        """What ``action`` means as ``seat`` sees it (the cards it moves, where), in
        ``state`` (default: now).

        From the game's heuristics (``action_key``), as the real-time simulator
        uses it; None when the game has none or the action makes no sense.
        """
        if self._key is None:
            return None
        try:
            return self._key(self.state if state is None else state, seat, action)
        except Exception:
            return None

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` may do right now (nothing while waiting, holding or over)."""
        if seat is None or self.status != "running" or self.holding:
            return []
        if seat not in self.state.actors():
            return []
        return self.state.legal_actions(seat)

    def summary(self) -> dict[str, Any]:
        """The public description of the table (lobby and ``GET /api/tables/{id}``)."""
        return {
            "table_id": self.id,
            "name": self.name,
            # Whose table it is, for pages to word its name in their language (the
            # creator sits in the first seat that is not a bot; None: a table of bots).
            "owner": next((seat.name for seat in self.seats if seat.bot is None), None),
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "options": dict(self.options),
            "settings": dict(self.settings),
            "status": self.status,
            "seq": self.seq,
            "seats": [seat.summary() for seat in self.seats],
            "spectators": sum(1 for conn in self.connections if conn.seat is None),
            "created": self.created,
            "clock": self.clock_json(),
            "days": self.days_json(),
            "rated": seating.is_rated(self),
        }

    def clock_json(self) -> dict[str, Any] | None:
        """The seats' time left and whose clock runs (None: the table has no clock)."""
        return None if self.clock is None else self.clock.json()

    # -- life ----------------------------------------------------------------

    def start(self) -> None:
        """Start the actor (and, if running, the bots and the idle timer); people who
        are not connected are away from now on (grace and abandon timers)."""
        if self.live and self._actor is None:
            self._actor = asyncio.get_running_loop().create_task(self._run())
            for seat in self.seats:
                if seat.is_person and not seat.connections:
                    self.arm_grace(seat.index)
            self.arm_abandon()
        if self.status == "running":
            self._begin()

    def _begin(self) -> None:
        start_bots(self)
        self._switch_clocks()
        self._arm_idle()
        self._bump()

    async def begin(self) -> None:
        """Every seat is taken: the match is on."""
        self.status = "running"
        await self.store.write(lambda conn: self.store.db.set_status(conn, self.id, "running"))
        self._begin()
        self.broadcast_table()
        self.broadcast_state()

    async def stop(self) -> None:
        """Cancel the actor, bots and timers (server shutdown or table closed)."""
        self._cancel_timers()
        self.cancel_abandon()
        tasks = [task for task in (self._actor, *self.bots.values()) if task is not None]
        self._actor = None
        self.bots.clear()
        self._bump()
        for task in tasks:
            task.cancel()
        for task in tasks:
            if task is not asyncio.current_task():
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # -- actions -------------------------------------------------------------

    def submit(self, submission: Submission, not_before: float | None = None) -> None:
        """Queue an action; a closed or finished table refuses it at once. ``not_before``
        (``time.monotonic``): hold it until then (a program's, ``reaction.py``)."""
        if submission.sender is not None:
            submission.sender.pending += 1
        delay = 0.0 if not_before is None else not_before - time.monotonic()
        if delay > 0 and self._actor is not None and self.live:
            asyncio.get_running_loop().call_later(delay, self._enqueue, submission)
            return
        self._enqueue(submission)

    def _enqueue(self, submission: Submission) -> None:
        if self._actor is None or not self.live:
            self._reject(submission, *self._not_running())
            return
        self._queue.put_nowait(submission)

    def _not_running(self) -> tuple[str, str]:
        """Why the table takes no action now, and the code that says so."""
        reason = {
            "open": "the match has not started: waiting for players",
            "over": "the match is over",
        }.get(self.status, "the table is closed")
        return reason, wire.NOT_RUNNING

    @staticmethod
    def _reject(sub: Submission, reason: str, code: str, retry_after: float | None = None) -> None:
        sub.settle(False)
        if sub.sender is not None:
            sub.sender.send_json(wire.rejected(reason, code, sub.action, retry_after))

    async def _run(self) -> None:
        chores = {
            TICK: self._end_hold,
            IDLE: self._on_idle,
            CLOCK: self._on_clock,
            GRACE: self._on_grace,
            SAVE: self.save_settings,
            ABANDON: self._on_abandon,
            DAYS: self.check_days,
        }
        while self.live:
            submission = await self._queue.get()
            try:
                chore = chores.get(submission)
                if chore is not None:
                    await chore()
                else:
                    await self._process(submission)
            except Exception:  # keep the table alive whatever one action did
                log.exception("table %s: failed to process %r", self.id, submission.action)
        self._actor = None  # the match is over: refuse what is still queued
        while not self._queue.empty():
            self._reject(self._queue.get_nowait(), *self._not_running())

    async def _process(self, submission: Submission) -> None:
        if self.status != "running":
            self._reject(submission, *self._not_running())
            return
        if self.holding:
            left = self._hold_until - time.monotonic()
            self._reject(submission, "wait for ESPRESSO!", wire.WAIT, max(0.0, left))
            return
        refusal = self._refusal(submission)
        if refusal is not None:
            self._reject(submission, *refusal)
            return
        seat, action, key = submission.seat, submission.action, submission.key
        if seat is not None and key is not None and self.action_key(seat, action) != key:
            self._reject(submission, "too slow", wire.TOO_SLOW)  # the card it named has moved
            return
        try:
            events = self.state.apply(seat, action)
        except IllegalAction as error:
            if submission.basis is not None and action in submission.basis:
                self._reject(submission, "too slow", wire.TOO_SLOW)
            elif seat is not None and seat not in self.state.actors():
                self._reject(submission, error.reason, wire.NOT_YOUR_TURN)
            else:
                self._reject(submission, error.reason, wire.ILLEGAL)
            return
        except Exception:
            log.exception("table %s: the game failed on %r", self.id, action)
            self.state = self._replay()
            self._reject(submission, "the game could not apply this action", wire.SERVER)
            return
        if await self._commit(seat, action, events, submission.sender):
            submission.settle(True)
        else:
            self._reject(submission, "the server could not save this action", wire.SERVER)

    def _refusal(self, submission: Submission) -> tuple[str, str] | None:
        """Why a submission no longer speaks for its seat, and its code; or None."""
        sender, seat = submission.sender, submission.seat
        if sender is not None and sender.seat != seat:
            return "this seat is no longer yours", wire.NOT_YOURS
        if seat is None:
            return None
        playing = self.seats[seat].bot_level
        if sender is not None and playing is not None:
            if self.out_of_time(seat):
                reason = f"your time ran out: the {playing} stand-in plays your seat"
                return reason, wire.STAND_IN
            return f"the {playing} stand-in plays this seat", wire.STAND_IN
        if sender is None and playing is None:
            return "this seat is no longer a bot's", wire.NOT_YOURS  # its person came back
        return None

    async def _commit(
        self,
        seat: int | None,
        action: Any,
        events: list[dict[str, Any]],
        sender: Connection | None = None,
    ) -> bool:
        """Log the applied action, then tell everyone: each client's state with the events
        (``sender``'s, the socket that sent the action, says it is ``yours``).

        False if it could not be saved (the state is rebuilt without it).
        """
        starts_round = any(event.get("type") == "round_started" for event in events)
        over = self.state.is_over
        if starts_round and not over:
            self.holding = True  # from now on nobody is offered a move
        seq = self.seq + 1
        db = self.store.db
        self._switch_clocks(over)
        saved = None if self.clock is None and self.days is None else self.saved_settings()

        # The match's result and ratings are written with its last action: one transaction.
        result = seating.summary_for(self, self.left_order) if over else None

        def write(conn: Any) -> None:
            db.append_action(conn, self.id, seq, seat, action)
            if saved is not None:
                db.set_settings(conn, self.id, saved)
            if result is not None:
                db.set_status(conn, self.id, "over")
                finish_match(conn, result)

        self._committing = True
        try:
            await self.store.write(write)
        except Exception:
            log.exception("table %s: could not save action %d", self.id, seq)
            self.holding = False
            self.state = self._replay()
            self.broadcast_state()  # clients that arrived meanwhile have none yet
            self._bump()
            return False
        finally:
            self._committing = False
        self.log.append((seat, action))
        if seat is not None and (sender is not None or self._own_bot_plays(seat)):
            self.acted.add(seat)  # not a stand-in, nor the bot that took a leaver's seat
        self._last_action = time.monotonic()
        self.recent.extend(events)
        sent = list(events)  # one state per client carries them all (no "event" frames)
        if self.holding:
            hold = COUNTDOWN / self.bot_speed
            self._hold_until = time.monotonic() + hold
            sent.append({"type": "countdown", "seconds": round(hold, 3)})
            loop = asyncio.get_running_loop()
            loop.call_later(hold, self._queue.put_nowait, TICK)
        if over and self.status == "running":
            self.status = "over"
            self.broadcast_state(sent, sender)  # the last events and state, then: over
            await self._finish()
        else:
            self.broadcast_state(sent, sender)
        self._bump()
        self._arm_idle()
        return True

    def _own_bot_plays(self, seat: int) -> bool:
        """The seat's own bot acts (a bot seat from the start)."""
        return self.seats[seat].bot is not None and seat not in self.left_order

    async def _finish(self) -> None:
        self._cancel_timers()
        self.cancel_abandon()
        for task in list(self.bots.values()):
            task.cancel()
        self.bots.clear()
        self.broadcast_table()

    def _cancel_timers(self) -> None:
        """The idle, clock and grace timers (not the abandon timer)."""
        for timer in (self._idle_timer, self._clock_timer):
            if timer is not None:
                timer.cancel()
        self._idle_timer = self._clock_timer = None
        self.cancel_grace()
        self.cancel_days()

    async def _end_hold(self) -> None:
        if not self.holding:
            return
        self.holding = False
        self.broadcast_state()
        self._bump()
        self._arm_idle()

    # -- the idle rule ---------------------------------------------------------

    def _arm_idle(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        idle = self.idle_seconds
        if idle is None or self.status != "running" or self.holding:
            return
        due = max(0.0, self._last_action + idle - time.monotonic())
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(due, self._queue.put_nowait, IDLE)

    async def _on_idle(self) -> None:
        idle = self.idle_seconds
        if idle is None or self.status != "running" or self.holding:
            return
        if time.monotonic() - self._last_action < idle - 0.001:
            self._arm_idle()  # an action came in since the timer was set
            return
        try:
            events = self.state.apply(None, dict(IDLE_ACTION))
        except IllegalAction:
            return  # not in play (e.g. the ready check): the next action re-arms it
        await self._commit(None, dict(IDLE_ACTION), events)

    # -- helpers -------------------------------------------------------------

    def _replay(self) -> State:
        """The state the log leads to (as ``engine.replay``), keeping its last events."""
        state = self.game.new_state(players=self.players, seed=self.seed, **self.options)
        self.recent.clear()
        for seat, action in self.log:
            self.recent.extend(state.apply(seat, action))
        return state

    def _bump(self) -> None:
        """What a seat may do changed: wake the bots, and see if a stand-in is due."""
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()
        self.check_stand_ins()

    async def wait_change(self, seen: int) -> None:
        """Return once ``version`` differs from ``seen``."""
        while self.version == seen:
            await self._changed.wait()
