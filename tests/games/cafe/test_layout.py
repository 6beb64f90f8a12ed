"""The company layout (layout.py): kept up to date at each placement, shared by copies."""

from __future__ import annotations

import random

import pytest

from coffeetable.games.cafe.cards import BY_ID, PLANS
from coffeetable.games.cafe.grid import Company, orient
from coffeetable.games.cafe.layout import Layout, find_areas
from tests.games.cafe.helpers import busy_choice, drawn, new, start


def same_layout(kept: Layout, fresh: Layout) -> None:
    """``kept`` (updated placement by placement) says what ``fresh`` (from scratch) says."""
    assert kept.areas == fresh.areas
    assert kept.area_of == fresh.area_of
    assert kept.keys == fresh.keys
    assert {i: n for i, n in kept.icons.items() if n} == fresh.icons
    assert kept.cover == fresh.cover and kept.legal == fresh.legal
    assert kept.anchors(0) == fresh.anchors(0) and kept.anchors(1) == fresh.anchors(1)
    for kind in ("bean", "dry", "roast"):
        assert kept.squares_of(kind) == fresh.squares_of(kind)


def brute_cover(company: Company, x: int, y: int, rotation: int) -> int:
    return sum(1 for pos in company.covered_by("P01", x, y, rotation) if pos in company.grid)


@pytest.mark.parametrize("seed", range(12))
def test_the_layout_after_each_placement_is_the_one_worked_out_from_scratch(seed: int) -> None:
    players = 1 + seed % 4
    state, rng = new(players, seed), random.Random(seed)
    placements = 0
    while not state.is_over:
        seat = rng.choice(state.actors())
        placing = state.phase == "place"
        state.apply(seat, busy_choice(state, seat, rng))
        if placing:
            placements += 1
            company = state.companies[seat]
            same_layout(company.layout, Layout.of(company.grid))
    assert placements == 8 * players


def test_random_placements_anywhere_keep_areas_and_counts_right() -> None:
    rng = random.Random(3)
    for _ in range(30):
        company = start(rng.choice(["A1", "A2", "A3", "A4"]))
        for _ in range(10):  # more cards than a game has, to grow large and joined areas
            card = rng.choice(PLANS)
            x, y, rotation = rng.choice(company.placements(card.id))
            company.place(card, x, y, rotation)
            same_layout(company.layout, Layout.of(company.grid))
            assert company.areas() == find_areas(company.grid)


def test_covers_counts_the_visible_squares_under_a_card() -> None:
    company = start("A1")
    company.place(BY_ID["P01"], 1, -1, 0)
    for x in range(-4, 6):
        for y in range(-4, 4):
            for rotation in range(4):
                assert company.covers(x, y, rotation) == brute_cover(company, x, y, rotation)


def test_placements_are_in_rotation_then_reading_order() -> None:
    company = start("A2")
    company.place(BY_ID["S03"], 2, 1, 1)
    found = company.placements("C05")
    assert found == sorted(found, key=lambda p: (p[2], p[1], p[0]))
    assert len(set(found)) == len(found)


def test_a_copy_shares_the_layout_until_it_places_a_card() -> None:
    company = start("A3")
    copy = company.copy()
    assert copy.layout is company.layout
    before = (list(company.areas()), dict(company.layout.cover[0]), company.count("cup"))
    copy.place(BY_ID["P02"], 1, 0, 0)  # yyu/ddo over A3's right four squares
    assert copy.layout is not company.layout
    assert (list(company.areas()), dict(company.layout.cover[0]), company.count("cup")) == before
    assert copy.count("cup") == company.count("cup") + 1
    assert company.grid[(1, 0)].icon == "dry" and copy.grid[(1, 0)].icon == "bean"
    other = company.copy()
    other.grid[(0, 0)].cubes, other.grid[(0, 0)].cube_colour = 1, "green"  # a bean square
    assert company.grid[(0, 0)].cubes == 0  # action squares are copied, not shared


def test_companies_with_the_same_start_share_its_layout_but_not_their_squares() -> None:
    one, two = start("A4"), start("A4")
    assert one.layout is two.layout and one.grid[(0, 0)] is not two.grid[(0, 0)]
    one.place(BY_ID["P04"], 1, 0, 0)
    assert two.layout is Company(BY_ID["A4"]).layout
    assert [a.squares for a in two.areas() if a.kind == "bean"] == [((0, 0),)]


def test_a_grid_drawn_by_hand_gets_its_own_layout() -> None:
    company = drawn("rr.", "ddo")  # drawn() resets the old cache name, company._areas = None
    assert [(a.kind, a.squares) for a in company.areas()] == [
        ("bean", ((0, 0), (1, 0))),
        ("dry", ((0, 1), (1, 1))),
        ("roast", ((2, 1),)),
    ]
    assert company.count("blank") == 1 and company.area_at((2, 0)) is None
    same_layout(company.layout, Layout.of(company.grid))


def test_a_card_joining_two_areas_makes_one_and_covering_the_middle_splits_one() -> None:
    company = drawn("rrr")
    company.place(BY_ID["P01"], 0, 1, 0)  # rru/ddo below: red beans under red beans
    reds = [a.squares for a in company.areas() if a.colour == "red"]
    assert reds == [((0, 0), (1, 0), (2, 0), (0, 1), (1, 1))]
    company = drawn("rrrr")
    assert (1, -2, 1) in company.placements("P10")
    company.place(BY_ID["P10"], 1, -2, 1)  # kyu/o.o turned: its o and u on the middle beans
    reds = [a.squares for a in company.areas() if a.colour == "red"]
    assert reds == [((0, 0),), ((3, 0),)]
    roast = company.area_at((1, 0))  # o . o turned: a column, with a blank between
    assert roast is not None and roast.squares == ((1, 0),) and company.area_at((2, 0)) is None
    same_layout(company.layout, Layout.of(company.grid))


def test_orient_is_worked_out_once_per_card_and_rotation() -> None:
    card = BY_ID["C09"]
    assert orient(card, 1) is orient(card, 1)


def test_areas_and_counts_are_worked_out_when_asked_for_even_cards_later() -> None:
    rng = random.Random(8)
    for _ in range(20):
        company = start(rng.choice(["A1", "A2", "A3", "A4"]))
        trial = company.copy()
        card = rng.choice(PLANS)
        trial.place(card, *rng.choice(trial.placements(card.id)))
        assert trial.count("cup") >= 0
        assert trial.layout._areas is None and trial.layout._cover is None  # not needed yet
        for _ in range(5):  # more cards on top, nothing read in between
            card = rng.choice(PLANS)
            x, y, rotation = rng.choice(trial.placements(card.id))
            trial.place(card, x, y, rotation)
            assert trial.layout._areas is None  # placements read only the counts
        same_layout(trial.layout, Layout.of(trial.grid))
        assert trial.layout._base is None  # worked out: the layouts before it are let go
