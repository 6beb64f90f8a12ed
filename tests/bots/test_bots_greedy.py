"""Greedy and level bots on hand-made Espresso positions, and the bot registry."""

from __future__ import annotations

import random
import statistics

import pytest

from coffeetable import bots
from coffeetable.bots.reaction import EASY, HARD, LEVELS, MEDIUM
from coffeetable.games.espresso import heuristics
from tests.bots.espresso_positions import card, table


def greedy_choice(state, seat=0, seed=0):
    return bots.make("greedy", "espresso").choose(state, seat, random.Random(seed))


def test_registry_lists_and_makes_the_espresso_bots():
    assert bots.available("espresso") == ["random", "greedy", "easy", "medium", "hard"]
    for name in bots.available("espresso"):
        bot = bots.make(name, "espresso")
        assert bot.name == name
        assert bot.reaction_time(random.Random(1)) > 0  # real time: everyone has a reaction
    with pytest.raises(ValueError, match="no bot"):
        bots.make("grandmaster", "espresso")


def test_random_and_greedy_get_medium_reaction_in_real_time():
    assert bots.make("random", "espresso").reaction == MEDIUM.reaction
    assert bots.make("greedy", "espresso").reaction == MEDIUM.reaction
    assert bots.make("hard", "espresso").reaction == HARD.reaction


def test_levels_are_ordered_and_flips_are_quicker():
    assert EASY.reaction.play_median > MEDIUM.reaction.play_median > HARD.reaction.play_median
    assert EASY.overlook > MEDIUM.overlook > HARD.overlook == 0
    for level in LEVELS.values():
        rng = random.Random(3)
        plays = [level.reaction.draw(rng, {"type": "play"}) for _ in range(3000)]
        flips = [level.reaction.draw(rng, {"type": "flip", "count": 3}) for _ in range(3000)]
        assert min(plays + flips) >= level.reaction.floor
        assert statistics.median(plays) == pytest.approx(level.reaction.play_median, rel=0.1)
        assert statistics.median(flips) < statistics.median(plays)


def test_greedy_prefers_espresso_over_help_over_pile_over_flip():
    red3 = [card(1, "red", 0), card(1, "red", 1), card(1, "red", 2), card(1, "red", 3)]
    blue5 = [card(1, "blue", v) for v in range(6)]
    green1 = [card(1, "green", 0), card(1, "green", 1)]
    centre = [red3, blue5, green1]
    espresso = [card(0, "yellow", 8), card(0, "red", 4)]  # red 4 fits stack 0
    help_ = [card(0, "blue", 6), card(0, "yellow", 7), card(0, "yellow", 6)]  # blue 6 fits stack 1
    pile = [card(0, "green", 2)]  # fits stack 2
    hand = [card(0, "yellow", 5)] * 3
    state = table(
        areas={0: dict(espresso=espresso, help=help_, pile=pile, hand=hand)}, centre=centre
    )
    assert greedy_choice(state) == {"type": "play", "source": "espresso", "target": 0}
    state.areas[0].espresso = [card(0, "yellow", 8), card(0, "yellow", 4)]
    assert greedy_choice(state) == {"type": "play", "source": "help", "slot": 0, "target": 1}
    state.areas[0].help[0] = card(0, "red", 7)
    assert greedy_choice(state) == {"type": "play", "source": "pile", "target": 2}
    state.areas[0].pile = [card(0, "green", 5)]
    assert greedy_choice(state) == {"type": "flip", "count": 3}
    state.areas[0].stuck = True
    assert greedy_choice(state) == {"type": "flip", "count": 2}
    state.areas[0].hand = []
    assert greedy_choice(state) == {"type": "recycle"}


def test_the_last_espresso_card_is_finito_and_beats_everything():
    state = table(
        areas={
            0: dict(
                espresso=[card(0, "red", 4)],
                help=[card(0, "blue", 0), card(0, "green", 0), card(0, "yellow", 0)],
            )
        },
        centre=[[card(1, "red", v) for v in range(4)]],
    )
    values = {str(a): heuristics.action_value(state, 0, a) for a in state.legal_actions(0)}
    best = greedy_choice(state)
    assert best == {"type": "play", "source": "espresso", "target": 0}
    assert values[str(best)] >= heuristics.FINITO
    for key, value in values.items():  # a help card refilled by the last espresso card: FINITO too
        assert (value >= heuristics.FINITO) == ("'help'" in key or key == str(best)), key
        assert value <= values[str(best)]


