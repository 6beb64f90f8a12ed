"""The rollout algorithm over greedy: it improves on greedy's judgement and plays from
its information set (on toy games; on Café, whose ``ismcts`` and expert level it is:
tests/games/cafe/test_rollout.py)."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from coffeetable.bots.greedy import GreedyBot
from coffeetable.bots.rollout import RolloutBot
from tests.bots.test_ismcts import HighCardBet, Nim


def _judge(values: dict[object, float]) -> ModuleType:
    """Heuristics that value an action by ``values`` (a Nim take by its count, else by its
    type) and judge no position (all 0)."""
    judge = ModuleType("judge")
    judge.action_value = lambda state, seat, action: values[action.get("n", action["type"])]  # type: ignore[attr-defined]
    judge.evaluate = lambda state: [0.0] * state.players  # type: ignore[attr-defined]
    return judge


def test_the_rollouts_correct_a_greedy_that_misjudges() -> None:
    # Greedy takes 1 whatever the count; from 6 (the last stick wins) that loses to greedy,
    # taking 2 wins against it: rolled out with greedy for both seats, the bot sees it.
    judge = _judge({1: 2.0, 2: 1.0, 3: 0.5})
    greedy = GreedyBot(judge)
    assert greedy.choose(Nim(6), 0, random.Random(0)) == {"type": "take", "n": 1}
    rollout = RolloutBot(judge, top=3, samples=1)
    assert rollout.choose(Nim(6), 0, random.Random(0)) == {"type": "take", "n": 2}
    # With only greedy's best kept there is nothing to compare: greedy's choice.
    assert RolloutBot(judge, top=1).choose(Nim(6), 0, random.Random(0))["n"] == 1


def test_it_judges_from_the_information_set_not_the_hidden_card() -> None:
    judge = _judge({"bet": 0.0, "fold": 1.0})  # greedy always folds
    bot = RolloutBot(judge, top=2, samples=60)
    # Holding 8 it bets even though the hidden card is a 9 (7 chances in 9 to win);
    # holding 3 it folds even though the hidden card is a 1.
    assert bot.choose(HighCardBet(8, 9), 0, random.Random(1)) == {"type": "bet"}
    assert bot.choose(HighCardBet(3, 1), 0, random.Random(1)) == {"type": "fold"}
    analysis = bot.analyse(HighCardBet(8, 9), 0, seed=2)
    by_type = {entry.action["type"]: entry for entry in analysis}
    # A finished match counts (result + evaluation) / 2: fold 0 -> 0.5; bet 7/9 -> ~0.64.
    assert by_type["fold"].value == pytest.approx(0.5)
    assert by_type["bet"].value == pytest.approx(0.5 + (7 - 2) / 9 / 4, abs=0.06)


def test_a_budget_is_at_least_one_action_and_one_sample() -> None:
    with pytest.raises(ValueError, match="at least one action"):
        RolloutBot(_judge({}), samples=0)
    with pytest.raises(ValueError, match="at least one action"):
        RolloutBot(_judge({}), top=0)
