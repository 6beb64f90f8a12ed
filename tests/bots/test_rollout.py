"""The rollout algorithm over greedy: it improves on greedy's judgement, plays from its
information set, and is what Café's ``ismcts`` and expert level are."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from coffeetable import bots, games
from coffeetable.bots.greedy import GreedyBot
from coffeetable.bots.ismcts import ISMCTSBot
from coffeetable.bots.rollout import RolloutBot
from coffeetable.engine import State
from coffeetable.games.cafe import heuristics as cafe
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
        RolloutBot(cafe, samples=0)
    with pytest.raises(ValueError, match="at least one action"):
        RolloutBot(cafe, top=0)


def _cafe_take(seed: int = 3) -> tuple[State, int]:
    state = games.get("cafe").new_state(players=2, seed=seed)
    return state, state.actors()[0]


def test_cafe_tries_each_card_once_by_its_best_payment() -> None:
    state, seat = _cafe_take()
    bot = RolloutBot(cafe, top=3)
    actions = bot.candidates(state, seat)
    kept = [actions[i] for i in bot.kept(state, seat, actions)]
    cards = [action["card"] for action in kept]
    assert len(cards) == len(set(cards)) == len(set(state.display))
    values = bot.greedy.values(state, seat, actions)
    for i in bot.kept(state, seat, actions):  # the best way to pay for its card
        same = [values[j] for j, a in enumerate(actions) if a["card"] == actions[i]["card"]]
        assert values[i] == max(same)


def test_cafe_choices_are_legal_reproducible_and_leave_the_state_alone() -> None:
    state, seat = _cafe_take()
    before = state.view(None)
    first = RolloutBot(cafe).choose(state, seat, random.Random(5))
    assert RolloutBot(cafe).choose(state, seat, random.Random(5)) == first
    assert first in state.legal_actions(seat)
    assert state.view(None) == before
    analysis = RolloutBot(cafe).analyse(state, seat, seed=4)
    assert analysis == RolloutBot(cafe).analyse(state, seat, seed=4)
    assert all(0.0 <= (entry.value or 0.0) <= 1.0 for entry in analysis)
    values = [entry.value for entry in analysis]
    assert values == sorted(values, reverse=True)
    assert state.view(None) == before


def test_analyse_rolls_out_a_choice_greedy_would_not_keep() -> None:
    state, seat = _cafe_take()
    state.apply(seat, RolloutBot(cafe).greedy.choose(state, seat, random.Random(0)))
    legal = state.legal_actions(seat)  # the placements: far more than greedy's top three
    bot = RolloutBot(cafe, samples=2)
    candidates = bot.candidates(state, seat)
    kept = [candidates[i] for i in bot.kept(state, seat, candidates)]
    odd = next(action for action in legal if action not in kept)
    analysis = bot.analyse(state, seat, seed=1, include=[odd, {"type": "pass"}])
    assert odd in [entry.action for entry in analysis]
    assert {"type": "pass"} not in [entry.action for entry in analysis]  # not legal: left out
    assert len(analysis) == len(kept) + 1
    with pytest.raises(ValueError, match="no legal action"):
        bot.analyse(state, 1 - seat)


def test_cafe_ismcts_and_expert_are_the_rollout_search_the_others_keep_the_tree() -> None:
    for name in ("ismcts", "expert"):
        made = bots.make(name, "cafe")
        assert isinstance(made, RolloutBot) and made.name == name
    assert isinstance(bots.make("ismcts:30", "cafe"), ISMCTSBot)  # a budget: the tree search
    for game in ("fika", "doppio"):
        assert type(bots.make("ismcts", game)) is ISMCTSBot
        assert type(bots.make("expert", game)) is ISMCTSBot


def _draft_positions(players: int, seed: int = 2) -> list[tuple[State, int]]:
    """Each take and place of the first round (greedy playing), with the seat deciding."""
    state = games.get("cafe").new_state(players=players, seed=seed)
    greedy, rng, out = GreedyBot(cafe), random.Random(0), []
    while state.phase in ("take", "place"):
        seat = state.actors()[0]
        out.append((state.clone(), seat))
        state.apply(seat, greedy.choose(state, seat, rng))
    return out


def test_cafe_counts_the_cards_still_to_be_revealed_this_round() -> None:
    for players in (2, 3, 4):
        positions = _draft_positions(players)
        takes = [cafe.unseen_reveals(s) for s, _ in positions if s.phase == "take"]
        places = [cafe.unseen_reveals(s) for s, _ in positions if s.phase == "place"]
        # each take reveals a card for the next taker (the last one reveals none)
        assert takes == list(range(players - 1, -1, -1))
        assert places == [max(0, n - 1) for n in takes]


def test_cafe_rolls_out_one_deal_where_the_round_hides_nothing() -> None:
    bot = RolloutBot(cafe)  # 4 deals by default
    for players in (2, 4):
        for state, _ in _draft_positions(players):
            top, samples = bot.budget(state)
            hidden = cafe.unseen_reveals(state) > 0
            if state.phase == "take":
                many = bot.samples if players == 2 else cafe.TAKE_DEALS_MANY
                assert (top, samples) == (bot.top, many if hidden else 1)
            else:
                assert (top, samples) == (cafe.ROLLOUT_PLACES, 1)
    # the last take of a round: its rollouts come out the same whatever the deal, so one is
    # exact (the next round's cards are drawn, but the round's end judges before they count)
    state, seat = _draft_positions(2)[2]
    assert state.phase == "take" and cafe.unseen_reveals(state) == 0
    actions = bot.candidates(state, seat)
    for i in bot.kept(state, seat, actions):
        values = {
            bot._rollout(
                state.determinize(seat, random.Random(s)), seat, actions[i], random.Random(s)
            )
            for s in (11, 12, 13)
        }
        assert len(values) == 1
