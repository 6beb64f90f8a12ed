"""Doppio heuristics' quick paths against the rules: the card counters agree with
``patterns.count``, and ``rollout_action`` (which reads the state's counters, not
``legal_actions``) plays only legal actions."""

from __future__ import annotations

import random

from coffeetable import games
from coffeetable.games.doppio import heuristics
from coffeetable.games.doppio.cards import CARDS, SPACES
from coffeetable.games.doppio.patterns import Space, count
from coffeetable.games.doppio.rules import DoppioState


def random_path(rng: random.Random) -> tuple[Space, ...]:
    """Some of the 9 pieces on the path, by the law (one piece of a kind a space)."""
    spaces: list[list[int | None]] = [[None, None, None] for _ in range(SPACES)]
    for kind in range(3):
        colours = rng.sample(range(3), rng.randint(0, 3))
        for colour, space in zip(colours, rng.sample(range(SPACES), len(colours)), strict=False):
            spaces[space][kind] = colour
    return tuple((s[0], s[1], s[2]) for s in spaces)


def test_the_quick_counters_agree_with_the_patterns_on_every_card() -> None:
    rng = random.Random(4)
    for _ in range(3000):
        path = random_path(rng)
        for card in CARDS:
            assert heuristics.matches(path, card.id) == (
                count(card, path),
                count(card, path, turned=True),
            ), (card.id, path)


def test_rollout_action_plays_only_legal_actions() -> None:
    rng = random.Random(5)
    for seed in range(16):
        players, master = 1 + seed % 2, seed % 4 >= 2
        state = games.get("doppio").new_state(players=players, seed=seed, master=master)
        assert isinstance(state, DoppioState)
        while not state.is_over:
            seat = state.actors()[0]
            action = heuristics.rollout_action(state, seat, rng)
            assert action in state.legal_actions(seat), (seed, action)
            state.apply(seat, action)