def test_zero_greedy_prefers_the_joker_that_unloads_espresso_cards():
    state = table(
        zero=True,
        areas={
            0: dict(
                espresso=[card(0, "blue", 3), card(0, "yellow", 0)],  # the joker on top
                help=[card(0, "green", 7), card(0, "blue", 4), card(0, "blue", 5)],
                pile=[card(0, "red", 7)],
            )
        },
        centre=[[card(1, "red", v) for v in range(1, 6)]],  # red 1..5: a joker there is a 6
    )
    choice = greedy_choice(state)
    # joker off the espresso stack, the help green 7 as follower (refilled from espresso):
    # two espresso cards unloaded, ahead of the pile red 7 follower (one)
    assert choice == {
        "type": "joker",
        "source": "espresso",
        "target": 0,
        "follow": {"source": "help", "slot": 0},
    }


def test_zero_blind_jokers_are_never_legal():
    # the card under the espresso joker is a 1, but the seat cannot see it: the rules
    # never offer a follower that the joker itself uncovers
    state = table(
        zero=True,
        areas={
            0: dict(
                espresso=[card(0, "blue", 3), card(0, "red", 1), card(0, "yellow", 0)],
                help=[card(0, "green", 7), card(0, "blue", 4), card(0, "blue", 5)],
                pile=[card(0, "red", 7)],
            )
        },
    )
    blind = {
        "type": "joker",
        "source": "espresso",
        "target": "new",
        "follow": {"source": "espresso"},
    }
    assert blind not in state.legal_actions(0)
    for name in bots.available("espresso"):
        for seed in range(20):
            action = bots.make(name, "espresso").choose(state, 0, random.Random(seed))
            assert action != blind


def test_chaos_steals_only_when_it_is_the_only_play():
    red3 = [card(2, "red", v) for v in range(4)]
    own = dict(
        espresso=[card(0, "yellow", 8), card(0, "yellow", 7)],
        help=[card(0, "blue", 8), card(0, "green", 8), card(0, "yellow", 6)],
        pile=[card(0, "green", 5)],
        hand=[card(0, "yellow", 5)] * 3,
    )
    other = dict(pile=[card(1, "red", 4)], espresso=[card(1, "blue", 1)] * 9)
    state = table(chaos=True, areas={0: own, 1: other}, centre=[red3])
    steal = {"type": "play", "source": "pile", "owner": 1, "target": 0}
    assert greedy_choice(state) == steal  # the only play: better than a flip
    state.areas[0].pile = [card(0, "blue", 0)]  # now an own pile play exists
    assert greedy_choice(state) == {"type": "play", "source": "pile", "target": "new"}
    state.areas[0].espresso = [card(0, "yellow", 8), card(0, "red", 5)]  # the steal unlocks it
    assert greedy_choice(state) == steal


def test_chaos_never_hands_another_seat_its_finito():
    red3 = [card(2, "red", v) for v in range(4)]
    own = dict(
        espresso=[card(0, "yellow", 8), card(0, "yellow", 7)],
        help=[card(0, "blue", 8), card(0, "green", 8), card(0, "yellow", 6)],
        pile=[card(0, "green", 5)],
        hand=[card(0, "yellow", 5)] * 3,
    )
    other = dict(
        espresso=[card(1, "blue", 1)],  # its last espresso card would refill a taken help slot
        help=[card(1, "red", 4), card(1, "green", 8), card(1, "blue", 8)],
        pile=[],
    )
    state = table(chaos=True, areas={0: own, 1: other}, centre=[red3])
    assert {"type": "play", "source": "help", "slot": 0, "owner": 1, "target": 0} in (
        state.legal_actions(0)
    )
    assert greedy_choice(state) == {"type": "flip", "count": 3}


def test_easy_sometimes_overlooks_a_play_and_hard_never_does():
    state = table(
        areas={0: dict(espresso=[card(0, "yellow", 8), card(0, "red", 0)], hand=[1, 2, 3])}
    )
    for name, low, high in (("easy", 0.18, 0.32), ("medium", 0.05, 0.15), ("hard", 0, 0)):
        bot, rng = bots.make(name, "espresso"), random.Random(11)
        flips = sum(bot.choose(state, 0, rng)["type"] == "flip" for _ in range(2000))
        assert low <= flips / 2000 <= high, name
