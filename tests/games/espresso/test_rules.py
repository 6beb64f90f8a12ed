"""Espresso rules scenarios, from the rulebooks (seeds 000, 002) and our rulings."""

from __future__ import annotations

import pytest

from coffeetable.engine import IllegalAction
from tests.games.espresso.helpers import (
    all_cards,
    card,
    fingerprint,
    new_match,
    set_area,
    set_centre,
    started,
)


def play(source: str, target: int | str, slot: int | None = None, **extra: object) -> dict:
    action: dict = {"type": "play", "source": source, "target": target}
    if slot is not None:
        action["slot"] = slot
    action.update(extra)
    return action


# -- set-up and the ready check ------------------------------------------------


def test_deal_gives_nine_espresso_three_help_twenty_four_in_hand() -> None:
    state = new_match(players=3, seed=7)
    for area in state.areas:
        assert (len(area.espresso), len(area.help), len(area.hand), len(area.pile)) == (9, 3, 24, 0)
    assert all_cards(state) == list(range(3 * 36))


def test_help_cards_hidden_from_everyone_until_all_are_ready() -> None:
    state = new_match(players=3)
    assert state.actors() == [0, 1, 2]
    assert state.legal_actions(0) == [{"type": "ready"}]
    for viewer in (None, 0, 1, 2):
        assert all(p["help"] == [None] * 3 for p in state.view(viewer)["players"])
    state.apply(0, {"type": "ready"})
    state.apply(1, {"type": "ready"})
    assert state.actors() == [2]
    assert state.view(0)["players"][0]["help"] == [None] * 3
    with pytest.raises(IllegalAction, match="ready"):
        state.apply(0, {"type": "flip", "count": 3})
    with pytest.raises(IllegalAction, match="already"):
        state.apply(0, {"type": "ready"})
    events = state.apply(2, {"type": "ready"})
    assert events[-1] == {"type": "round_started", "round": 1}
    assert state.phase == "play" and state.actors() == [0, 1, 2]
    assert all(None not in p["help"] for p in state.view(None)["players"])


def test_espresso_top_is_visible_but_not_the_cards_below() -> None:
    state = new_match()
    top = state.view(1)["players"][0]["espresso"]
    assert top["count"] == 9 and top["top"]["owner"] == 0


# -- Espresso Normalo ------------------------------------------------------------


def test_a_new_stack_starts_with_a_zero_and_rises_in_one_colour() -> None:
    state = started()
    set_area(
        state,
        0,
        espresso=[card(0, "blue", 4), card(0, "blue", 3), card(0, "red", 0)],
        help=[card(0, "red", 1), card(0, "green", 1), card(0, "red", 2)],
    )
    with pytest.raises(IllegalAction, match="starts with a 0"):
        state.apply(0, play("help", "new", slot=0))
    state.apply(0, play("espresso", "new"))
    assert state.view(None)["centre"] == [[{"colour": "red", "value": 0, "owner": 0}]]
    with pytest.raises(IllegalAction, match="does not go on"):
        state.apply(0, play("help", 0, slot=1))  # green 1 on a red 0
    with pytest.raises(IllegalAction, match="does not go on"):
        state.apply(0, play("help", 0, slot=2))  # red 2 on a red 0
    state.apply(0, play("help", 0, slot=0))
    assert [c["value"] for c in state.view(None)["centre"][0]] == [0, 1]


def test_playing_a_help_card_moves_the_espresso_top_into_its_slot() -> None:
    state = started()
    set_centre(state, [[card(1, "green", 0)]])
    espresso = [card(0, "blue", 7), card(0, "yellow", 3)]
    set_area(state, 0, espresso=espresso, help=[card(0, "red", 5), card(0, "green", 1), None])
    state.apply(0, play("help", 0, slot=1))
    assert state.areas[0].help == [card(0, "red", 5), card(0, "yellow", 3), None]
    assert state.areas[0].espresso == [card(0, "blue", 7)]


def test_a_stack_topped_by_an_eight_is_complete() -> None:
    state = started(players=2)
    reds = [card(1, "red", v) for v in range(9)]
    set_centre(state, [reds])
    set_area(state, 0, espresso=[card(0, "blue", 5), card(0, "red", 8)], help=[None] * 3)
    assert not any(a.get("target") == 0 for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="complete"):
        state.apply(0, play("espresso", 0))


