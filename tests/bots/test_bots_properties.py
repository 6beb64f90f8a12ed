"""Properties over random Espresso positions: bots play legal actions and read no hidden card."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coffeetable import bots
from coffeetable.games.espresso import heuristics
from tests.bots.espresso_positions import VARIANTS, random_state

NAMES = bots.available("espresso")
positions = st.tuples(
    st.integers(0, 10_000),  # seed
    st.sampled_from(VARIANTS),
    st.integers(2, 6),  # players
    st.integers(0, 400),  # random actions played
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(positions)
def test_bots_only_return_legal_actions(position):
    seed, options, players, steps = position
    state = random_state(seed, options, players, steps)
    for seat in range(players):
        legal = state.legal_actions(seat)
        if not legal:
            continue
        for name in NAMES:
            action = bots.make(name, "espresso").choose(state, seat, random.Random(seed + seat))
            assert action in legal, (name, action)


@SETTINGS
@given(positions, st.integers(0, 2**32))
def test_bots_choose_the_same_on_any_determinization(position, salt):
    """What a seat cannot see (hidden cards, their order) never changes a bot's choice."""
    seed, options, players, steps = position
    state = random_state(seed, options, players, steps)
    for seat in range(players):
        other = state.determinize(seat, random.Random(salt))
        assert other.view(seat) == state.view(seat)
        legal = state.legal_actions(seat)
        assert legal == other.legal_actions(seat)  # legal actions never tell hidden cards
        assert heuristics.action_values(state, seat, legal) == heuristics.action_values(
            other, seat, legal
        )
        if not legal:
            continue
        for name in NAMES:
            bot = bots.make(name, "espresso")
            mine = bot.choose(state, seat, random.Random(salt))
            theirs = bot.choose(other, seat, random.Random(salt))
            assert mine == theirs, name
