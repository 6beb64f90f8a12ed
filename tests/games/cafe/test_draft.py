"""The draft: deck size, the Master, the order, refills, discards, cup payment, ships."""

from __future__ import annotations

from typing import Any

import pytest

from coffeetable.engine import IllegalAction
from coffeetable.games.cafe.cards import BY_ID, PLANS
from coffeetable.games.cafe.rules import CafeState
from tests.games.cafe.helpers import drawn, fingerprint, new, start


def take_and_place(state: CafeState, card: str | None = None) -> list[dict[str, Any]]:
    seat = state.actors()[0]
    takes = state.legal_actions(seat)
    take = next(a for a in takes if card is None or a["card"] == card)
    events = state.apply(seat, take)
    return events + state.apply(seat, state.legal_actions(seat)[0])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_deck_holds_eight_rounds_of_players_plus_two_cards(players: int) -> None:
    state = new(players, seed=players)
    assert len(state.deck) + len(state.display) == 8 * (players + 2)
    assert len(state.deck) + len(state.display) + len(state.unused) == len(PLANS)
    assert len(set(state.deck + state.display + state.unused)) == len(PLANS)
    assert len({c.cards[0][0] for c in state.companies}) == players  # one start card each
    assert all(c.warehouse == {"red": 1, "yellow": 1, "green": 1, "black": 1}
               for c in state.companies)  # fmt: skip
    assert state.supply == dict.fromkeys(("red", "yellow", "green", "black"), 35 - players)


def test_the_master_is_drawn_at_random_or_given() -> None:
    assert {new(4, seed).master for seed in range(40)} == {0, 1, 2, 3}
    assert new(3, 7, master=2).master == 2
    with pytest.raises(ValueError):
        new(2, 0, master=3)


def test_order_starts_left_of_the_master_who_picks_last_and_two_are_discarded() -> None:
    state = new(3, seed=1, master=1)
    assert state.order == [2, 0, 1]
    seen = []
    for seat in state.order:
        assert state.actors() == [seat] and state.phase == "take"
        shown = list(state.display)
        assert len(shown) == 3
        events = take_and_place(state, shown[1])
        assert events[0] == {
            "type": "took",
            "seat": seat,
            "card": shown[1],
            "paid": events[0]["paid"],
        }
        if seat != 1:
            revealed = events[1]
            assert revealed["type"] == "revealed"  # refilled at once, before placing
            assert state.display == [shown[0], shown[2], revealed["card"]]
        seen.append(shown[1])
    assert [
        c.cards[-1][0] for c in (state.companies[2], state.companies[0], state.companies[1])
    ] == seen
    assert len(state.discard) == 2 and state.display == [] and state.phase == "actions"
    assert state.actors() == [0, 1, 2]


def test_the_master_token_passes_left_each_round() -> None:
    state = new(4, seed=3, master=3)
    masters = []
    while not state.is_over:
        if state.phase == "take" and state.turn == 0:
            masters.append(state.master)
            assert state.order[-1] == state.master
        seat = state.actors()[0]
        state.apply(seat, state.legal_actions(seat)[-1 if state.phase == "actions" else 0])
    assert masters == [3, 0, 1, 2, 3, 0, 1, 2]
    assert len(state.deck) == 0 and len(state.discard) == 16


def test_solo_reveals_three_keeps_one_discards_two() -> None:
    state = new(1, seed=2)
    shown = list(state.display)
    events = take_and_place(state, shown[2])
    assert "revealed" not in [e["type"] for e in events]
    assert state.discard == shown[:2] and state.phase == "actions"


