"""Bot levels for people: plain names, old names kept, and each level beats the one below.

The strength test plays a small fixed-seed series per game and adjacent pair of levels,
seats alternating; the upper level must win more matches (or as many and more points).
The README's "Bot levels" table has the longer arena series behind the order.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from coffeetable import bots, games
from coffeetable.bots.greedy import GreedyBot, SloppyBot
from coffeetable.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from coffeetable.bots.levels import LEVEL_NAMES, recipes
from coffeetable.bots.rollout import RolloutBot
from coffeetable.sim.realtime import bot_rngs
from coffeetable.sim.turns import play_turns

#: The turn-based games with heuristics: every one of them offers the plain levels.
TURN_BASED = [
    name
    for name in games.names()
    if not games.get(name).realtime and games.get(name).heuristics() is not None
]


def test_every_turn_based_game_offers_the_plain_levels_first_and_keeps_the_old_names() -> None:
    assert LEVEL_NAMES == ("beginner", "casual", "strong", "expert")
    assert {"doppio", "fika", "cafe"} <= set(TURN_BASED)
    for game in TURN_BASED:
        offered = bots.available(game)
        assert bots.levels(game) == list(LEVEL_NAMES) == offered[:4]
        assert {"random", "greedy", "ismcts"} <= set(offered)
        for old in ("random", "greedy", "ismcts", "ismcts:40"):
            assert bots.make(old, game).name == old  # stored tables still restore
        for level in LEVEL_NAMES:
            assert bots.make(level, game).name == level  # rated under the level's name
    assert bots.levels("espresso") == []
    assert not set(LEVEL_NAMES) & set(bots.available("espresso"))
    with pytest.raises(ValueError, match="no bot"):
        bots.make("expert", "espresso")


def test_the_levels_are_built_as_documented() -> None:
    for game in TURN_BASED:
        made = {level: bots.make(level, game) for level in LEVEL_NAMES}
        recipe = recipes(game)
        for level, bot in made.items():
            kind = {
                "sloppy": SloppyBot,
                "greedy": GreedyBot,
                "ismcts": ISMCTSBot,
                "rollout": RolloutBot,
            }
            assert type(bot) is kind[recipe[level].policy]
        expert = made["expert"]
        if isinstance(expert, ISMCTSBot):
            assert expert.iterations == (recipe["expert"].iterations or DEFAULT_ITERATIONS)


def test_a_sloppy_bot_lapses_as_often_as_it_says() -> None:
    from coffeetable.games.fika import heuristics

    state = games.get("fika").new_state(players=2, seed=2)
    seat = state.actors()[0]
    never, always = SloppyBot(heuristics, 0.0), SloppyBot(heuristics, 1.0)
    greedy = GreedyBot(heuristics)
    legal = greedy.candidates(state, seat)
    best = [greedy.choose(state, seat, random.Random(i)) for i in range(20)]
    assert [never.choose(state, seat, random.Random(i)) for i in range(20)] == best
    picks = [always.choose(state, seat, random.Random(i)) for i in range(60)]
    assert all(p in legal for p in picks) and len({str(p) for p in picks}) > 1
    with pytest.raises(ValueError, match="probability"):
        SloppyBot(heuristics, 1.5)


def test_root_top_searches_only_the_best_actions_of_distinct_value() -> None:
    from tests.bots.test_ismcts import Nim

    # Values that call "take 1" best and "take 2", "take 3" alike: with ROOT_TOP = 1 the
    # search has one action left and plays it, though it loses (from 6 the win is "take 2").
    judge = ModuleType("judge")
    judge.action_values = lambda state, seat, actions: [  # type: ignore[attr-defined]
        {1: 2.0, 2: 1.0, 3: 1.0}[a["n"]] for a in actions
    ]
    judge.ROOT_TOP = 1  # type: ignore[attr-defined]
    bot = ISMCTSBot(judge, iterations=300, turns=30, rollout_actions=60)
    assert bot.choose(Nim(6), 0, random.Random(0)) == {"type": "take", "n": 1}
    judge.ROOT_TOP = 2  # type: ignore[attr-defined]
    two = ISMCTSBot(judge, iterations=10)
    assert two._top(Nim(6), 0, Nim(6).legal_actions(0)) == [
        {"type": "take", "n": 1},
        {"type": "take", "n": 2},
    ]
    judge.ROOT_TOP = 3  # type: ignore[attr-defined]  # no pruning: all three searched
    wider = ISMCTSBot(judge, iterations=600, turns=30, rollout_actions=60)
    assert wider.choose(Nim(6), 0, random.Random(0)) == {"type": "take", "n": 2}


def series(game: str, upper: str, lower: str, seeds: range) -> tuple[list[int], list[float]]:
    """Wins and points of (upper, lower) over ``seeds``, seats alternating."""
    wins, points = [0, 0], [0.0, 0.0]
    for i, seed in enumerate(seeds):
        entries = [0, 1] if i % 2 == 0 else [1, 0]  # entries[seat]: 0 upper, 1 lower
        names = [(upper, lower)[entry] for entry in entries]
        state = games.get(game).new_state(players=2, seed=seed)
        play_turns(state, [bots.make(name, game) for name in names], bot_rngs(seed, 2))
        for seat, entry in enumerate(entries):
            wins[entry] += seat in state.winners
            points[entry] += state.scores[seat]
    return wins, points


#: The searching pairs may take minutes of wall clock on a crowded machine (a few seconds
#: of CPU each otherwise): more than the suite's default timeout.
SEARCHING = pytest.mark.timeout(1200)


def pair(game: str, upper: str, lower: str, seeds: range, *marks: pytest.MarkDecorator) -> Any:
    marks += (SEARCHING,) if "strong" in (upper, lower) or upper == "expert" else ()
    return pytest.param(game, upper, lower, seeds, marks=marks, id=f"{game}-{upper}-over-{lower}")


#: (game, upper, lower, seeds): short fixed series, the cheap pairs longer.
PAIRS = [
    pair("fika", "casual", "beginner", range(1, 7)),
    pair("fika", "strong", "casual", range(1, 5)),
    pair("fika", "expert", "strong", range(1, 5)),
    pair("doppio", "casual", "beginner", range(1, 5)),
    pair("doppio", "strong", "casual", range(1, 5)),
    # Doppio's expert searches 400 iterations: some 25 s of CPU a match.
    pair("doppio", "expert", "strong", range(1, 5)),
    pair("cafe", "casual", "beginner", range(1, 5)),
    pair("cafe", "strong", "casual", range(1, 5)),
    # Café's expert is the rollout search over greedy (strong): a few seconds of CPU a match.
    pair("cafe", "expert", "strong", range(1, 5)),
]


@pytest.mark.parametrize(("game", "upper", "lower", "seeds"), PAIRS)
def test_each_level_beats_the_one_below(game: str, upper: str, lower: str, seeds: range) -> None:
    wins, points = series(game, upper, lower, seeds)
    assert (wins[0], points[0]) > (wins[1], points[1]), (wins, points)
