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

The table is built from parts, plain objects that each hold one concern and see
the table through a small typed face (``face.py``), never this module:
``audience`` (its clients and what they are sent), ``countdown`` (play held
at a round's start: "3, 2, 1, ESPRESSO!"), ``clock`` (a turn-based
table's chess clock, setting ``clock_minutes``: a seat out of time is played by
the greedy stand-in, event ``{"type": "clock", "seat": s, "expired": true}``),
``stand_ins`` (a bot plays for a person away longer than ``grace_seconds``, until
they are back), ``idle`` (the game's ``idle_seconds`` rule: the table's own
``{"type": "idle"}`` action) and ``abandon_timer`` (a table nobody watches for
``Limits.abandon_after_seconds`` closes as "abandoned"). A part's timer queues a
chore (``chore``) that the actor runs between actions: only the actor changes a table.

History: an arriving client gets the last ``HISTORY`` public events first. ``news``
(``news.py``) tells the site's notifications each saved action's news, never awaited;
``days`` (``turn_days.py``) runs the clocks of a table with days per move.
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
from coffeetable.server.tables import fence, seating, wire
from coffeetable.server.tables.abandon import AbandonTimer
from coffeetable.server.tables.audience import Audience
from coffeetable.server.tables.bot_tasks import start_bots
from coffeetable.server.tables.clock import CLOCK_BOT, SAVED, ChessClock, TableClock
from coffeetable.server.tables.connections import Connection
from coffeetable.server.tables.countdown import COUNTDOWN, Countdown
from coffeetable.server.tables.idle import IdleTimer
from coffeetable.server.tables.news import Newsroom
from coffeetable.server.tables.seats import Seat
from coffeetable.server.tables.stand_ins import STAND_INS, StandIns
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
    illegal,
    not_running,
    reject,
)
from coffeetable.server.tables.submission import refusal as submission_refusal
from coffeetable.server.tables.turn_days import SAVED as DAYS_SAVED
from coffeetable.server.tables.turn_days import TableDays
from coffeetable.store import Store, TableRecord

__all__ = ["COUNTDOWN", "HISTORY", "IDLE_ACTION", "Submission", "Table"]

log = logging.getLogger("coffeetable.server")

#: Public events kept for clients that arrive mid-match.
HISTORY = 200
KeyFn = Callable[[Any, int, Any], Any]


