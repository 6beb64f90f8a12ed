"""The actions phase: produce, dry, roast, deliver, pass; empty areas; the supply."""

from __future__ import annotations

from typing import Any

import pytest

from coffeetable.engine import IllegalAction
from coffeetable.games.cafe.grid import Company
from coffeetable.games.cafe.rules import CafeState
from tests.games.cafe.helpers import acting, cafe, cube_counts, drawn, fingerprint, put

#   x: 01234
CHAIN = (
    "rr.dd",  # y=0: a 2-square red bean area, a 2-square drying area
    "g.k.o",  # y=1: green and black beans alone, a roasting square
    "rCC.o",  # y=2: a red bean apart, a 2-cell café, the roasting area goes on
    "u.d.u",  # y=3: a drying square alone
)


def chain() -> Company:
    company = drawn(*CHAIN)
    cafe(company, "C09", [(1, 2), (2, 2)], {"red": 2, "yellow": 1}, 6)
    return company


def legal_types(state: CafeState, kind: str) -> list[dict[str, Any]]:
    return [a for a in state.legal_actions(0) if a["type"] == kind]


def refused(state: CafeState, action: dict[str, Any], words: str = "") -> None:
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(0, action)
    assert words in error.value.reason
    assert fingerprint(state) == before


def test_produce_fills_an_empty_bean_area_one_cube_a_square() -> None:
    state = acting(chain())
    assert {tuple(a["area"]) for a in legal_types(state, "produce")} == {
        (0, 0), (0, 1), (2, 1), (0, 2)
    }  # fmt: skip
    state.apply(0, {"type": "produce", "area": [1, 0]})  # any square names its area
    company = state.companies[0]
    assert [company.grid[p].cubes for p in ((0, 0), (1, 0), (0, 2))] == [1, 1, 0]
    assert state.supply["red"] == 33 and state.actions_left == [7]
    refused(state, {"type": "produce", "area": [0, 0]}, "not empty")
    refused(state, {"type": "produce", "area": [3, 0]}, "needs a bean area")
    refused(state, {"type": "produce", "area": [1, 1]}, "no bean, drying or roasting area")


def test_produce_stops_when_the_supply_runs_out() -> None:
    state = acting(chain())
    state.supply["red"] = 1
    state.apply(0, {"type": "produce", "area": [0, 0]})
    assert state.companies[0].cubes_on(state.companies[0].area_at((0, 0))) == {"red": 1}  # type: ignore[arg-type]
    assert state.supply["red"] == 0
    assert not [a for a in legal_types(state, "produce") if a["area"] == [0, 2]]
    refused(state, {"type": "produce", "area": [0, 2]}, "no red cube left")


def test_dry_moves_every_cube_of_one_colour_from_every_bean_square() -> None:
    company = chain()
    for pos in ((0, 0), (1, 0), (0, 2)):
        put(company, pos, "red")
    put(company, (0, 1), "green")
    state = acting(company)
    assert {(a["colour"], tuple(a["area"])) for a in legal_types(state, "dry")} == {
        ("red", (3, 0)), ("green", (3, 0)), ("red", (2, 3)), ("green", (2, 3))
    }  # fmt: skip
    refused(state, {"type": "dry", "colour": "black", "area": [3, 0]}, "no black cube")
    refused(state, {"type": "dry", "colour": "red", "area": [4, 1]}, "needs a drying area")
    refused(state, {"type": "dry", "colour": "blue", "area": [3, 0]}, "'colour' must be one of")
    state.apply(0, {"type": "dry", "colour": "red", "area": [4, 0]})
    assert [company.grid[p].cubes for p in ((3, 0), (4, 0))] == [2, 1]  # spread in turn
    assert all(company.grid[p].cubes == 0 for p in ((0, 0), (1, 0), (0, 2)))
    assert company.grid[(0, 1)].cubes == 1  # the other colour stays
    refused(state, {"type": "dry", "colour": "green", "area": [3, 0]}, "not empty")
    state.apply(0, {"type": "dry", "colour": "green", "area": [2, 3]})
    assert company.grid[(2, 3)].cubes == 1 and company.grid[(2, 3)].cube_colour == "green"


def test_roast_moves_one_colour_from_every_drying_area() -> None:
    company = chain()
    put(company, (3, 0), "red", 2)
    put(company, (2, 3), "red", 1)
    put(company, (4, 0), "green", 1)  # two colours on one (joined) drying area
    state = acting(company)
    assert {a["colour"] for a in legal_types(state, "roast")} == {"red", "green"}
    state.apply(0, {"type": "roast", "colour": "red", "area": [4, 2]})
    assert [company.grid[p].cubes for p in ((4, 1), (4, 2))] == [2, 1]
    assert company.grid[(3, 0)].cubes == company.grid[(2, 3)].cubes == 0
    assert company.grid[(4, 0)].cube_colour == "green"
    refused(state, {"type": "roast", "colour": "green", "area": [4, 1]}, "not empty")
    assert legal_types(state, "roast") == []  # the only roasting area is full


