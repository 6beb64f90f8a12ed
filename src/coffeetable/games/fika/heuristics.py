"""Fika judgement for the greedy bot: coins now, and coins taken from the opponent.

Every action is valued by the coin difference (mine minus the opponent's) of
the cafés as they would score if the round ended after it. A pick is valued
by the best spot for that card; a colour choice by how high one's own cards
of that colour are (the tie-break). The bot sees only its own hand: the group
faces it does not know do not enter the scoring.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from coffeetable.engine import Action
from coffeetable.games.fika.cards import COLOURS, SPOTS, colour_of, number_of
from coffeetable.games.fika.scoring import Placed, score_cafe

if TYPE_CHECKING:
    from coffeetable.games.fika.rules import FikaState

#: A café's spots, hashable.
Spots = tuple[int | None, ...]

#: ISMCTS horizon: a step is two secret picks then two placements with their
#: effects, so the search must see past the reveal (with the default horizon it
#: would stop at the pick and judge every card alike).
SEARCH_TURNS = 4

#: Actions a level bot may fall back on (none: Fika is not real-time).
FALLBACK_TYPES: frozenset[str] = frozenset()


def _street(state: FikaState) -> dict[int, Placed]:
    return {
        g.column: (g.column, g.facing)
        for g in state.groups
        if g.column is not None and g.facing is not None
    }


def margin(state: FikaState, seat: int) -> int:
    """My coins minus the opponent's, were the round scored now."""
    street = tuple(sorted(_street(state).values()))
    return _margin(seat, tuple(state.cafes[0]), tuple(state.cafes[1]), street)


@lru_cache(maxsize=1 << 16)
def _margin(seat: int, cafe_0: Spots, cafe_1: Spots, street: tuple[Placed, ...]) -> int:
    # Cached: a search meets the same few positions thousands of times.
    cafes, groups = [cafe_0, cafe_1], {column: (column, facing) for column, facing in street}
    return score_cafe(seat, cafes, groups)[0] - score_cafe(1 - seat, cafes, groups)[0]


def _best_spot_gain(state: FikaState, seat: int, card: int) -> float:
    cafe = state.cafes[seat]
    before = margin(state, seat)
    best = float("-inf")
    for spot in range(SPOTS):
        if cafe[spot] is None:
            cafe[spot] = card
            best = max(best, margin(state, seat) - before)
            cafe[spot] = None
    return best if best != float("-inf") else 0.0


def action_value(state: FikaState, seat: int, action: Action) -> float:
    kind = action.get("type")
    if kind == "colour":
        colour = COLOURS.index(action["colour"])
        return max((number_of(c) for c in state.hands[seat] if colour_of(c) == colour), default=0)
    if kind == "pick":
        card: int = action["card"]
        # a small edge for high numbers: they place first
        return _best_spot_gain(state, seat, card) + number_of(card) / 100
    if kind == "stop":
        return 0.0
    before = margin(state, seat)
    after = state.clone()
    after.apply(seat, action)
    if after.round_number != state.round_number or after.is_over:
        won = after.tips[seat] > state.tips[seat]
        return 1000.0 if won else -1000.0
    gain: float = margin(after, seat) - before
    if kind == "skip":
        gain += 0.01  # prefer doing nothing over a useless effect
    return gain


def action_values(state: FikaState, seat: int, actions: list[Action]) -> list[float]:
    return [action_value(state, seat, action) for action in actions]


def evaluate(state: FikaState) -> list[float]:
    """For search bots: tips decide; within a round, the coin margin, squashed to [-1, 1]."""
    if state.is_over:
        return state.returns()
    lead = state.tips[0] - state.tips[1]
    coins = margin(state, 0)
    value = max(-1.0, min(1.0, 0.4 * lead + coins / 60))
    return [value, -value]
