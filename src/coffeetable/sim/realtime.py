"""A discrete-event simulator for real-time games (Espresso) between bots, on a virtual clock.

The model, the same as the live table's but with a virtual clock:

- Each bot always has exactly one action in flight. At time ``t`` it *looks*
  at the table: it chooses an action from the state at ``t`` (reading only
  its seat's view), draws a reaction time ``r`` for that action
  (``bot.reaction_time_for(action, rng)``), and the action *lands* at
  ``t + r``.
- At landing, if the action is no longer legal (another card landed first,
  or, with Chaos, the card it named was taken: the game's
  ``heuristics.action_key`` changed), it is refused ("too slow") and the bot
  looks again at once. Otherwise it is applied, written to the log, and the
  bot looks again at once. So of two bots racing for one stack, the one with
  the shorter reaction wins.
- A bot with nothing to do (no action it can judge) waits, and looks again
  the moment any action is applied.
- Ready phase: every bot looks at once when a round ends; its action is the
  ready check, landing after its ready reaction time (about 1-2 s). When the
  last seat is ready the round starts and every bot looks at the new table.
  Actions still in flight when a round ends are dropped (they arrived after
  FINITO and do not count).
- Events are ordered by (time, sequence number): equal times go first come,
  first served, so the whole match is deterministic from its seed; each seat's
  rng is derived from the seed (``bot_rngs``).
- Termination: like the live table, a round with no applied action for
  ``idle_seconds`` (the game's option, 60 s) ends with the table's
  ``(None, {"type": "idle"})``; as a guard against a round the bots keep
  alive without end, a round also gets the idle action after
  ``max_round_seconds`` (30 virtual minutes; bots' rounds last a few minutes).

The log of applied ``(seat, action)`` pairs (``MatchLog``) replays with
``coffeetable.engine.replay`` to the same final state.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from coffeetable.bots.base import Bot
from coffeetable.bots.hooks import hook
from coffeetable.engine import Action, Event, Game, IllegalAction, MatchLog, State

#: The table's action that ends a stalled round (Espresso's idle rule).
IDLE: Action = {"type": "idle"}
#: Guard: a round still running after this many virtual seconds is ended as idle.
MAX_ROUND_SECONDS = 1800.0
#: Guard: a match that needs more landings than this is a bug, not a long match.
MAX_LANDINGS = 5_000_000

KeyFn = Callable[[Any, int, Action], Any]


def bot_rngs(seed: int, players: int) -> list[random.Random]:
    """One generator per seat, derived from the match seed (stable across runs)."""
    return [random.Random(f"coffeetable-bot:{seed}:{seat}") for seat in range(players)]


def _key_function(game: Game) -> KeyFn:
    key: KeyFn | None = hook(game.heuristics(), "action_key", None)
    return key if key is not None else (lambda state, seat, action: None)


@dataclass
class Landing:
    """One action arriving at the table: applied, or refused as too slow."""

    time: float
    seat: int | None
    action: Action
    applied: bool


@dataclass
class RoundRecord:
    """A round's result (the ``round_over`` event) with its virtual times and how it ended."""

    round: int
    finito: int | None
    points: list[int]
    started: float
    ended: float
    #: "finito", "blocked" (the rules' blocked round), "idle" or "guard".
    ending: str


@dataclass
class Result:
    """What a simulated match leaves: the state, its log and the round records."""

    state: State
    log: MatchLog
    rounds: list[RoundRecord] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)
    applied: list[int] = field(default_factory=list)
    seconds: float = 0.0