def test_deliver_to_fully_visible_cafes_that_need_the_colour_the_rest_to_the_warehouse() -> None:
    company = chain()
    put(company, (4, 1), "red", 2)
    put(company, (4, 2), "red", 1)
    other = cafe(company, "C02", [(1, 1)], {"red": 1, "green": 1}, 3)
    company.grid[(1, 1)].icon = "cafe"
    company.cafes["C09"].have = {"red": 1}  # needs one more red
    state = acting(company)
    delivers = legal_types(state, "deliver")
    assert len(delivers) == 4  # C09: 0-1 red, C02: 0-1 red
    assert {"type": "deliver", "area": [4, 1], "to": {}} in delivers
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C09": {"red": 2}}}, "needs 1")
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C09": {"green": 1}}}, "needs 0")
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C77": {"red": 1}}}, "no café")
    refused(state, {"type": "deliver", "area": [0, 0], "to": {}}, "roasting area")
    refused(state, {"type": "deliver", "area": [4, 1], "to": ["C09"]}, "'to' must be an object")
    refused(state, {"type": "deliver", "area": [4, 1], "to": {("C09",): {"red": 1}}}, "strings")
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C09": {("red",): 1}}}, "the key")
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C09": {"red": 1.0}}}, "whole number")
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C09": {"red": 1}, "C02": {"red": 1},
                    "X": {}}}, "no café")  # fmt: skip
    before = cube_counts(state)
    events = state.apply(0, {"type": "deliver", "area": [4, 2], "to": {"C09": {"red": 1}}})
    assert events[0]["completed"] == [] and events[0]["warehouse"] == {"red": 2}
    assert company.cafes["C09"].have == {"red": 2} and company.warehouse["red"] == 2
    assert other.have == {} and cube_counts(state) == before
    assert company.cubes_on(company.area_at((4, 1))) == {}  # type: ignore[arg-type]
    assert legal_types(state, "deliver") == []


def test_a_lost_cafe_takes_nothing_and_a_completed_cafe_is_reported() -> None:
    company = chain()
    put(company, (4, 1), "yellow", 1)
    company.cafes["C09"].have = {"red": 2}
    state = acting(company)
    company.cafes["C09"].lost = True
    assert legal_types(state, "deliver") == [{"type": "deliver", "area": [4, 1], "to": {}}]
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C09": {"yellow": 1}}}, "covered")
    company.cafes["C09"].lost = False
    events = state.apply(0, {"type": "deliver", "area": [4, 1], "to": {"C09": {"yellow": 1}}})
    assert events[0]["completed"] == ["C09"] and company.cafes["C09"].complete


def test_a_joined_roasting_area_delivers_each_colour_where_it_is_wanted() -> None:
    company = chain()
    put(company, (4, 1), "red", 1)
    put(company, (4, 2), "yellow", 2)
    state = acting(company)
    delivers = legal_types(state, "deliver")
    assert len(delivers) == 2 * 2  # red 0-1, yellow 0-1 to C09
    refused(state, {"type": "deliver", "area": [4, 1], "to": {"C09": {"red": 2}}}, "holds 1 red")
    assert {"type": "deliver", "area": [4, 1], "to": {"C09": {"red": 1, "yellow": 1}}} in delivers
    state.apply(0, {"type": "deliver", "area": [4, 1], "to": {"C09": {"yellow": 1, "red": 1}}})
    assert company.warehouse == {"red": 0, "yellow": 1, "green": 0, "black": 0}


def test_actions_count_down_and_pass_ends_them() -> None:
    state = acting(chain(), actions=2)
    assert state.actors() == [0]
    state.apply(0, {"type": "produce", "area": [0, 0]})
    assert state.actions_left == [1]
    round_before = state.round
    state.apply(0, {"type": "pass"})
    assert state.round == round_before + 1 and state.phase == "take"


def test_legal_actions_have_no_duplicates_and_all_apply() -> None:
    company = chain()
    for pos, colour in (((0, 0), "red"), ((3, 0), "green"), ((4, 1), "red"), ((0, 1), "green")):
        put(company, pos, colour)
    state = acting(company)
    legal = state.legal_actions(0)
    assert len({repr(a) for a in legal}) == len(legal) and legal[-1] == {"type": "pass"}
    for action in legal:
        state.clone().apply(0, action)
