"""Fika: objectives, multipliers, the 6's special, effects, the round's flow, properties."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from coffeetable.engine import IllegalAction, replay
from coffeetable.games.fika import FikaGame, FikaState
from coffeetable.games.fika.cards import COLOURS, colour_of, make_card, number_of
from coffeetable.games.fika.scoring import round_result, score_cafe, tie_break

GAME = FikaGame()


def c(name: str) -> int:
    """A card from a name like "pink5"."""
    return make_card(COLOURS.index(name[:-1]), int(name[-1]))


def cafe(*names: str | None) -> list[int | None]:
    """A café by column (0..4); None is an empty spot."""
    return [None if name is None else c(name) for name in names]


def coins(seat: int, cafes: list[list[int | None]], street: dict | None = None) -> int:
    return score_cafe(seat, cafes, street or {})[0]


EMPTY = cafe(None, None, None, None, None)


# -- objectives, read left to right from each seat --------------------------------------


def test_objective_1_two_adjacent_cards_with_one_number() -> None:
    assert coins(0, [cafe("brown1", "green3", "pink3", None, None), EMPTY]) == 5
    assert coins(0, [cafe("brown1", "green3", None, "pink3", None), EMPTY]) == 0  # a gap


def test_objective_2_a_one_and_a_six_on_the_ends() -> None:
    # green2 scores 6; the green1 meets nothing (no pair), the pink6 needs 4 of a colour
    assert coins(0, [cafe("green1", "green2", None, None, "pink6"), EMPTY]) == 6
    assert coins(1, [EMPTY, cafe("pink6", None, None, "brown2", "brown1")]) == 6


def test_objective_3_a_group_in_front_of_the_card_and_the_multipliers() -> None:
    street = {2: (2, 0)}  # a group on street card 2, its 3-cup half towards seat 0
    mine, theirs = cafe(None, None, "brown3", None, None), cafe(None, None, "green3", None, None)
    assert coins(0, [mine, theirs], street) == 7 * 3
    assert coins(1, [mine, theirs], street) == 7 * 2
    assert coins(0, [cafe(None, "brown3", None, None, None), theirs], street) == 0


def test_objective_4_three_adjacent_of_one_colour() -> None:
    assert coins(0, [cafe("pink4", "pink1", "pink2", None, None), EMPTY]) == 7
    assert coins(0, [cafe("pink4", "pink1", None, "pink2", None), EMPTY]) == 0


def test_objective_5_consecutive_numbers_rising_or_falling() -> None:
    assert coins(0, [cafe("brown5", "green4", "pink3", None, None), EMPTY]) == 8
    assert coins(0, [cafe("brown5", "green6", "pink4", None, None), EMPTY]) == 0
    # seat 1 reads columns 4..0: 3, 4, 5 rises for them
    assert coins(1, [EMPTY, cafe(None, None, "brown5", "green4", "pink3")]) == 8


def test_objective_6_four_of_a_colour_anywhere_and_each_card_scores_once() -> None:
    four_green = cafe("green6", None, "green1", "green2", "green4")
    # green6: 9; green1: 5? no pair; green2: ends are 6 and 4 -> no; green4: 3 adjacent green: 7
    assert coins(0, [four_green, EMPTY]) == 9 + 7


def test_the_six_opposite_a_one_becomes_the_best_number_for_its_owner() -> None:
    # brown6 faces the opponent's green1: as a 4 it makes 3-4-5 consecutive for the 5 (8 coins)
    mine = cafe("pink3", "brown6", "green5", None, None)
    theirs = cafe(None, "green1", None, None, None)
    total, lines = score_cafe(0, [mine, theirs], {})
    assert total == 8
    assert next(line for line in lines if line["column"] == 1)["as"] == 4
    assert coins(0, [mine, cafe(None, "green2", None, None, None)]) == 0  # not opposite a 1


def test_tie_break_by_colour_order() -> None:
    primary_pink = [COLOURS.index(name) for name in ("pink", "green", "brown")]
    assert (
        tie_break(
            [cafe("pink2", None, None, None, None), cafe("pink5", None, None, None, None)],
            primary_pink,
        )
        == 1
    )
    # neither has brown as primary: the secondary decides; having a colour beats not
    brown_first = [COLOURS.index(name) for name in ("brown", "green", "pink")]
    assert (
        tie_break(
            [cafe("green1", None, None, None, None), cafe("pink6", None, None, None, None)],
            brown_first,
        )
        == 0
    )


def test_a_round_result_says_how_a_tie_on_coins_was_broken() -> None:
    order = [COLOURS.index(name) for name in ("green", "pink", "brown")]
    cafes = [cafe("pink2", None, None, None, None), cafe("pink5", None, None, None, None)]
    result = round_result(cafes, {}, order)
    assert result["coins"] == [0, 0] and result["winner"] == 1
    # green (the primary) is in neither café: pink, the secondary, decides 5 to 2
    assert result["tie"] == {"seat": 1, "colour": "pink", "rank": 2, "highest": [2, 5]}
    # coins decide: no tie to explain
    more = [cafe("pink1", "brown1", None, None, None), EMPTY]
    assert round_result(more, {}, order)["tie"] is None
    assert round_result(more, {}, order)["winner"] == 0
    # before any colour is chosen, equal coins are a tie nobody has broken yet
    assert round_result([EMPTY, EMPTY], {}, [])["winner"] is None


# -- the flow of a round ----------------------------------------------------------------------


def new(seed: int = 0) -> FikaState:
    return GAME.new_state(players=2, seed=seed)


def choose_colours(state: FikaState, first: str = "pink", second: str = "green") -> None:
    state.apply(state.actors()[0], {"type": "colour", "colour": first})
    state.apply(state.actors()[0], {"type": "colour", "colour": second})


def test_deal_and_supply_condition() -> None:
    for seed in range(200):
        state = new(seed)
        assert len({colour_of(card) for card in state.supply}) >= 2
        assert len({number_of(card) for card in state.supply}) >= 3
        assert [len(hand) for hand in state.hands] == [6, 6] and len(state.groups) == 2


def test_colour_order_then_simultaneous_secret_picks() -> None:
    state = new(3)
    chooser = state.actors()[0]
    choose_colours(state, "brown", "pink")
    assert state.colour_order == [0, 2, 1] and state.actors() == [0, 1]
    assert chooser in (0, 1)
    card = state.hands[0][0]
    state.apply(0, {"type": "pick", "card": card})
    assert state.actors() == [1]
    seen_by_other = state.view(1)["players"][0]
    assert seen_by_other["picked"] and seen_by_other["pick"] is None
    assert seen_by_other["hand"] is None
    assert state.view(0)["players"][0]["pick"]["id"] == card
    with pytest.raises(IllegalAction, match="cannot act"):
        state.apply(0, {"type": "pick", "card": state.hands[0][1]})


def test_higher_number_places_first_then_colour_order_breaks_ties() -> None:
    state = new(5)
    choose_colours(state, "pink", "green")
    state.hands = [[c("green4"), c("brown1")], [c("pink4"), c("brown2")]]
    state.apply(0, {"type": "pick", "card": c("green4")})
    events = state.apply(1, {"type": "pick", "card": c("pink4")})
    assert events[-1]["order"] == [1, 0]  # equal numbers: pink is primary
    assert state.actors() == [1] and state.phase == "place"


def play_step(state: FikaState, picks: list[str], spots: list[int]) -> None:
    for seat in (0, 1):
        state.apply(seat, {"type": "pick", "card": c(picks[seat])})
    for _ in range(2):
        seat = state.actors()[0]
        state.apply(seat, {"type": "place", "spot": spots[seat]})
        state.apply(seat, {"type": "skip"})


def test_the_supply_condition_deals_again_until_two_colours_and_three_numbers() -> None:
    class Scripted(random.Random):
        """A generator whose shuffles put the given cards on top, in turn."""

        def __init__(self, tops: list[list[str]]) -> None:
            super().__init__(0)
            self.tops = tops
            self.shuffles = 0

        def shuffle(self, x: Any) -> None:  # type: ignore[override]
            top = [c(name) for name in self.tops[self.shuffles]]
            x[:] = top + [card for card in x if card not in top]
            self.shuffles += 1

    state = new(0)
    one_colour = ["pink1", "pink2", "pink3", "pink4"]
    two_numbers = ["pink1", "green1", "pink2", "green2"]
    good = ["pink1", "green2", "brown3", "pink3"]
    state.rng = Scripted([one_colour, two_numbers, good])
    state._deal()
    assert state.rng.shuffles == 3
    assert state.supply == [c(name) for name in good]
    dealt = state.supply + state.hands[0] + state.hands[1] + [g.card for g in state.groups]
    assert sorted(dealt) == list(range(18))


def test_effect_1_swaps_a_supply_card_into_either_cafe() -> None:
    state = new(1)
    choose_colours(state, "pink", "green")
    state.hands = [[c("pink1"), c("brown6")], [c("green1"), c("green6")]]
    state.cafes = [cafe(None, "brown2", None, None, None), cafe(None, None, "brown4", None, None)]
    state.supply = [c("pink5"), c("green3"), c("brown5"), c("pink2")]
    state.apply(0, {"type": "pick", "card": c("pink1")})
    state.apply(1, {"type": "pick", "card": c("green1")})
    assert state.actors() == [0]  # equal numbers: pink is primary
    state.apply(0, {"type": "place", "spot": 0})
    choices = state.legal_actions(0)
    # every supply card with every occupied spot of both cafés (the new 1 included), and skip
    assert len(choices) == 4 * 3 + 1 and {"type": "skip"} in choices
    assert {"type": "effect", "supply": 0, "cafe": 1, "spot": 0} not in choices  # empty spot
    state.apply(0, {"type": "effect", "supply": 1, "cafe": 1, "spot": 2})
    assert state.cafes[1][2] == c("green3") and state.supply[1] == c("brown4")
    assert state.view(None)["supply"][1]["id"] == c("brown4")  # face up
    assert state.actors() == [1] and state.phase == "place"


def test_effect_4_swaps_one_or_two_other_cafe_cards_with_hand_cards() -> None:
    state = new(2)
    choose_colours(state)
    state.hands = [[c("brown4"), c("pink5"), c("green6")], [c("green1"), c("pink2")]]
    state.cafes = [cafe("pink1", "green2", None, None, None), EMPTY[:]]
    state.apply(0, {"type": "pick", "card": c("brown4")})
    state.apply(1, {"type": "pick", "card": c("green1")})
    state.apply(0, {"type": "place", "spot": 2})
    choices = state.legal_actions(0)
    # the card just placed is not "another" card; 2 spots x 2 hand cards singly, 2 x 2 in pairs
    assert all(2 not in [column for column, _ in a["swaps"]] for a in choices if "swaps" in a)
    assert len(choices) == 4 + 2 + 1
    state.apply(0, {"type": "effect", "swaps": [[0, c("green6")], [1, c("pink5")]]})
    assert state.cafes[0] == cafe("green6", "pink5", "brown4", None, None)
    assert sorted(state.hands[0]) == sorted([c("pink1"), c("green2")])
    assert state.actors() == [1] and state.phase == "place"  # a swapped-in 6 does nothing


def test_effect_6_swaps_two_spots_of_one_cafe_or_moves_a_card_to_an_empty_spot() -> None:
    state = new(3)
    choose_colours(state)
    state.hands = [[c("brown6"), c("pink5")], [c("green1"), c("pink2")]]
    state.cafes = [EMPTY[:], cafe("green3", None, "pink4", None, None)]
    state.apply(0, {"type": "pick", "card": c("brown6")})
    state.apply(1, {"type": "pick", "card": c("green1")})
    state.apply(0, {"type": "place", "spot": 4})
    choices = state.legal_actions(0)
    assert {"type": "effect", "cafe": 1, "spots": [1, 3]} not in choices  # two empty spots
    assert {"type": "effect", "cafe": 0, "spots": [0, 4]} in choices  # its own new card
    state.apply(0, {"type": "effect", "cafe": 1, "spots": [0, 1]})  # green3 moves right
    assert state.cafes[1] == cafe(None, "green3", "pink4", None, None)
    state.apply(1, {"type": "place", "spot": 0})
    state.apply(1, {"type": "skip"})
    assert state.cafes[1][0] == c("green1")


def test_effect_2_swaps_across_the_street_or_moves_a_card_over() -> None:
    state = new(1)
    choose_colours(state)
    state.hands = [[c("brown2"), c("green5")], [c("pink1"), c("pink3")]]
    state.cafes = [cafe("green1", None, None, None, None), cafe(None, "brown6", None, None, None)]
    state.apply(0, {"type": "pick", "card": c("brown2")})
    state.apply(1, {"type": "pick", "card": c("pink1")})
    state.apply(0, {"type": "place", "spot": 1})
    assert {"type": "effect", "spot": 0} in state.legal_actions(0)
    state.apply(0, {"type": "effect", "spot": 0})  # green1 moves across to an empty spot
    assert state.cafes[0][0] is None and state.cafes[1][0] == c("green1")
    assert state.actors() == [1]


def test_effect_3_swaps_a_hand_card_with_a_group_whose_face_only_the_swapper_knows() -> None:
    state = new(2)
    choose_colours(state)
    state.hands = [[c("brown3"), c("pink2")], [c("green1"), c("green2")]]
    state.groups[0].card, state.groups[1].card = c("pink6"), c("pink5")
    state.apply(0, {"type": "pick", "card": c("brown3")})
    state.apply(1, {"type": "pick", "card": c("green1")})
    state.apply(0, {"type": "place", "spot": 0})
    state.apply(0, {"type": "effect", "hand": c("pink2"), "group": 0})
    assert state.groups[0].card == c("pink2") and state.hands[0] == [c("pink6")]
    assert state.view(0)["groups"][0]["card"]["id"] == c("pink2")
    assert state.view(1)["groups"][0]["card"] is None
    assert state.view(None)["groups"][0]["card"] is None


def test_effect_5_puts_a_group_on_an_empty_street_card_facing_its_mover() -> None:
    state = new(4)
    choose_colours(state)
    state.hands = [[c("brown5"), c("pink2")], [c("green1"), c("pink3")]]
    state.apply(0, {"type": "pick", "card": c("brown5")})
    state.apply(1, {"type": "pick", "card": c("green1")})
    state.apply(0, {"type": "place", "spot": 3})
    state.apply(0, {"type": "effect", "group": 1, "column": 3})
    assert (state.groups[1].column, state.groups[1].facing) == (3, 0)


def test_the_lone_player_gets_two_more_plays_that_cannot_touch_the_opponent() -> None:
    state = new(6)
    choose_colours(state)
    state.cafes = [
        cafe("brown1", "brown2", "brown3", "brown4", None),
        cafe("green1", "green2", None, None, None),
    ]
    state.hands = [[c("brown5")], [c("pink1"), c("pink2"), c("pink6"), c("green6")]]
    play_step(state, ["brown5", "pink1"], [4, 2])
    assert state.lone == 1 and state.actors() == [1]
    assert {"type": "stop"} in state.legal_actions(1)
    state.apply(1, {"type": "pick", "card": c("pink2")})
    state.apply(1, {"type": "place", "spot": 3})
    assert state.legal_actions(1) == [{"type": "skip"}]  # effect 2 touches the opponent: none
    state.apply(1, {"type": "skip"})
    state.apply(1, {"type": "pick", "card": c("pink6")})
    state.apply(1, {"type": "place", "spot": 4})
    assert all(a.get("cafe", 1) == 1 for a in state.legal_actions(1))
    events = state.apply(1, {"type": "skip"})
    assert events[-1]["type"] == "round_over" and state.round == 2


def test_a_round_win_gives_a_tip_and_the_loser_picks_the_primary_colour() -> None:
    state = new(7)
    choose_colours(state)
    state.cafes = [
        cafe("brown1", "brown2", "brown3", "brown4", None),
        cafe("green1", "green2", "green3", "green4", None),
    ]
    state.hands = [[c("brown5"), c("pink1")], [c("green6"), c("pink2")]]
    play_step(state, ["brown5", "green6"], [4, 4])
    last = state.last_round
    assert last is not None and last["coins"][0] != last["coins"][1]
    winner = last["winner"]
    assert state.tips[winner] == 1 and state.phase == "colours"
    assert state.actors() == [1 - winner]


def test_the_view_previews_the_round_as_the_cafes_stand() -> None:
    state = new(7)
    choose_colours(state)
    state.cafes = [
        cafe("brown1", "brown2", "brown3", "brown4", None),
        cafe("green1", "green2", "green3", "green4", None),
    ]
    for seat in (0, 1, None):
        preview = state.view(seat)["preview"]
        assert preview["coins"] == [coins(0, state.cafes), coins(1, state.cafes)]
        assert [line["column"] for line in preview["cards"][1]] == [3, 2, 1, 0]  # seat 1 reads 4..0
    state.hands = [[c("brown5"), c("pink1")], [c("green6"), c("pink2")]]
    play_step(state, ["brown5", "green6"], [4, 4])
    last = state.last_round
    assert last is not None and last["colour_order"] == ["pink", "green", "brown"]
    assert last["tie"] is None  # the coins decided


# -- properties over random games ----------------------------------------------------------------


def card_ids(view: Any) -> set[int]:
    """The ids of every card shown anywhere in a view, but the previous round's record."""
    found: set[int] = set()
    if isinstance(view, dict):
        if {"id", "colour", "number"} <= view.keys():
            found.add(view["id"])
        for key, value in view.items():
            if key != "last_round":
                found |= card_ids(value)
    elif isinstance(view, list):
        for item in view:
            found |= card_ids(item)
    return found