def test_a_cup_card_costs_a_cube_of_the_players_choice() -> None:
    state = new(1, seed=0)
    state.display = ["P01", "S01", "C01"]  # cup, no cup, cup
    state.companies[0] = start("A1")
    state.companies[0].warehouse = {"red": 2, "yellow": 0, "green": 1, "black": 0}
    assert state.legal_actions(0) == [
        {"type": "take", "card": "P01", "pay": "red"},
        {"type": "take", "card": "P01", "pay": "green"},
        {"type": "take", "card": "S01"},
        {"type": "take", "card": "C01", "pay": "red"},
        {"type": "take", "card": "C01", "pay": "green"},
    ]
    before = fingerprint(state)
    for bad, words in (
        ({"type": "take", "card": "P01"}, "shows a cup"),
        ({"type": "take", "card": "P01", "pay": "yellow"}, "no 'yellow' cube"),
        ({"type": "take", "card": "S01", "pay": "red"}, "free for you"),
        ({"type": "take", "card": "P99"}, "'card' must be one of"),
        ({"type": "take", "card": "P02"}, "take one of P01, S01, C01"),
        ({"type": "take", "card": "P01", "pay": "red", "x": 1}, "unexpected field"),
        ({"type": "pass"}, "not what is played now"),
    ):
        with pytest.raises(IllegalAction) as error:
            state.apply(0, bad)
        assert words in error.value.reason
        assert fingerprint(state) == before
    supply = state.supply["green"]
    events = state.apply(0, {"type": "take", "card": "C01", "pay": "green"})
    assert events[0]["paid"] == "green"
    assert state.companies[0].warehouse["green"] == 0 and state.supply["green"] == supply + 1


def test_without_cubes_cup_cards_cannot_be_taken_unless_all_three_need_paying() -> None:
    state = new(1, seed=0)
    state.companies[0].warehouse = dict.fromkeys(state.companies[0].warehouse, 0)
    state.display = ["P01", "S01", "C01"]
    assert state.legal_actions(0) == [{"type": "take", "card": "S01"}]
    state.display = ["P01", "P02", "C01"]  # all three show a cup: one is free (ruling)
    assert state.legal_actions(0) == [{"type": "take", "card": c} for c in ("P01", "P02", "C01")]
    events = state.apply(0, {"type": "take", "card": "P02"})
    assert events[0]["paid"] is None


def test_two_ships_make_cup_cards_free() -> None:
    state = new(1, seed=0)
    state.display = ["P01", "S01", "C01"]
    state.companies[0] = drawn("rss", "udo")
    assert all(BY_ID[a["card"]].has_cup == (a["card"] != "S01") for a in state.legal_actions(0))
    assert state.legal_actions(0) == [{"type": "take", "card": c} for c in ("P01", "S01", "C01")]
    state.companies[0] = drawn("rs.", "udo")  # one ship is not enough
    assert {"type": "take", "card": "P01"} not in state.legal_actions(0)


def test_actions_are_the_visible_cups_between_one_and_eight() -> None:
    for rows, expected in ((("rdo", "..."), 1), (("uuo", "rdu"), 3), (("uuuuu..", "uuuuu.."), 8)):
        state = new(1, seed=0)
        state.apply(0, state.legal_actions(0)[0])
        company = state.companies[0] = drawn(*rows)
        state.holding = "S12"  # oks/rd.: no cup
        place = next(
            p for p in company.placements("S12") if all(
                company.grid.get(pos) is None or company.grid[pos].icon != "cup"
                for pos in company.covered_by("S12", *p)
            )
        )  # fmt: skip
        state.apply(0, {"type": "place", "x": place[0], "y": place[1], "rotation": place[2]})
        assert state.actions_left == [expected]


def test_only_the_seat_in_turn_may_take() -> None:
    state = new(2, seed=0, master=0)
    before = fingerprint(state)
    tries = [
        (0, {"type": "take", "card": state.display[0]}),
        (5, {"type": "pass"}),
        (None, {"type": "pass"}),
        (1, "take"),
        (1, {"card": state.display[0]}),
    ]
    for seat, action in tries:
        with pytest.raises(IllegalAction):
            state.apply(seat, action)
        assert fingerprint(state) == before
    assert state.legal_actions(0) == []
