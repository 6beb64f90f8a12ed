"""Café's round planner made cheaper without changing a value, and the rollout search's
horizon past the round's end (2 players only)."""

from __future__ import annotations

import random

import pytest

from coffeetable import games
from coffeetable.bots.greedy import GreedyBot
from coffeetable.bots.rollout import RolloutBot
from coffeetable.games.cafe import actions, search
from coffeetable.games.cafe import heuristics as cafe
from coffeetable.games.cafe.grid import Company
from coffeetable.games.cafe.rules import CafeState


def _snapshot(company: Company) -> tuple[object, ...]:
    """Everything an action may change, by value."""
    grid = tuple(
        (pos, s.icon, s.colour, s.card, s.cubes, s.cube_colour) for pos, s in company.grid.items()
    )
    cafes = tuple((k, c.lost, tuple(sorted(c.have.items()))) for k, c in company.cafes.items())
    return grid, cafes, tuple(company.warehouse.items())


def _action_positions(players: int, seed: int, every: int = 3) -> list[tuple[CafeState, int]]:
    """Every ``every``-th actions-phase decision of a match greedy plays, with its seat."""
    state = games.get("cafe").new_state(players=players, seed=seed)
    greedy, rng, out, count = GreedyBot(cafe), random.Random(seed), [], 0
    while not state.is_over:
        seat = state.actors()[0]
        if state.phase == "actions":
            count += 1
            if count % every == 0:
                out.append((state.clone(), seat))
        state.apply(seat, greedy.choose(state, seat, rng))
    return out


def test_a_planned_action_is_the_rules_action_and_leaves_the_company_alone() -> None:
    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for state, seat in _action_positions(players, seed):
            company, supply = state.companies[seat], state.supply
            before = _snapshot(company)
            for action in actions.choices(company, supply):
                trial, after = cafe._apply(company, supply, action)
                # the same as the rules' own action on a full copy
                full, full_supply = company.copy(), dict(supply)
                actions.perform(full, full_supply, action)
                assert _snapshot(trial) == _snapshot(full) and after == full_supply
                # and then a second action on the planned copy leaves the first alone
                first = _snapshot(trial)
                for follow in actions.choices(trial, after)[:6]:
                    cafe._apply(trial, after, follow)
                    assert _snapshot(trial) == first
                checked += 1
            assert _snapshot(company) == before
    assert checked > 200


def test_a_supply_plans_alike_at_and_above_its_key() -> None:
    rng = random.Random(7)
    checked = 0
    for players, seed in ((2, 4), (4, 5)):
        for state, seat in _action_positions(players, seed, every=4):
            company, supply = state.companies[seat], state.supply
            later, now = cafe._later(state), state.actions_left[seat]
            key = cafe._supply_key(company, supply, now)
            assert all(0 <= key[c] <= supply[c] for c in supply)
            legal = actions.choices(company, supply)
            # any supply with the same key: the key itself, or more of the colours it caps
            other = {c: key[c] + (rng.randrange(1, 9) if key[c] < supply[c] else 0) for c in key}
            assert cafe._supply_key(company, other, now) == key
            plans = [cafe.plan(company, s, later, now, legal) for s in (supply, key, other)]
            assert plans[0] == plans[1] == plans[2]
            checked += 1
    assert checked > 20


def test_only_two_player_rollouts_play_past_the_round_and_then_on_more_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = RolloutBot(cafe)
    two = games.get("cafe").new_state(players=2, seed=3)
    four = games.get("cafe").new_state(players=4, seed=3)
    assert bot.horizon(two) == bot.horizon(four) == 1  # the defaults: to the round's end
    monkeypatch.setattr(search, "MORE_ROUNDS", 1)
    assert bot.horizon(two) == 2 and bot.horizon(four) == 1
    assert search.rollout_budget(four, 3, 6) == (3, cafe.TAKE_DEALS_MANY)  # as before
    place, seat = _placing(two)
    assert search.rollout_budget(place, 3, 6) == (cafe.ROLLOUT_PLACES, search.NEXT_ROUND_DEALS)
    monkeypatch.setattr(search, "MORE_ROUNDS", 0)
    monkeypatch.setattr(search, "TO_THE_END_FROM", 1)
    assert bot.horizon(two) == 8 and bot.horizon(four) == 1
    # the last round: nothing lies past it, so one deal where the round hides nothing
    last = games.get("cafe").new_state(players=2, seed=3)
    greedy, rng = GreedyBot(cafe), random.Random(0)
    while last.round < 8:
        actor = last.actors()[0]
        last.apply(actor, greedy.choose(last, actor, rng))
    place, seat = _placing(last)
    assert bot.horizon(place) == 1
    assert search.rollout_budget(place, 3, 6) == (cafe.ROLLOUT_PLACES, 1)


def _placing(state: CafeState) -> tuple[CafeState, int]:
    """``state`` after its seat to take took greedy's card (a copy)."""
    state = state.clone()
    seat = state.actors()[0]
    state.apply(seat, GreedyBot(cafe).choose(state, seat, random.Random(0)))
    assert state.phase == "place"
    return state, seat
