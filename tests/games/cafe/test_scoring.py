"""Final scoring: complete cafés, the warehouse's 2a + b, tie-breaks, solo ranks."""

from __future__ import annotations

from typing import Any

import pytest

from coffeetable.games.cafe.cards import COLOURS
from coffeetable.games.cafe.rules import CafeState
from coffeetable.games.cafe.scoring import points, ranking_winners, tie_key, warehouse_points
from tests.games.cafe.helpers import cafe, drawn, new, put


@pytest.mark.parametrize(
    ("counts", "expected"),
    [((0, 0, 0, 0), 0), ((1, 1, 1, 1), 3), ((3, 1, 2, 5), 4), ((0, 5, 5, 5), 5),
     ((4, 4, 4, 4), 12), ((7, 0, 0, 9), 0), ((2, 9, 3, 9), 7)],
)  # fmt: skip
def test_warehouse_scores_twice_the_scarcest_plus_the_next(
    counts: tuple[int, ...], expected: int
) -> None:
    assert warehouse_points(dict(zip(COLOURS, counts, strict=True))) == expected


def test_only_complete_cafes_that_are_in_view_score() -> None:
    company = drawn("CC.", "C.C")
    done = cafe(company, "C09", [(0, 0), (1, 0)], {"red": 2, "yellow": 2}, 6)
    half = cafe(company, "C02", [(0, 1)], {"red": 1, "green": 1}, 3)
    gone = cafe(company, "C05", [(2, 1)], {"yellow": 1, "black": 1}, 3)
    done.have, half.have, gone.have = {"red": 2, "yellow": 2}, {"red": 1}, {}
    gone.lost = True
    company.warehouse = {"red": 2, "yellow": 1, "green": 3, "black": 1}
    assert points(company) == 6 + (2 * 1 + 1)


def test_ties_go_to_roasting_then_drying_cubes_then_are_shared() -> None:
    a, b = drawn("oodd"), drawn("oodd")
    put(a, (0, 0), "red", 2)
    put(b, (0, 0), "red", 1)
    put(b, (2, 0), "red", 5)
    assert tie_key(a) == (2, 0) and tie_key(b) == (1, 5)
    assert ranking_winners([a, b]) == [0]
    put(b, (1, 0), "green", 1)  # roasting level: 2 each; drying decides
    assert ranking_winners([a, b]) == [1]
    put(a, (2, 0), "yellow", 5)
    assert ranking_winners([a, b]) == [0, 1]
    a.warehouse["red"] = 1  # still 2 x 0 + 0 points: still shared
    assert ranking_winners([a, b]) == [0, 1]
    b.warehouse = dict.fromkeys(COLOURS, 1)  # points come before any tie-break
    assert ranking_winners([a, b]) == [1]


def finish_last_round(state: CafeState) -> None:
    while not (state.round == 8 and state.phase == "actions"):
        seat = state.actors()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def pass_all(state: CafeState) -> list[dict[str, Any]]:
    events = []
    for seat in list(state.actors()):
        events += state.apply(seat, {"type": "pass"})
    return events


def test_the_game_ends_after_round_eight_with_the_tie_break_deciding() -> None:
    state = new(2, seed=4)
    finish_last_round(state)
    assert not state.is_over and state.winners == []
    for company in state.companies:
        company.warehouse = {"red": 2, "yellow": 2, "green": 5, "black": 3}
        for square in company.grid.values():
            square.cubes, square.cube_colour = 0, None
    roast = next(p for p, s in state.companies[1].grid.items() if s.icon == "roast")
    put(state.companies[1], roast, "red", 1)
    events = pass_all(state)
    assert [e["type"] for e in events][-2:] == ["round_over", "game_over"]
    assert state.is_over and state.actors() == [] and state.scores == [6, 6]
    assert state.winners == [1] and events[-1]["winners"] == [1]
    assert state.view(None)["rank"] is None
    assert state.legal_actions(0) == [] and state.returns() == [-1.0, 1.0]


def test_solo_ends_with_a_rank_in_the_view() -> None:
    state = new(1, seed=9)
    finish_last_round(state)
    state.companies[0].warehouse = {"red": 8, "yellow": 9, "green": 10, "black": 11}
    events = pass_all(state)
    assert state.scores == [25] and state.winners == [0]
    assert events[-1]["rank"] == state.view(0)["rank"] == "legend"


def test_scores_during_play_are_what_the_companies_would_score_now() -> None:
    state = new(3, seed=1)
    assert state.scores == [3, 3, 3]  # one cube of each colour: 2 x 1 + 1
    state.companies[2].warehouse["red"] += 4
    assert state.scores == [3, 3, 3]
    for colour in ("yellow", "green", "black"):
        state.companies[2].warehouse[colour] += 1
    assert state.scores == [3, 3, 2 * 2 + 2] and state.view(None)["players"][2]["score"] == 6
