"""Café's card data: the loader, the set as cafe.md lists it, orientations."""

from __future__ import annotations

import pytest

from coffeetable.games.cafe.cards import (
    BY_ID,
    CAFE_NAMES,
    ICON_TEXTS,
    PLANS,
    STARTS,
    parse_card,
    solo_rank,
)
from coffeetable.games.cafe.grid import Company, orient, orientations


def test_the_set_has_4_start_and_48_plan_cards() -> None:
    assert [c.id for c in STARTS] == ["A1", "A2", "A3", "A4"]
    assert len(PLANS) == 48
    assert sum(c.id.startswith("C") for c in PLANS) == 16
    assert sum(c.id.startswith("S") for c in PLANS) == 12
    assert sum(c.id.startswith("P") for c in PLANS) == 20


def test_a_line_parses_to_rows_need_and_points() -> None:
    card = parse_card("C01 yyd/Cou 2y+1r=4")
    assert card.rows == ("yyd", "Cou")
    assert dict(card.need) == {"red": 1, "yellow": 2} and card.points == 4
    assert card.has_cup and card.has_cafe
    assert BY_ID["C16"].points == 8 and sum(dict(BY_ID["C16"].need).values()) == 4
    assert BY_ID["A4"].rows == ("kdo", "usC") and dict(BY_ID["A4"].need) == {"black": 1, "red": 1}
    assert not BY_ID["S01"].has_cafe and not BY_ID["S01"].has_cup


@pytest.mark.parametrize(
    "line",
    ["C99 yyd/Cou", "C99 yyd/Co 1y=1", "C99 yyx/Cou 1y=1", "S99 rsd/yyo 1r=2", "C99 CdC/rro 1r=2",
     "C99 yyd/Cou 1q=4", "C99 yyd/Cou 1y=x", "C99 CCC/rro 1r=2"],
)  # fmt: skip
def test_malformed_lines_are_refused(line: str) -> None:
    with pytest.raises(ValueError):
        parse_card(line)


def test_every_cafe_card_has_one_named_cafe_and_c11_c12_stand_in_a_column() -> None:
    for card in STARTS + PLANS:
        cells = [(c, r) for r in range(2) for c in range(3) if card.rows[r][c] == "C"]
        assert card.has_cafe == bool(cells)
        if cells:
            assert card.name == CAFE_NAMES[card.id]
    for card_id in ("C11", "C12"):
        company = Company(BY_ID["A1"])
        company.place(BY_ID[card_id], 0, -2, 0)
        cafe = company.cafes[card_id]
        assert len(cafe.cells) == 2 and cafe.cells[0][0] == cafe.cells[1][0]  # one column


def test_orientations_turn_a_card_clockwise() -> None:
    card = BY_ID["C01"]  # yyd / Cou
    assert orient(card, 0)[:3] == ((0, 0, "y"), (1, 0, "y"), (2, 0, "d"))
    # a quarter turn: 2 wide, 3 tall; the printed left column becomes the top row, reversed
    assert {(dx, dy) for dx, dy, _ in orient(card, 1)} == {
        (x, y) for x in (0, 1) for y in (0, 1, 2)
    }
    assert [s for _, _, s in orient(card, 1)[:2]] == ["C", "y"]
    assert [s for _, _, s in orient(card, 2)] == list("uoCdyy")
    assert [s for _, _, s in orient(card, 3)[:2]] == ["d", "u"]
    assert all(len(orientations(c.id)) == 4 for c in PLANS)  # no card is symmetric


def test_texts_in_four_languages_and_solo_ranks() -> None:
    assert all(set(texts) == {"en", "fr", "de", "es"} for texts in ICON_TEXTS.values())
    assert [solo_rank(p) for p in (0, 11, 12, 15, 16, 19, 20, 23, 24, 90)] == [
        "apprentice", "apprentice", "roaster", "roaster", "merchant", "merchant",
        "baron", "baron", "legend", "legend",
    ]  # fmt: skip
