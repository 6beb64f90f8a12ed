"""The greedy heuristic: it reads no hidden card, and it plays far better than chance."""

from __future__ import annotations

import random

from coffeetable.games.cafe import heuristics
from coffeetable.games.cafe.rules import CafeState
from tests.games.cafe.helpers import busy_choice, new, play


def greedy_game(players: int, seed: int, greedy_seats: set[int]) -> CafeState:
    state, rng = new(players, seed), random.Random(seed)
    while not state.is_over:
        seat = state.actors()[0]
        if seat in greedy_seats:
            legal = state.legal_actions(seat)
            values = heuristics.action_values(state, seat, legal)
            state.apply(seat, legal[values.index(max(values))])
        else:
            state.apply(seat, busy_choice(state, seat, rng))
    return state


def test_values_ignore_the_hidden_deck_and_agree_one_by_one() -> None:
    for steps in (0, 1, 5, 12, 30):
        state, _ = play(2, 3, steps)
        seat = state.actors()[0]
        legal = state.legal_actions(seat)[:40]
        values = heuristics.action_values(state, seat, legal)
        other = state.determinize(seat, random.Random(1))
        assert heuristics.action_values(other, seat, legal) == values
        assert [heuristics.action_value(state, seat, a) for a in legal[:5]] == values[:5]


def test_greedy_beats_random_play() -> None:
    solo = [greedy_game(1, seed, {0}).scores[0] for seed in range(3)]
    assert sum(solo) / 3 > 5
    duel = greedy_game(2, 7, {1})
    assert duel.scores[1] > duel.scores[0]
