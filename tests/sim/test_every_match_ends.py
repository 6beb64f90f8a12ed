"""Every match ends: a tournament round waits for its slowest table (issue #31).

For every registered game (``games.names()``) and every pair of its declared bot
levels (the plain levels of a turn-based game, the reaction levels of a real-time
one; ``random`` for a game with neither), bots play a match to its end within the
game's declared bound (``Game.max_length``): more actions than that fail the test.

Run time: matches use the game's ``quick_options``. A pair where a level searches
(ISMCTS, rollouts) starts from a seeded position near the end of a match of the
cheap ``casual`` level (``TAIL`` actions before its end), so that the searches
play the endgame, where a match that repeats itself would stall, and the whole
file stays under half a minute of processor time (some 19 s). The seeds are chosen:
with seeds 1 and 2, casual against expert in Doppio wanders for 278 actions before
the reserve empties (within the bound, but two minutes of searching).
"""

from __future__ import annotations

import itertools

import pytest

from coffeetable import bots, games
from coffeetable.bots.levels import recipes
from coffeetable.bots.reaction import LEVELS
from coffeetable.bots.registry import UNSEARCHED
from coffeetable.engine import State
from coffeetable.sim.match import play_match
from coffeetable.sim.realtime import bot_rngs
from coffeetable.sim.turns import play_turns

#: Actions before the cheap match's end where the searching bots take over.
TAIL = 12
#: Seeds per pair: both seat orders, quick ones (see the module's docstring).
SEEDS = (3, 4)


def _levels(name: str) -> list[str]:
    """The game's declared bot levels, weakest first."""
    game = games.get(name)
    if game.realtime:
        return list(LEVELS) if game.heuristics() is not None else ["random"]
    return bots.levels(name) or ["random"]


def _searches(name: str, level: str) -> bool:
    recipe = recipes(name).get(level)
    return recipe is not None and recipe.policy not in UNSEARCHED


def _pairs() -> list[tuple[str, str, str]]:
    return [
        (name, first, second)
        for name in games.names()
        for first, second in itertools.combinations_with_replacement(_levels(name), 2)
    ]


def _start(name: str, seed: int, searched: bool) -> tuple[State, int]:
    """A new match, or (``searched``) the position ``TAIL`` actions before the end of a
    seeded match of the cheap level (the game's first unsearched level)); with the
    number of actions already played."""
    game = games.get(name)
    players = game.preferred_players()
    options = dict(game.quick_options)
    if not searched:
        return game.new_state(players=players, seed=seed, **options), 0
    cheap = next(level for level in _levels(name) if not _searches(name, level))
    state = game.new_state(players=players, seed=seed, **options)
    log, _ = play_turns(state, [bots.make(cheap, name)] * players, bot_rngs(seed, players))
    start = game.new_state(players=players, seed=seed, **options)
    prefix = log[: max(0, len(log) - TAIL)]
    for seat, action in prefix:
        start.apply(seat, action)
    return start, len(prefix)


@pytest.mark.parametrize(("name", "first", "second"), _pairs())
def test_bots_of_every_level_pair_end_their_matches(name: str, first: str, second: str) -> None:
    game = games.get(name)
    for seed in SEEDS:
        seats = [first, second] if seed % 2 else [second, first]
        if game.realtime:
            summary, _ = play_match(name, seats, seed=seed, options=dict(game.quick_options))
            assert summary["actions"] <= game.max_length
            continue
        state, before = _start(name, seed, _searches(name, first) or _searches(name, second))
        players = [bots.make(level, name) for level in seats]
        log, _ = play_turns(state, players, bot_rngs(seed, 2), max_actions=game.max_length)
        assert state.is_over, (name, seats, seed)
        assert before + len(log) <= game.max_length