def test_several_stacks_of_one_colour_may_coexist() -> None:
    state = started()
    set_centre(state, [[card(1, "red", 0)]])
    set_area(state, 0, espresso=[card(0, "blue", 5), card(0, "red", 0)], help=[None] * 3)
    state.apply(0, play("espresso", "new"))
    assert len(state.centre) == 2


def test_flip_moves_three_cards_one_by_one_and_the_third_ends_on_top() -> None:
    state = started()
    hand = [card(0, "red", 8), card(0, "blue", 3), card(0, "green", 2), card(0, "yellow", 1)]
    set_area(state, 0, espresso=[card(0, "blue", 5)], help=[None] * 3, hand=hand)
    state.apply(0, {"type": "flip", "count": 3})
    assert state.areas[0].pile == [card(0, "yellow", 1), card(0, "green", 2), card(0, "blue", 3)]
    assert state.view(1)["players"][0]["pile"]["top"] == {"colour": "blue", "value": 3, "owner": 0}


def test_flip_with_fewer_than_three_left_flips_those_then_recycle_keeps_the_order() -> None:
    state = started()
    set_area(state, 0, espresso=[card(0, "blue", 5)], help=[None] * 3, hand=[])
    area = state.areas[0]
    area.hand = [card(0, "red", 8), card(0, "blue", 3)]
    area.pile = [card(0, "green", 2), card(0, "yellow", 1), card(0, "red", 4)]
    with pytest.raises(IllegalAction, match="only when your hand deck is empty"):
        state.apply(0, {"type": "recycle"})
    events = state.apply(0, {"type": "flip", "count": 3})
    assert events == [{"type": "flipped", "seat": 0, "count": 2}]
    before = list(area.pile)
    assert {"type": "recycle"} in state.legal_actions(0)
    state.apply(0, {"type": "recycle"})
    assert area.pile == [] and len(area.hand) == 5
    state.apply(0, {"type": "flip", "count": 3})
    assert area.pile == before[:3]  # turned over, not shuffled: the same cards come up again


def test_stuck_rule_flips_by_two_after_a_pass_without_placing_until_a_card_is_placed() -> None:
    state = started(players=2)
    set_centre(state, [[card(1, "red", 0)]])
    set_area(state, 0, espresso=[card(0, "blue", 5)], help=[None] * 3, hand=[])
    area = state.areas[0]
    area.hand = [card(0, "red", 1), card(0, "green", 3)]
    assert {"type": "flip", "count": 2} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="stuck"):
        state.apply(0, {"type": "flip", "count": 2})
    state.apply(0, {"type": "flip", "count": 3})  # the red 1 comes up and could be placed
    state.apply(0, {"type": "recycle"})  # ... but it was not: a whole pass without placing
    assert area.stuck and state.view(1)["players"][0]["stuck"]
    assert {"type": "flip", "count": 2} in state.legal_actions(0)
    state.apply(0, {"type": "flip", "count": 2})
    assert area.pile == [card(0, "green", 3), card(0, "red", 1)]
    state.apply(0, play("pile", 0))
    assert not area.stuck
    assert {"type": "flip", "count": 2} not in state.legal_actions(0)


def test_a_pass_with_a_placement_does_not_make_a_player_stuck() -> None:
    state = started(players=2)
    set_centre(state, [[card(1, "red", 0)]])
    set_area(state, 0, espresso=[card(0, "blue", 5)], help=[None] * 3, hand=[])
    state.areas[0].hand = [card(0, "red", 1), card(0, "green", 3)]
    state.apply(0, {"type": "flip", "count": 3})
    state.apply(0, play("pile", 0))
    state.apply(0, {"type": "recycle"})
    assert not state.areas[0].stuck


# -- FINITO and scoring ------------------------------------------------------------


