"""ISMCTS's analysis API: the root statistics of one seeded search, per action."""

from __future__ import annotations

from types import ModuleType

import pytest

from coffeetable import bots, games
from coffeetable.bots.ismcts import ActionValue, ISMCTSBot
from tests.bots.test_ismcts import HighCardBet, Nim


def _bot(iterations: int = 1500) -> ISMCTSBot:
    return ISMCTSBot(None, iterations=iterations, turns=30, rollout_actions=60)


def test_on_nim_the_winning_take_is_first_and_worth_a_win() -> None:
    # 7 sticks: taking 3 leaves a multiple of four, a sure win; the others lose to best play.
    analysis = _bot().analyse(Nim(7), 0, seed=3)
    assert [entry.action for entry in analysis][0] == {"type": "take", "n": 3}
    assert sorted(entry.action["n"] for entry in analysis) == [1, 2, 3]
    best, *others = analysis
    assert best.value is not None and best.value > 0.9
    assert all(e.value is not None and e.value < best.value - 0.3 for e in others)
    assert sum(entry.visits for entry in analysis) == 1500
    assert all(0.0 <= (entry.value or 0.0) <= 1.0 for entry in analysis)


def test_values_are_chances_from_the_information_set() -> None:
    # Holding 8 against an unknown card of 1..10 (not 8): betting wins 7 times in 9.
    analysis = _bot(3000).analyse(HighCardBet(8, 9), 0, seed=1)
    by_type = {entry.action["type"]: entry for entry in analysis}
    assert by_type["fold"].value == pytest.approx(0.5)
    assert by_type["bet"].value == pytest.approx(7 / 9, abs=0.06)


def test_the_analysis_is_reproducible_and_changes_nothing() -> None:
    state = games.get("doppio").new_state(players=2, seed=4)
    seat = state.actors()[0]
    before = state.view(None)
    bot = bots.make("ismcts:80", "doppio")
    assert isinstance(bot, ISMCTSBot)
    first = bot.analyse(state, seat, seed=9)
    again = bot.analyse(state, seat, seed=9)
    assert first == again and all(isinstance(entry, ActionValue) for entry in first)
    assert state.view(None) == before
    legal = state.legal_actions(seat)
    assert all(entry.action in legal for entry in first)
    assert first[0].visits >= first[-1].visits


def test_include_values_an_action_the_bot_would_skip() -> None:
    # Heuristics that call "take 1" dominated: the bot skips it unless asked to value it.
    flags = ModuleType("flags")
    flags.dominated = lambda state, seat, actions: [a["n"] == 1 for a in actions]  # type: ignore[attr-defined]
    bot = ISMCTSBot(flags, iterations=600, turns=30, rollout_actions=60)
    take_one = {"type": "take", "n": 1}
    assert take_one not in [entry.action for entry in bot.analyse(Nim(5), 0, seed=1)]
    analysis = bot.analyse(Nim(5), 0, seed=1, include=[take_one, {"type": "take", "n": 9}])
    assert [entry.action for entry in analysis][0] == take_one  # the winning take from 5
    assert {"type": "take", "n": 9} not in [entry.action for entry in analysis]
    assert analysis[0].value is not None and analysis[0].value > 0.9


def test_an_analysis_needs_a_legal_action() -> None:
    state = Nim(4)
    with pytest.raises(ValueError, match="no legal action"):
        _bot(10).analyse(state, 1)
