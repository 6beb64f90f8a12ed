"""Properties over many random games: cubes conserved, replay, hidden deck, bad input."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coffeetable.engine import IllegalAction, replay
from coffeetable.games.cafe.cards import COLOURS, CUBES_PER_COLOUR
from coffeetable.games.cafe.rules import CafeState
from tests.games.cafe.helpers import GAME, busy_choice, cube_counts, fingerprint, new, play

GAMES = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
players_st = st.integers(min_value=1, max_value=4)
seed_st = st.integers(min_value=0, max_value=2**32)

JUNK: list[Any] = [
    "pass", None, [], {}, {"type": 3}, {"type": []}, {"type": "fly"}, {"type": "pass", "now": True},
    {"type": "pass", 1: 2, "x": 3}, {"type": "take", "card": []}, {"type": "take", "card": {}},
    {"type": "deliver", "area": [0, 0], "to": {("A1",): {"red": 1}}},
    {"type": "deliver", "area": [0, 0], "to": {"A1": {("red",): 1}}},
    {"type": "take"}, {"type": "take", "card": None}, {"type": "take", "card": "C01", "pay": 1},
    {"type": "place", "x": 1.5, "y": 0, "rotation": 0}, {"type": "place", "x": 0, "y": 0,
    "rotation": -1}, {"type": "place", "x": True, "y": 0, "rotation": 0},
    {"type": "produce"}, {"type": "produce", "area": [999, 999]},
    {"type": "produce", "area": "0,0"},
    {"type": "produce", "area": [0, True]}, {"type": "dry", "colour": "red"},
    {"type": "dry", "colour": "purple", "area": [0, 0]}, {"type": "roast", "area": [0, 0]},
    {"type": "deliver", "area": [0, 0], "to": {"A1": {"red": -1}}},
    {"type": "deliver", "area": [0, 0], "to": {"A1": {"red": True}}},
    {"type": "deliver", "area": [0, 0], "to": {"A1": [1]}},
]  # fmt: skip


def hidden_ids(state: CafeState) -> list[str]:
    return state.deck + state.unused


def check_invariants(state: CafeState) -> None:
    assert cube_counts(state) == dict.fromkeys(COLOURS, CUBES_PER_COLOUR)
    assert all(n >= 0 for n in state.supply.values())
    for company in state.companies:
        assert all(n >= 0 for n in company.warehouse.values())
        for square in company.grid.values():
            assert square.cubes >= 0 and (square.cubes == 0) == (square.cube_colour is None)
            if square.icon == "bean" and square.cubes:
                assert square.cube_colour == square.colour and square.cubes == 1
            assert square.icon in ("bean", "dry", "roast") or square.cubes == 0
        for cafe in company.cafes.values():
            assert all(cafe.have.get(c, 0) <= n for c, n in cafe.need.items())
            assert set(cafe.have) <= set(cafe.need) and not (cafe.lost and cafe.have)
    for seat in [None, *range(state.players)]:
        text = json.dumps(state.view(seat))
        assert not any(f'"{card}"' in text for card in hidden_ids(state))
    assert json.loads(json.dumps(state.view(None)))["deck_count"] == len(state.deck)


@GAMES
@given(players_st, seed_st)
def test_random_games_keep_every_invariant(players: int, seed: int) -> None:
    state, rng = new(players, seed), random.Random(seed)
    log: list[tuple[int | None, dict[str, Any]]] = []
    while not state.is_over:
        check_invariants(state)
        actors = state.actors()
        assert actors and len(set(actors)) == len(actors)
        seat = rng.choice(actors)
        legal = state.legal_actions(seat)
        assert legal and len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
        for other in set(range(players)) - set(actors):
            assert state.legal_actions(other) == []
        action = busy_choice(state, seat, rng)
        events = state.apply(seat, action)
        log.append((seat, action))
        text = json.dumps(events)
        assert not any(f'"{card}"' in text for card in hidden_ids(state))
    check_invariants(state)
    assert state.round == 8 and state.winners and len(state.discard) == 16
    assert len(state.companies[0].cards) == 9
    again = replay(GAME, players, seed, log)
    assert isinstance(again, CafeState)
    assert fingerprint(again) == fingerprint(state)
    assert again.view(None) == state.view(None) and again.scores == state.scores


@GAMES
@given(players_st, seed_st, st.integers(min_value=0, max_value=120))
def test_bad_input_is_refused_and_changes_nothing(players: int, seed: int, steps: int) -> None:
    state, _ = play(players, seed, steps)
    if state.is_over:
        return
    before = fingerprint(state)
    seat = state.actors()[0]
    legal = state.legal_actions(seat)
    for junk in JUNK:
        if junk in legal:
            continue
        try:
            state.apply(seat, junk)
        except IllegalAction as error:
            assert error.reason
        else:
            raise AssertionError(f"{junk!r} was accepted")
        assert fingerprint(state) == before
    idle = [s for s in range(players) if s not in state.actors()]
    for other in idle:
        try:
            state.apply(other, legal[0])
        except IllegalAction:
            pass
        else:
            raise AssertionError("a seat acted out of turn")
        assert fingerprint(state) == before


@GAMES
@given(players_st, seed_st, st.integers(min_value=0, max_value=150))
def test_every_legal_action_applies_and_clones_are_independent(
    players: int, seed: int, steps: int
) -> None:
    state, _ = play(players, seed, steps)
    if state.is_over:
        return
    before = fingerprint(state)
    seat = state.actors()[0]
    for action in state.legal_actions(seat)[:60]:
        copy = state.clone()
        copy.apply(seat, action)
        check_invariants(copy)
    assert fingerprint(state) == before


@GAMES
@given(players_st, seed_st, st.integers(min_value=0, max_value=150))
def test_determinize_keeps_the_view_and_reshuffles_only_unseen_cards(
    players: int, seed: int, steps: int
) -> None:
    state, _ = play(players, seed, steps)
    seat = seed % players
    other = state.determinize(seat, random.Random(seed))
    assert other.view(seat) == state.view(seat)
    assert sorted(other.deck + other.unused) == sorted(state.deck + state.unused)
    assert len(other.deck) == len(state.deck)
    assert fingerprint(state) == fingerprint(state.clone())
    while not other.is_over:  # the re-dealt game plays on to its end
        actor = other.actors()[0]
        other.apply(actor, other.legal_actions(actor)[0])


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    assert fingerprint(new(3, 11)) == fingerprint(new(3, 11))
    assert new(3, 11).deck != new(3, 12).deck


def company_content(company: Any) -> tuple[Any, ...]:
    """Everything a company holds: squares with their cubes, cafés, warehouse, cards."""
    return (
        sorted((pos, vars(square)) for pos, square in company.grid.items()),
        sorted((cafe_id, vars(cafe)) for cafe_id, cafe in company.cafes.items()),
        dict(company.warehouse),
        list(company.cards),
    )


@GAMES
@given(players_st, seed_st)
def test_a_company_takes_a_new_revision_whenever_it_changes(players: int, seed: int) -> None:
    """``Company.revision`` is what the environments keep a company's observation by:
    every change the rules make gives a new one, and a clone keeps its original's."""
    state, rng = new(players, seed), random.Random(seed)
    changed = 0
    while not state.is_over:
        before = [(company_content(c), c.revision) for c in state.companies]
        clone = state.clone()
        assert [c.revision for c in clone.companies] == [r for _, r in before]
        seat = rng.choice(state.actors())
        state.apply(seat, busy_choice(state, seat, rng))
        for company, (content, revision) in zip(state.companies, before, strict=True):
            if company_content(company) != content:
                assert company.revision is not revision
                changed += 1
        # the clone did not move: its companies keep their revisions
        assert [c.revision for c in clone.companies] == [r for _, r in before]
    assert changed >= 8 * players  # at least every placement