def hidden_from(state: FikaState, viewer: int) -> set[int]:
    """What ``viewer`` may not see: the other hand (but a revealed pick), unknown groups."""
    other = 1 - viewer
    hidden = set(state.hands[other])
    if state.phase in ("place", "effect") and state.picks[other] is not None:
        hidden.discard(state.picks[other])
    return hidden | {g.card for g in state.groups if viewer not in g.known}


def random_game(seed: int) -> tuple[FikaState, list[tuple[int, dict[str, Any]]]]:
    rng = random.Random(seed)
    state = new(seed)
    log = []
    while not state.is_over:
        seat = rng.choice(state.actors())
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append((seat, action))
        cards = state.supply + state.hands[0] + state.hands[1] + [g.card for g in state.groups]
        cards += [card for spots in state.cafes for card in spots if card is not None]
        assert sorted(cards) == list(range(18))
        for viewer in (0, 1):
            assert not card_ids(state.view(viewer)) & hidden_from(state, viewer)
        assert not card_ids(state.view(None)) & (hidden_from(state, 0) | hidden_from(state, 1))
    return state, log


def test_random_games_account_for_18_cards_and_hide_hands() -> None:
    for seed in range(150):
        state, _ = random_game(seed)
        assert state.winners and max(state.tips) == 2


def test_replay_and_determinize() -> None:
    rng = random.Random(0)
    for seed in range(20):
        state, log = random_game(seed)
        again = replay(GAME, 2, seed, log)
        assert again.view(None) == state.view(None)
    state = new(9)
    choose_colours(state)
    state.apply(0, {"type": "pick", "card": state.hands[0][0]})
    samples = [state.determinize(1, rng) for _ in range(10)]
    for sample in samples:
        assert sample.view(1) == state.view(1)
        assert sample.picks[0] in sample.hands[0]  # a secret pick, re-sampled too
    assert any(sorted(s.hands[0]) != sorted(state.hands[0]) for s in samples)


@pytest.mark.parametrize(
    "action",
    [
        None,
        {},
        {"type": "pick", "card": 99},
        {"type": "place"},
        {"type": "colour", "colour": "blue"},
        {"type": "pick", "card": 0, "x": 1},
    ],
)
def test_bad_input_changes_nothing(action: Any) -> None:
    state = new(1)
    before = json.dumps([state.view(0), state.view(1)])
    with pytest.raises(IllegalAction):
        state.apply(state.actors()[0], action)
    assert json.dumps([state.view(0), state.view(1)]) == before