class Table:
    """One table: its match state, log, seats and actor; its clients, clock, stand-ins
    and abandon timer as parts."""

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
        clock = ChessClock.for_table(self.settings, record.players, game.realtime)
        self.settings.pop(SAVED, None)
        stand_ins = self.settings.pop(STAND_INS, None)
        self.name = record.name
        self.status = record.status  # open | running | over | abandoned
        self.created = record.created
        self.store = store
        self.seats = [Seat.from_record(seat) for seat in record.seats]
        bot_seats.restore(self.seats, self.settings)  # which seats programs hold
        seating.restore_invited(self.seats, self.settings)  # and which are held for whom
        #: Seats whose person left the match (or handed it to a bot), in that order:
        #: they rank last, later leavers above earlier ones (``ratings``).
        self.left_order: list[int] = [seat.index for seat in self.seats if seat.left]
        self.log: list[tuple[int | None, dict[str, Any]]] = list(record.actions)
        #: Seats that acted by their own player (a socket, or the seat's own bot), and
        #: those a stand-in chose for at least once (``seating.choosers``: from the log).
        self.acted, self.stood_in = seating.choosers(self.log, record.by_stand_in)
        self.recent: deque[Event] = deque(maxlen=HISTORY)
        #: The chat's last messages (None until ``chat.load`` read them).
        self.chat: deque[dict[str, Any]] | None = None
        self.state: State = self._replay()
        #: Bumped whenever what a seat may do changes (bots wait on it).
        self.version = 0
        self._changed = asyncio.Event()
        #: An action is being saved (a client arriving now gets its broadcast).
        self.committing = False
        self._queue: asyncio.Queue[Submission] = asyncio.Queue()
        self._actor: asyncio.Task[None] | None = None
        self.bots: dict[int, asyncio.Task[None]] = {}
        module = heuristics(game.name)
        self._key: KeyFn | None = hook(module, "action_key", None)
        # The parts (``face.py`` says what each of them sees of the table).
        self.audience = Audience(self)
        self.countdown = Countdown(self)
        self.clock = TableClock(self, clock)
        self.stand_ins = StandIns(self, stand_ins)
        self.idle = IdleTimer(self)
        self.abandon_timer = AbandonTimer(self)
        self.news = Newsroom(self)
        self.days = TableDays(self, record.players, game.realtime)  # days per move

    # -- facts ---------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of accepted actions (the seq of the last one)."""
        return len(self.log)

    @property
    def bot_speed(self) -> float:
        return float(self.settings.get("bot_speed", 1))

    @property
    def live(self) -> bool:
        return self.status in ("open", "running")

    @property
    def holding(self) -> bool:
        return self.countdown.holding  # the countdown holds play (``countdown.py``)

    @property
    def running(self) -> bool:
        return self._actor is not None  # the actor runs

    @property
    def connections(self) -> set[Connection]:
        return self.audience.connections  # the clients

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
        """What ``action`` means as ``seat`` sees it in ``state`` (default: now): the game's
        heuristics' ``action_key``; None when the game has none or the action makes no sense."""
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
            # Whose table it is, for pages to word its name in their language (the creator
            # sits in the first seat neither a bot's nor held for an invitee; None: all bots).
            "owner": next((s.name for s in self.seats if s.bot is None and s.name), None),
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "options": dict(self.options),
            "settings": dict(self.settings),
            "status": self.status,
            "seq": self.seq,
            "seats": [seat.summary() for seat in self.seats],
            "spectators": self.audience.spectators,
            "created": self.created,
            "clock": self.clock.json(),
            "days": self.days.json(),
            "rated": seating.is_rated(self),
        }

    def clock_json(self) -> dict[str, Any] | None:
        return self.clock.json()  # the seats' time left (None: no clock)

    def days_json(self) -> dict[str, Any] | None:
        return self.days.json()  # the days clocks (None: not a table with days per move)

    def out_of_time(self, index: int) -> bool:
        """The seat's clock has run out (its stand-in stays for the rest of the match)."""
        return self.clock.out_of_time(index)

    def saved_settings(self) -> dict[str, Any]:
        """The settings as the database keeps them: with the clock and the stand-ins."""
        saved = dict(self.settings)
        left, days = self.clock.saved(), self.days.saved()
        if left is not None:
            saved[SAVED] = left
        if days is not None:
            saved[DAYS_SAVED] = days
        stand_ins = self.stand_ins.saved()
        if stand_ins:
            saved[STAND_INS] = stand_ins
        return saved

    async def save_settings(self) -> None:
        saved = self.saved_settings()
        await self.store.write(lambda conn: self.store.db.set_settings(conn, self.id, saved))

    # -- the audience ------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """A client arrives: it gets the table, the recent public events and chat, then
        its state. A person back at their seat takes it back from its stand-in first,
        so that this state already offers them their moves."""
        first = self.audience.add(conn)
        self.abandon_timer.cancel()
        if first and conn.seat is not None:
            self.stand_ins.reclaim(conn.seat)
        self.audience.welcome(conn)
        if first:
            self.audience.broadcast_table()

    def detach(self, conn: Connection) -> None:
        """A client went away (a person whose last client it was is away from now on)."""
        if conn not in self.audience.connections:
            return
        if self.audience.remove(conn) and conn.seat is not None:
            self.stand_ins.arm_grace(conn.seat)
            self.audience.broadcast_table()
        if not self.audience.connections:
            self.abandon_timer.arm()

    # -- life ----------------------------------------------------------------

    def start(self) -> None:
        """Start the actor (and, if running, the bots and the idle timer); people who
        are not connected are away from now on (grace and abandon timers)."""
        if self.live and self._actor is None:
            self._actor = asyncio.get_running_loop().create_task(self._run())
            for seat in self.seats:
                if seat.is_person and not seat.connections:
                    self.stand_ins.arm_grace(seat.index)
            self.abandon_timer.arm()
        if self.status == "running":
            self._begin()

    def _begin(self) -> None:
        start_bots(self)
        self.clock.switch()
        self.days.refresh()
        self.idle.arm()
        self._bump()

    async def begin(self) -> None:
        """Every seat is taken: the match is on."""
        self.status = "running"
        await self.store.write(lambda conn: self.store.db.set_status(conn, self.id, "running"))
        self.news.began()
        self._begin()
        self.audience.broadcast_table()
        self.audience.broadcast_state()

    async def stop(self) -> None:
        """Cancel the actor, bots and timers (server shutdown or table closed)."""
        self._cancel_timers()
        self.abandon_timer.cancel()
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

    async def abandon(self) -> None:
        """Close the table as abandoned (``abandon.py``); watchers get its last state."""
        if not self.live:
            return
        # A match that had begun is recorded (and rated: its leavers lose) as it closes.
        result = None
        if self.status == "running":
            result = seating.summary_for(self, self.left_order, status="abandoned")
        self.status = "abandoned"
        self.abandon_timer.cancel()

        def write(conn: Any) -> None:
            self.store.db.set_status(conn, self.id, "abandoned")
            if result is not None:
                finish_match(conn, result)

        await self.store.write(write)
        await self.stop()
        self.audience.broadcast_table()
        self.audience.broadcast_state()

    # -- actions -------------------------------------------------------------

    def chore(self, submission: Submission) -> None:
        """Queue a part's chore (``submission.py``) for the actor: its timer fired."""
        self._queue.put_nowait(submission)

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
            reject(submission, *not_running(self.status))
            return
        self._queue.put_nowait(submission)

    async def _run(self) -> None:
        chores = {
            TICK: self._end_hold,
            IDLE: self._on_idle,
            CLOCK: self._on_clock,
            GRACE: self.stand_ins.on_grace,
            SAVE: self.save_settings,
            ABANDON: self.abandon_timer.fire,
            DAYS: self.days.check,
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
            reject(self._queue.get_nowait(), *not_running(self.status))

    async def _process(self, submission: Submission) -> None:
        if self.status != "running":
            reject(submission, *not_running(self.status))
            return
        if self.holding:
            reject(submission, "wait for ESPRESSO!", wire.WAIT, self.countdown.left())
            return
        refusal = submission_refusal(submission, self.seats, self.out_of_time)
        if refusal is not None:
            reject(submission, *refusal)
            return
        seat, action, key = submission.seat, submission.action, submission.key
        if seat is not None and key is not None and self.action_key(seat, action) != key:
            reject(submission, "too slow", wire.TOO_SLOW)  # the card it named has moved
            return
        try:
            events = self.state.apply(seat, action)
        except IllegalAction as error:
            reject(submission, *illegal(submission, error.reason, self.state.actors()))
            return
        except Exception:
            log.exception("table %s: the game failed on %r", self.id, action)
            self.state = self._replay()
            reject(submission, "the game could not apply this action", wire.SERVER)
            return
        if await self._commit(seat, action, events, submission.sender):
            submission.settle(True)
        else:
            reject(submission, "the server could not save this action", wire.SERVER)

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
            self.countdown.holding = True  # from now on nobody is offered a move
        seq = self.seq + 1
        db = self.store.db
        self.clock.switch(over)
        self.days.refresh(over)
        timed = self.clock.clock is not None or self.days.clock is not None
        saved = self.saved_settings() if timed else None

        by_person = seat is not None and (sender is not None or self._own_bot_plays(seat))
        by_stand_in = seat is not None and not by_person
        choosers = self.stood_in if by_stand_in else self.acted  # in the result below too
        newly = set() if seat is None else {seat} - choosers  # undone if the action is not saved
        choosers |= newly
        # The match's result and ratings are written with its last action: one transaction.
        result = seating.summary_for(self, self.left_order) if over else None
        news = self.news.after(seat, by_person, over)

        def write(conn: Any) -> None:
            db.append_action(conn, self.id, seq, seat, action, by_stand_in)
            if saved is not None:
                db.set_settings(conn, self.id, saved)
            if result is not None:
                db.set_status(conn, self.id, "over")
                finish_match(conn, result)

        self.committing = True
        try:
            await self.store.write(write)
        except Exception as error:
            log.exception("table %s: could not save action %d", self.id, seq)
            choosers -= newly
            if fence.is_fence(error):  # another process wrote it: go on from the stored log
                await fence.reload_log(self)
            self.countdown.holding = False
            self.state = self._replay()
            self.audience.broadcast_state()  # clients that arrived meanwhile have none yet
            self._bump()
            return False
        finally:
            self.committing = False
        self.log.append((seat, action))
        self.news.applied(news, over)
        self.idle.last_action = time.monotonic()
        self.recent.extend(events)
        sent = list(events)  # one state per client carries them all (no "event" frames)
        if self.holding:
            sent.append(self.countdown.start())
        if over and self.status == "running":
            self.status = "over"
            self.audience.broadcast_state(sent, sender)  # the last events and state, then: over
            await self._finish()
        else:
            self.audience.broadcast_state(sent, sender)
        self._bump()
        self.idle.arm()
        return True

    def _own_bot_plays(self, seat: int) -> bool:
        """The seat's own bot acts (a bot seat from the start)."""
        return self.seats[seat].bot is not None and seat not in self.left_order

    async def _finish(self) -> None:
        self._cancel_timers()
        self.abandon_timer.cancel()
        for task in list(self.bots.values()):
            task.cancel()
        self.bots.clear()
        self.audience.broadcast_table()

    def _cancel_timers(self) -> None:
        """The idle, clock and grace timers (not the abandon timer)."""
        self.idle.cancel()
        self.clock.cancel()
        self.days.cancel()
        self.stand_ins.cancel_grace()

    async def _end_hold(self) -> None:
        if not self.countdown.end():
            return
        self.audience.broadcast_state()
        self._bump()
        self.idle.arm()

    async def _on_clock(self) -> None:
        """A clock may have run out: the greedy bot stands in for that seat from now on."""
        index = self.clock.expired()
        if index is not None:
            await self.stand_ins.stand_in(index, CLOCK_BOT, expired=True)
            self._bump()

    async def _on_idle(self) -> None:
        """The IDLE chore: the idle rule's action, if it is due and the game takes it."""
        if not self.idle.due():
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
        self.stand_ins.check()

    async def wait_change(self, seen: int) -> None:
        """Return once ``version`` differs from ``seen``."""
        while self.version == seen:
            await self._changed.wait()
