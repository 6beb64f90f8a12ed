"""The company area: placement legality, covered squares and cafés, areas."""

from __future__ import annotations

import time

import pytest

from coffeetable.engine import IllegalAction
from coffeetable.games.cafe.cards import BY_ID
from coffeetable.games.cafe.grid import Company, orient
from tests.games.cafe.helpers import busy_choice, cube_counts, drawn, fingerprint, new, put, start


def covered(company: Company, card: str, x: int, y: int, rotation: int) -> int:
    return sum(1 for pos in company.covered_by(card, x, y, rotation) if pos in company.grid)


def test_a_card_must_cover_two_three_or_four_visible_squares() -> None:
    company = start()  # A1 rdo/usC at (0, 0)-(2, 1)
    legal = set(company.placements("P01"))
    assert (1, -1, 0) in legal and covered(company, "P01", 1, -1, 0) == 2
    assert (0, -1, 0) in legal and covered(company, "P01", 0, -1, 0) == 3
    assert (0, 0, 1) in legal and covered(company, "P01", 0, 0, 1) == 4  # turned: 2 x 3
    assert (2, -1, 0) not in legal and covered(company, "P01", 2, -1, 0) == 1
    assert (1, 0, 0) in legal and covered(company, "P01", 1, 0, 0) == 4
    assert (0, 0, 0) not in legal and covered(company, "P01", 0, 0, 0) == 6
    assert (3, 0, 0) not in legal and (9, 9, 2) not in legal  # touching or apart: covers none
    assert all(covered(company, "P01", *p) in (2, 3, 4) for p in legal)
    assert {r for _, _, r in legal} == {0, 1, 2, 3}


def test_placements_agree_with_a_brute_force_search() -> None:
    state, rng = new(1, 5), __import__("random").Random(5)
    for _ in range(6):  # grow an area of a few cards
        while state.phase != "place":
            state.apply(0, busy_choice(state, 0, rng))
        company, card = state.companies[0], state.holding
        assert card is not None
        brute = {
            (x, y, r)
            for r in range(4)
            for x in range(-20, 20)
            for y in range(-20, 20)
            if covered(company, card, x, y, r) in (2, 3, 4)
        }
        assert set(company.placements(card)) == brute
        assert len(company.placements(card)) == len(brute)  # no duplicates
        state.apply(0, busy_choice(state, 0, rng))


def test_covered_cubes_return_and_a_covered_cafe_is_lost_for_good() -> None:
    state = new(1, 0)
    company = state.companies[0] = start("A1")
    put(company, (0, 0), "red", 1)  # on the red bean
    put(company, (2, 0), "yellow", 3)  # on the roasting square
    company.cafes["A1"].have = {"red": 1}
    state.supply["red"] -= 2
    state.supply["yellow"] -= 3
    before = cube_counts(state)
    state.holding, state.phase = "P01", "place"
    events = state.apply(0, {"type": "place", "x": 1, "y": 0, "rotation": 0})
    placed = events[0]
    assert placed["covered"] == [[1, 0], [2, 0], [1, 1], [2, 1]]
    assert placed["returned"] == {"yellow": 3, "red": 1} and placed["lost"] == ["A1"]
    assert cube_counts(state) == before  # back in the supply, none lost
    assert company.grid[(0, 0)].cubes == 1  # not covered: stays
    assert company.cafes["A1"].lost and company.cafes["A1"].have == {}
    assert company.cafes["A1"].wants("red") == 0 and not company.cafes["A1"].complete
    assert company.grid[(1, 0)].card == "P01" and company.grid[(3, 0)].icon == "cup"


def test_bad_placements_are_refused_and_change_nothing() -> None:
    state = new(1, 0)
    state.apply(0, state.legal_actions(0)[0])
    before = fingerprint(state)
    for bad in (
        {"type": "place", "x": 0, "y": 0, "rotation": 0},  # covers all 6
        {"type": "place", "x": 3, "y": 0, "rotation": 0},  # touches, covers none
        {"type": "place", "x": 0, "y": 0, "rotation": 4},
        {"type": "place", "x": "0", "y": 0, "rotation": 0},
        {"type": "place", "x": 0, "y": 0},
        {"type": "place", "x": 0, "y": -1, "rotation": 0, "extra": 1},
        {"type": "take", "card": state.display[0]},
    ):
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
        assert fingerprint(state) == before


def test_areas_join_across_card_borders() -> None:
    company = start("A1")  # r d o / u s C
    company.place(BY_ID["P01"], 1, 0, 0)  # rru/ddo over the right four squares
    reds = [a for a in company.areas() if a.kind == "bean" and a.colour == "red"]
    assert [a.squares for a in reds] == [((0, 0), (1, 0), (2, 0))]
    assert {company.grid[p].card for p in reds[0].squares} == {"A1", "P01"}
    company = start("A1")
    company.place(BY_ID["P01"], -1, -1, 0)  # its roasting square lands beside A1's
    roast = [a for a in company.areas() if a.kind == "roast"]
    assert [a.squares for a in roast] == [((1, 0), (2, 0))]


def test_areas_need_the_same_icon_and_bean_colour_and_orthogonal_contact() -> None:
    company = drawn(
        "rrg d",
        "r.gdd",
        "o  o ",
        "o   o",
    )
    areas = {(a.kind, a.colour, a.squares) for a in company.areas()}
    assert areas == {
        ("bean", "red", ((0, 0), (1, 0), (0, 1))),
        ("bean", "green", ((2, 0), (2, 1))),
        ("dry", None, ((4, 0), (3, 1), (4, 1))),
        ("roast", None, ((0, 2), (0, 3))),
        ("roast", None, ((3, 2),)),  # diagonal to (4, 3): apart
        ("roast", None, ((4, 3),)),
    }
    assert company.area_at((1, 0)) == company.area_at((0, 1))
    assert company.area_at((1, 1)) is None  # a blank square is no area


def _nine_card_area(seed: int) -> Company:
    state, rng = new(1, seed), __import__("random").Random(seed)
    while len(state.companies[0].cards) < 8 or state.phase != "place":
        state.apply(0, busy_choice(state, 0, rng))
    return state.companies[0]


def test_legal_placements_of_the_ninth_card_take_a_few_milliseconds() -> None:
    timings = []
    for seed in range(5):
        company = _nine_card_area(seed)
        assert len(company.cards) == 8
        for card in ("C01", "P10", "S05"):
            started = time.perf_counter()
            found = company.placements(card)
            timings.append(time.perf_counter() - started)
            assert found
    assert sorted(timings)[len(timings) // 2] < 0.02  # typically about 1 ms


def test_orient_keeps_every_square() -> None:
    for rotation in range(4):
        assert sorted(s for _, _, s in orient(BY_ID["C16"], rotation)) == sorted("gydCCo")