def test_finito_when_the_last_espresso_card_is_played_scores_cards_plus_five() -> None:
    state = started(players=2)
    set_centre(state, [[card(0, "red", 0), card(1, "red", 1)], [card(1, "blue", 0)]])
    set_area(state, 0, espresso=[card(0, "red", 2)], help=[card(0, "red", 5)] + [None] * 2)
    events = state.apply(0, play("espresso", 0))
    assert events[0]["type"] == "played"
    over = events[1]
    assert over["type"] == "round_over" and over["finito"] == 0 and not over["blocked"]
    assert over["points"] == [2 + 5, 2]
    assert state.scores == [7, 2] and state.round == 2 and state.phase == "ready"
    assert state.view(None)["last_round"]["points"] == [7, 2]
    assert state.view(1)["rounds"] == [[7, 2]]
    assert all_cards(state) == list(range(72))  # a fresh deal


def test_finito_when_the_last_espresso_card_moves_into_a_help_slot() -> None:
    state = started(players=2)
    set_centre(state, [[card(1, "green", 0)]])
    set_area(state, 0, espresso=[card(0, "blue", 7)], help=[card(0, "green", 1), None, None])
    events = state.apply(0, play("help", 0, slot=0))
    assert events[-1]["type"] == "round_over" and events[-1]["finito"] == 0
    assert events[-1]["points"] == [1 + 5, 1]


def test_nothing_counts_after_finito() -> None:
    state = started(players=2)
    set_centre(state, [[card(1, "green", 0)]])
    set_area(state, 0, espresso=[card(0, "blue", 7)], help=[card(0, "green", 1), None, None])
    set_area(state, 1, espresso=[card(1, "blue", 7), card(1, "green", 2)], help=[None] * 3)
    state.apply(0, play("help", 0, slot=0))
    with pytest.raises(IllegalAction):
        state.apply(1, play("espresso", 0))  # too late: the round is over


def test_match_ends_at_the_target_and_equal_totals_share_the_win() -> None:
    state = started(players=3, target=10)
    state.totals = [3, 9, 2]
    set_centre(state, [[card(0, "red", 0), card(0, "red", 1)]])
    set_area(state, 0, espresso=[card(0, "red", 2)], help=[None] * 3)
    events = state.apply(0, play("espresso", 0))
    assert events[-1] == {"type": "match_over", "scores": [11, 9, 2], "winners": [0]}
    assert state.is_over and state.actors() == [] and state.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, {"type": "flip", "count": 3})


def test_the_highest_total_wins_even_if_the_finito_caller_reached_the_target() -> None:
    state = started(players=2, target=10)
    state.totals = [4, 10]
    set_centre(state, [[card(1, "red", 0)]])
    set_area(state, 0, espresso=[card(0, "red", 1)], help=[None] * 3)
    state.apply(0, play("espresso", 0))
    assert state.scores == [10, 11] and state.winners == [1]


def test_equal_totals_at_the_end_share_the_win() -> None:
    state = started(players=2, target=10)
    state.totals = [4, 10]
    set_centre(state, [[card(1, "red", 0)], [card(0, "blue", 0)]])
    set_area(state, 0, espresso=[card(0, "red", 1)], help=[None] * 3)
    state.apply(0, play("espresso", 0))  # seat 0: 2 cards + 5; seat 1: 1 card
    assert state.scores == [11, 11] and state.winners == [0, 1]


def test_blocked_round_ends_without_finito() -> None:
    state = started(players=2)
    for seat in (0, 1):
        set_area(state, seat, espresso=[card(seat, "blue", 5)], help=[None] * 3, hand=[])
        state.areas[seat].hand = [card(seat, "red", 3)]
    events = []
    for _ in range(2):
        for seat in (0, 1):
            events += state.apply(seat, {"type": "flip", "count": 3})
            events += state.apply(seat, {"type": "recycle"})
    assert events[-1]["type"] == "round_over"
    assert events[-1]["finito"] is None and events[-1]["blocked"]
    assert state.round == 2


def test_the_table_ends_an_idle_round() -> None:
    state = new_match()
    with pytest.raises(IllegalAction, match="no round"):
        state.apply(None, {"type": "idle"})
    state = started()
    with pytest.raises(IllegalAction):
        state.apply(None, {"type": "play", "source": "espresso", "target": "new"})
    events = state.apply(None, {"type": "idle"})
    assert events[0]["type"] == "round_over" and events[0]["finito"] is None


