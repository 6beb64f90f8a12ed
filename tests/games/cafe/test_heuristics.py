"""The greedy heuristic: it reads no hidden card, and it plays far better than chance."""

from __future__ import annotations

import random

from coffeetable.games.cafe import heuristics
from coffeetable.games.cafe.rules import CafeState
from tests.games.cafe.helpers import acting, busy_choice, cafe, drawn, new, play, put


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


def _greedy_steps(state: CafeState, steps: int) -> None:
    for _ in range(steps):
        legal = state.legal_actions(0)
        values = heuristics.action_values(state, 0, legal)
        state.apply(0, legal[values.index(max(values))])


def test_the_round_planner_sees_the_chain_through_to_a_cafe() -> None:
    # Four actions: produce, dry, roast, deliver completes the café; one step at a time
    # a bean cube is worth little, so only a plan over the round finds it.
    company = drawn("rdo", "u.C")
    cafe(company, "X", [(2, 1)], {"red": 1}, 5)
    state = acting(company, actions=4)
    state.round_number = 8
    legal = state.legal_actions(0)
    values = heuristics.action_values(state, 0, legal)
    assert legal[values.index(max(values))] == {"type": "produce", "area": [0, 0]}
    assert max(values) == 5  # the last round: the café's points, nothing promised
    _greedy_steps(state, 4)
    assert company.cafes["X"].complete and state.scores == [5]


def test_in_the_last_round_leftover_cubes_balance_the_warehouse() -> None:
    # Red is the scarcest colour in the warehouse: a red cube there is worth 2 points.
    company = drawn("rdo", "u..")
    company.warehouse = {"red": 0, "yellow": 2, "green": 2, "black": 3}
    put(company, (2, 0), "red")
    state = acting(company, actions=1)
    state.round_number = 8
    values = heuristics.action_values(state, 0, state.legal_actions(0))
    assert max(values) == 2  # 2a + b: from 0 + 2 to 2 + 2


def test_search_helpers_are_legal_and_bounded() -> None:
    for players in (1, 2, 4):
        state, rng = new(players, 5), random.Random(players)
        while not state.is_over:
            seat = state.actors()[0]
            legal = state.legal_actions(seat)
            assert len(heuristics.priors(state, seat, legal)) == len(legal)
            action = heuristics.rollout_action(state, seat, rng)
            assert action in legal
            state.apply(seat, action)
            values = heuristics.evaluate(state)
            assert len(values) == players and all(-1 <= v <= 1 for v in values)
