"""What the view adds for the board in the browser: the card in hand turned four ways,
the actions a round and the parts of each score."""

from __future__ import annotations

import random

from coffeetable.games.cafe.cards import BY_ID, MAX_ACTIONS, MIN_ACTIONS, PLANS
from coffeetable.games.cafe.grid import orient
from coffeetable.games.cafe.rules import _holding_json
from coffeetable.games.cafe.scoring import cafe_points, tie_key, warehouse_points
from tests.games.cafe.helpers import new


def test_each_turn_of_the_card_in_hand_names_a_rotation_legal_actions_use() -> None:
    for card in PLANS:
        turns = _holding_json(card.id)["turns"]
        assert len(turns) == 4
        for rotation, turn in enumerate(turns):
            cells = [tuple(c) for c in turn["cells"]]
            assert cells == list(orient(BY_ID[card.id], rotation))
            # the rotation named is the first one with the very same squares
            assert list(orient(BY_ID[card.id], turn["rotation"])) == cells
            assert turn["rotation"] <= rotation


def test_the_places_offered_use_the_rotations_the_view_names() -> None:
    state = new(players=2, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        if state.phase == "place":
            named = {turn["rotation"] for turn in state.view(seat)["holding"]["turns"]}
            assert {a["rotation"] for a in legal} <= named
        state.apply(seat, rng.choice(legal))


def test_each_company_shows_its_actions_a_round_and_its_score_in_parts() -> None:
    state = new(players=3, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        seat = rng.choice(state.actors())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(None)
        for company, shown in zip(state.companies, view["players"], strict=True):
            assert MIN_ACTIONS <= shown["actions"] <= MAX_ACTIONS
            assert shown["actions_left"] <= shown["actions"]
            assert shown["cafe_points"] == cafe_points(company)
            assert shown["warehouse_points"] == warehouse_points(company.warehouse)
            assert shown["score"] == shown["cafe_points"] + shown["warehouse_points"]
            assert (shown["tie_break"]["roast"], shown["tie_break"]["dry"]) == tie_key(company)