# -- Zero ------------------------------------------------------------------------------


def test_zero_stacks_start_with_a_one_and_a_zero_never_goes_alone() -> None:
    state = started(zero=True)
    set_area(
        state,
        0,
        espresso=[card(0, "blue", 5), card(0, "green", 1)],
        help=[card(0, "red", 0), None, None],
    )
    assert not any(a["type"] == "play" and a["source"] == "help" for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="joker"):
        state.apply(0, play("help", "new", slot=0))
    state.apply(0, play("espresso", "new"))
    assert state.view(None)["centre"] == [[{"colour": "green", "value": 1, "owner": 0}]]


def test_joker_on_a_red_five_as_six_then_a_green_seven_turns_the_stack_green() -> None:
    state = started(zero=True)
    set_centre(state, [[card(1, "red", v) for v in range(1, 6)]])
    set_area(
        state,
        0,
        espresso=[card(0, "blue", 6), card(0, "blue", 5), card(0, "green", 7)],
        help=[card(0, "red", 7), card(0, "yellow", 0), None],
    )
    joker = {
        "type": "joker",
        "source": "help",
        "slot": 1,
        "target": 0,
        "follow": {"source": "help", "slot": 1},
    }  # the green 7 that moved up
    assert joker in state.legal_actions(0)
    assert {**joker, "follow": {"source": "help", "slot": 0}} in state.legal_actions(0)
    state.apply(0, joker)
    stack = state.view(None)["centre"][0]
    assert stack[-2] == {"colour": "yellow", "value": 0, "owner": 0, "as": 6}
    assert stack[-1] == {"colour": "green", "value": 7, "owner": 0}
    assert state.wanted == {card(0, "green", 8) % 36: [0]}  # now it waits for a green 8


def test_the_follower_may_be_the_espresso_card_that_just_moved_into_the_slot() -> None:
    state = started(zero=True)
    set_centre(state, [[card(1, "red", 1), card(1, "red", 2)]])
    set_area(
        state,
        0,
        espresso=[card(0, "blue", 6), card(0, "blue", 5), card(0, "green", 4)],
        help=[card(0, "yellow", 0), None, None],
    )
    joker = {
        "type": "joker",
        "source": "help",
        "slot": 0,
        "target": 0,
        "follow": {"source": "help", "slot": 0},
    }
    assert joker in state.legal_actions(0)
    state.apply(0, joker)
    assert state.areas[0].help[0] == card(0, "blue", 5)
    assert [c["value"] for c in state.view(None)["centre"][0]] == [1, 2, 0, 4]


def test_the_follower_is_never_a_card_the_joker_uncovered() -> None:
    """The card under the espresso or pile top was face down when the action was decided;
    offering it would also reveal it through the legal actions."""
    state = started(zero=True)
    set_centre(state, [[card(1, "red", 1), card(1, "red", 2)]])
    set_area(
        state,
        0,
        espresso=[card(0, "blue", 6), card(0, "green", 4), card(0, "yellow", 0)],
        help=[None] * 3,
        pile=[card(0, "blue", 4), card(0, "red", 0)],
    )
    assert not any(a["type"] == "joker" for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="follower must be a 4"):
        state.apply(
            0,
            {"type": "joker", "source": "espresso", "target": 0, "follow": {"source": "espresso"}},
        )
    with pytest.raises(IllegalAction, match="follower must be a 4"):
        state.apply(
            0, {"type": "joker", "source": "pile", "target": 0, "follow": {"source": "pile"}}
        )


def test_a_joker_on_an_empty_place_stands_for_zero() -> None:
    state = started(zero=True)
    set_area(
        state,
        0,
        espresso=[card(0, "blue", 6), card(0, "blue", 5), card(0, "green", 0)],
        help=[card(0, "red", 1), None, None],
    )
    state.apply(
        0,
        {
            "type": "joker",
            "source": "espresso",
            "target": "new",
            "follow": {"source": "help", "slot": 0},
        },
    )
    assert state.view(None)["centre"][0][0]["as"] == 0


