"""Café's rollout search (``bots/rollout.py``: greedy's judgement corrected by rollouts),
which Café's ``ismcts`` and expert level are: what it tries, its budget by what the
round still hides, and that it plays legally and reproducibly from its information set."""

from __future__ import annotations

import random

import pytest

from coffeetable import bots, games
from coffeetable.bots.greedy import GreedyBot
from coffeetable.bots.ismcts import ISMCTSBot
from coffeetable.bots.rollout import RolloutBot
from coffeetable.engine import State
from coffeetable.games.cafe import heuristics as cafe


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
    for game in games.names():  # every other game's levels keep the tree search
        levels = set(bots.available(game)) & {"ismcts", "expert"}
        if game != "cafe":
            assert all(type(bots.make(level, game)) is ISMCTSBot for level in levels)


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
