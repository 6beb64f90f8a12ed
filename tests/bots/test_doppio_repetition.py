"""Doppio: a bot behind in beans prefers progress over ending its turn into a third
repetition (the ruling ends the match there and it would lose); ahead, it may end it."""

from __future__ import annotations

import random

from coffeetable import bots, games
from coffeetable.games.doppio import heuristics
from coffeetable.games.doppio.rules import DoppioState

END = {"type": "end_turn"}


def _mid_turn(seed: int) -> DoppioState:
    """A two-player match where the seat to play has acted and may end its turn."""
    state = games.get("doppio").new_state(players=2, seed=seed)
    assert isinstance(state, DoppioState)
    rng = random.Random(seed)
    casual = bots.make("casual", "doppio")
    while True:
        seat = state.actors()[0]
        if state.actions_taken and END in state.legal_actions(seat):
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                return state
        state.apply(seat, casual.choose(state, seat, rng))


def _counted_twice(state: DoppioState) -> None:
    """Make the position the next turn begins in one that began a turn twice already,
    by ending the turn on a copy and reading the count it made."""
    probe = state.clone()
    assert isinstance(probe, DoppioState)
    before = dict(probe.turn_starts)
    probe.apply(probe.current, END)
    (position,) = [key for key in probe.turn_starts if probe.turn_starts[key] != before.get(key)]
    state.turn_starts[position] = 2


def test_behind_the_end_turn_into_a_third_repetition_is_skipped() -> None:
    state = _mid_turn(5)
    seat = state.current
    _counted_twice(state)
    state.beans[seat], state.beans[1 - seat] = 3, 7
    assert heuristics.ends_behind(state, seat)
    legal = state.legal_actions(seat)
    flags = heuristics.dominated(state, seat, legal)
    assert flags[legal.index(END)]
    ending = state.clone()
    ending.apply(seat, END)
    assert ending.is_over and ending.winners == [1 - seat]  # what the bot avoids
    choice = bots.make("casual", "doppio").choose(state, seat, random.Random(1))
    assert choice != END


def test_ahead_or_before_the_third_time_the_end_turn_stays() -> None:
    state = _mid_turn(6)
    seat = state.current
    state.beans[seat], state.beans[1 - seat] = 3, 7
    assert not heuristics.ends_behind(state, seat)  # the position has not come back
    _counted_twice(state)
    state.beans[seat], state.beans[1 - seat] = 7, 3
    assert not heuristics.ends_behind(state, seat)  # ahead: ending it wins
    legal = state.legal_actions(seat)
    free = any(heuristics.free_score(state, seat, action) for action in legal)
    assert heuristics.dominated(state, seat, legal)[legal.index(END)] == free  # that rule alone