def test_no_joker_on_a_seven_and_no_joker_without_a_follower() -> None:
    state = started(zero=True)
    set_centre(state, [[card(1, "red", v) for v in range(1, 8)], [card(1, "blue", 1)]])
    set_area(
        state,
        0,
        espresso=[card(0, "blue", 5), card(0, "green", 8)],
        help=[card(0, "yellow", 0), card(0, "red", 0), None],
    )
    assert not any(a["type"] == "joker" for a in state.legal_actions(0))
    before = fingerprint(state)
    with pytest.raises(IllegalAction, match="8 or more"):
        state.apply(
            0,
            {
                "type": "joker",
                "source": "help",
                "slot": 0,
                "target": 0,
                "follow": {"source": "espresso"},
            },
        )
    with pytest.raises(IllegalAction, match="follower must be a 3"):
        state.apply(
            0,
            {
                "type": "joker",
                "source": "help",
                "slot": 0,
                "target": 1,
                "follow": {"source": "espresso"},
            },
        )
    with pytest.raises(IllegalAction, match="follower must be a 3"):  # a 0 cannot follow a 0
        state.apply(
            0,
            {
                "type": "joker",
                "source": "help",
                "slot": 0,
                "target": 1,
                "follow": {"source": "help", "slot": 1},
            },
        )
    assert fingerprint(state) == before


def test_jokers_only_with_zero() -> None:
    state = started()
    with pytest.raises(IllegalAction, match="Zero"):
        state.apply(
            0,
            {
                "type": "joker",
                "source": "help",
                "slot": 0,
                "target": "new",
                "follow": {"source": "espresso"},
            },
        )


# -- Chaos -----------------------------------------------------------------------------


def test_chaos_takes_another_players_help_card_which_scores_for_its_owner() -> None:
    state = started(players=3, chaos=True)
    set_centre(state, [[card(0, "red", 0)]])
    set_area(
        state,
        1,
        espresso=[card(1, "blue", 5), card(1, "green", 6)],
        help=[card(1, "red", 1), None, None],
    )
    take = play("help", 0, slot=0, owner=1)
    assert take in state.legal_actions(2)
    events = state.apply(2, take)
    assert events[0]["owner"] == 1 and events[0]["seat"] == 2
    assert state.areas[1].help[0] == card(1, "green", 6)  # refilled from the owner's espresso
    state.apply(None, {"type": "idle"})
    assert state.last_round is not None and state.last_round["points"] == [1, 1, 0]


def test_chaos_taking_the_help_card_that_empties_the_owners_espresso_is_the_owners_finito() -> None:
    state = started(players=2, chaos=True)
    set_centre(state, [[card(0, "red", 0)]])
    set_area(state, 1, espresso=[card(1, "green", 6)], help=[card(1, "red", 1), None, None])
    events = state.apply(0, play("help", 0, slot=0, owner=1))
    assert events[-1]["type"] == "round_over" and events[-1]["finito"] == 1
    assert events[-1]["points"] == [1, 1 + 5]


def test_chaos_takes_the_pile_top_but_never_the_espresso_stack() -> None:
    state = started(players=2, chaos=True)
    set_centre(state, [[card(0, "red", 0)]])
    set_area(
        state,
        1,
        espresso=[card(1, "blue", 5), card(1, "yellow", 1)],
        help=[None] * 3,
        pile=[card(1, "green", 2), card(1, "red", 1)],
    )
    with pytest.raises(IllegalAction, match="espresso stack cannot be taken"):
        state.apply(0, play("espresso", 0, owner=1))
    state.apply(0, play("pile", 0, owner=1))
    assert state.areas[1].pile == [card(1, "green", 2)]


def test_without_chaos_another_seats_card_is_refused() -> None:
    state = started(players=2)
    with pytest.raises(IllegalAction, match="Chaos"):
        state.apply(0, play("help", "new", slot=0, owner=1))


def test_options_and_player_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="no option"):
        new_match(colour_blind=True)
    with pytest.raises(ValueError, match="true or false"):
        new_match(zero="yes")
    with pytest.raises(ValueError, match="2 to 6"):
        new_match(players=7)
    with pytest.raises(ValueError, match="at least 1"):
        new_match(target=0)
