"""Doppio's ``measures.shortfall``: 0 exactly when a card is met, and a real gradient."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from coffeetable.games.doppio import heuristics
from coffeetable.games.doppio.cards import BY_ID, CARDS, SPACES
from coffeetable.games.doppio.measures import nearness, shortfall
from coffeetable.games.doppio.patterns import count


def random_path(rng: random.Random) -> tuple[tuple[int | None, int | None, int | None], ...]:
    """Every piece on a random space, the law of the path kept (one piece of a kind a space)."""
    path: list[list[int | None]] = [[None, None, None] for _ in range(SPACES)]
    for kind in range(3):
        for colour, space in zip(range(3), rng.sample(range(SPACES), 3), strict=True):
            path[space][kind] = colour
    return tuple((s[0], s[1], s[2]) for s in path)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_card_is_short_of_nothing_exactly_when_it_is_met(seed: int) -> None:
    path = random_path(random.Random(seed))
    for card in CARDS:
        met = count(card, path) + count(card, path, turned=True) > 0
        assert (shortfall(path, card.id) == 0) == met, (card.id, path)


def test_one_piece_short_is_usually_one_move_from_met() -> None:
    """An estimate, not a bound (the law of the path may forbid the move): over many
    paths, most cards one piece short are met after some single move."""
    rng = random.Random(7)
    near = reachable = 0
    for _ in range(300):
        path = random_path(rng)
        for card in CARDS:
            if shortfall(path, card.id) != 1:
                continue
            near += 1
            reachable += any(
                shortfall(later, card.id) == 0 for later, *_ in heuristics._moves(path)
            )
    assert near > 500
    assert reachable / near > 0.8


def test_crossed_pairs_two_spoons_off_is_two_short_and_the_climb_reaches_it() -> None:
    """The stall seen between two searching bots: crossed pairs (card 13) on spaces 3-4
    with a spoon on each; clearing both spoons takes two moves, neither of which meets
    more beans by itself. ``reach`` now climbs through them and scores the card."""
    brown, white, black = 0, 1, 2
    path = (
        (None, None, None),
        (brown, brown, brown),
        (None, None, None),
        (white, black, black),
        (black, white, white),
    )
    assert BY_ID[13].pattern == "crossed_pairs"
    assert shortfall(path, 13) == 2
    assert heuristics.met(path, [13]) == 0
    assert nearness(path, (13,)) > 0
    assert heuristics.reach(path, (13,), 3) == BY_ID[13].beans