class RealtimeSimulator:
    """Runs bots against each other on ``state`` with a virtual clock (see the module doc).

    ``state`` may be a fresh deal or a hand-made position; ``rngs`` are the
    seats' generators (default: derived from ``seed``).
    """

    def __init__(
        self,
        state: State,
        bots: Sequence[Bot],
        *,
        seed: int = 0,
        rngs: Sequence[random.Random] | None = None,
        idle_seconds: float | None = None,
        max_round_seconds: float = MAX_ROUND_SECONDS,
        start: float = 0.0,
        record: bool = False,
    ) -> None:
        if len(bots) != state.players:
            raise ValueError(f"{len(bots)} bots for {state.players} seats")
        self.state = state
        self.bots = list(bots)
        self.rngs = list(rngs) if rngs is not None else bot_rngs(seed, state.players)
        options: Mapping[str, Any] = getattr(state, "options", {}) or {}
        self.idle_seconds = float(
            idle_seconds if idle_seconds is not None else options.get("idle_seconds", 60)
        )
        self.max_round_seconds = max_round_seconds
        self.now = start
        #: Applied (seat, action) pairs, in order: the match log.
        self.log: list[tuple[int | None, Action]] = []
        #: Every landing, applied or refused (only with ``record=True``).
        self.landings: list[Landing] = []
        self.record = record
        self.rounds: list[RoundRecord] = []
        self.refused = [0] * state.players
        self.applied = [0] * state.players
        self._key = _key_function(state.game)
        self._heap: list[tuple[float, int, int, int, Action, Any]] = []
        self._seq = 0
        self._epoch = [0] * state.players
        self._waiting: set[int] = set()
        self._last_applied = start
        self._round_start = start
        self._landings = 0
        for seat in range(state.players):
            self._look(seat)

    # -- the loop -------------------------------------------------------------

    def run(self, until: float | None = None, max_landings: int | None = None) -> bool:
        """Run to the end of the match (True), or to time ``until`` or ``max_landings`` (False)."""
        landed = 0
        while not self.state.is_over:
            if max_landings is not None and landed >= max_landings:
                return False
            deadline = self._deadline()
            next_time = self._heap[0][0] if self._heap else math.inf
            if deadline == math.inf and next_time == math.inf:
                raise RuntimeError("no bot can act and no idle rule applies: the match is stuck")
            when = min(deadline, next_time)
            if until is not None and when > until:
                self.now = until
                return False
            self._landings += 1
            if self._landings > MAX_LANDINGS:
                raise RuntimeError(f"more than {MAX_LANDINGS} landings: a round does not end")
            if deadline <= next_time:
                self.now = deadline
                ending = "idle" if deadline == self._last_applied + self.idle_seconds else "guard"
                self._apply(None, dict(IDLE), ending)
                continue
            time, _, seat, epoch, action, key = heapq.heappop(self._heap)
            if epoch != self._epoch[seat]:
                continue  # sent before the round ended: it does not count
            self.now = time
            landed += 1
            self._land(seat, action, key)
        return True

    def _deadline(self) -> float:
        """When the table's idle rule (or the round guard) fires; inf outside play."""
        if getattr(self.state, "phase", "play") != "play":
            return math.inf
        return min(
            self._last_applied + self.idle_seconds, self._round_start + self.max_round_seconds
        )

    def _look(self, seat: int) -> None:
        """``seat`` looks at the table now and sends an action (or waits)."""
        if self.state.is_over:
            return
        bot, rng = self.bots[seat], self.rngs[seat]
        action = bot.act(self.state, seat, rng)
        if action is None:
            self._waiting.add(seat)
            return
        self._waiting.discard(seat)
        key = self._key(self.state, seat, action)
        landing = self.now + bot.reaction_time_for(action, rng)
        self._seq += 1
        heapq.heappush(self._heap, (landing, self._seq, seat, self._epoch[seat], action, key))

    def _land(self, seat: int, action: Action, key: Any) -> None:
        events: list[Event] | None = None
        if self._key(self.state, seat, action) == key:
            try:
                events = self.state.apply(seat, action)
            except IllegalAction:
                events = None
        if events is None:
            self.refused[seat] += 1
            if self.record:
                self.landings.append(Landing(self.now, seat, action, False))
            self._look(seat)
            return
        self.applied[seat] += 1
        self._applied(seat, action, events, "finito")
        if not self._after_round(events):
            self._look(seat)
            for other in sorted(self._waiting):
                self._look(other)

    def _apply(self, seat: int | None, action: Action, ending: str) -> None:
        events = self.state.apply(seat, action)
        self._applied(seat, action, events, ending)
        self._after_round(events)

    def _applied(self, seat: int | None, action: Action, events: list[Event], ending: str) -> None:
        self.log.append((seat, action))
        if self.record:
            self.landings.append(Landing(self.now, seat, action, True))
        self._last_applied = self.now
        for event in events:
            kind = event.get("type")
            if kind == "round_started":
                self._round_start = self.now
            elif kind == "round_over":
                finito = event.get("finito")
                how = "finito" if finito is not None else ending
                if how == "finito" and finito is None:
                    how = "blocked"
                self.rounds.append(
                    RoundRecord(
                        round=int(event.get("round", len(self.rounds) + 1)),
                        finito=finito,
                        points=list(event.get("points", [])),
                        started=self._round_start,
                        ended=self.now,
                        ending=how,
                    )
                )

    def _after_round(self, events: list[Event]) -> bool:
        """If the round ended: drop what is in flight and let every seat look. True if it did."""
        if not any(event.get("type") == "round_over" for event in events):
            return False
        self._epoch = [epoch + 1 for epoch in self._epoch]
        self._heap = [entry for entry in self._heap if entry[3] == self._epoch[entry[2]]]
        self._waiting.clear()
        for seat in range(self.state.players):
            self._look(seat)
        return True

    def result(self, game: str, seed: int, options: Mapping[str, Any]) -> Result:
        log = MatchLog(game, self.state.players, seed, dict(options), list(self.log))
        return Result(
            self.state, log, list(self.rounds), list(self.refused), list(self.applied), self.now
        )


def simulate(
    game: Game,
    bots: Sequence[Bot],
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Result:
    """Deal ``game`` for ``len(bots)`` seats from ``seed`` and play it out in simulated real time.

    The bots' generators derive from ``seed`` too, so the result is a pure
    function of the arguments. ``kwargs`` go to ``RealtimeSimulator``.
    """
    resolved = game.resolve_options(options)
    state = game.new_state(players=len(bots), seed=seed, **resolved)
    simulator = RealtimeSimulator(state, bots, seed=seed, **kwargs)
    simulator.run()
    return simulator.result(game.name, seed, resolved)
