"""Turn-based play between bots: a plain loop over ``state.actors()``.

For games that are not real time. Each actor in turn order chooses from the
current state and its action is applied at once; several actors (a secret
simultaneous choice) act one after the other, each from what its own view
shows. The log replays with ``coffeetable.engine.replay``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from coffeetable.bots.base import Bot
from coffeetable.engine import Action, Event, State

#: Guard: a match longer than this is a bug in a game or a bot.
MAX_ACTIONS = 2_000_000


def play_turns(
    state: State,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    max_actions: int = MAX_ACTIONS,
) -> tuple[list[tuple[int | None, Action]], list[Event]]:
    """Play ``state`` out; returns the (seat, action) log and the round_over events."""
    log: list[tuple[int | None, Action]] = []
    rounds: list[Event] = []
    while not state.is_over:
        actors = state.actors()
        if not actors:
            raise RuntimeError("nobody may act but the match is not over")
        for seat in actors:
            if state.is_over or seat not in state.actors():
                continue
            action = bots[seat].choose(state, seat, rngs[seat])
            events = state.apply(seat, action)
            log.append((seat, action))
            rounds += [event for event in events if event.get("type") == "round_over"]
            if len(log) > max_actions:
                raise RuntimeError(f"more than {max_actions} actions: the match does not end")
    return log, rounds
