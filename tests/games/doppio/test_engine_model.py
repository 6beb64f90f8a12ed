"""The fast data model keeps step with the plain one: bit masks, move tables, copies.

rules.py keeps, beside the path of spaces, one bit mask per piece and takes its
moves from a table per occupancy (moves.py); these tests hold that to the
plain definitions along random matches, and check that the shared tables and
the copies leak nothing between states.
"""

from __future__ import annotations

import copy
import random

from coffeetable.games.doppio import DoppioGame
from coffeetable.games.doppio.cards import BY_ID
from coffeetable.games.doppio.moves import (
    KIND_NAMES,
    move_actions,
    move_masks,
    occupancy,
    space_mask,
)
from coffeetable.games.doppio.patterns import count, piece_bits
from coffeetable.games.doppio.rules import DoppioState

GAME = DoppioGame()


def plain_moves(state: DoppioState) -> list[dict[str, object]]:
    """The moves and exchanges as the path itself gives them (``move_masks``)."""
    actions: list[dict[str, object]] = []
    for start, end, given, taken in move_masks(state.path):
        action: dict[str, object] = {"type": "exchange" if taken else "move"}
        action.update({"from": start, "to": end, "kinds": list(KIND_NAMES[given])})
        if taken:
            action["with"] = list(KIND_NAMES[taken])
        actions.append(action)
    return actions


def plain_scores(state: DoppioState, seat: int) -> list[dict[str, object]]:
    actions: list[dict[str, object]] = []
    for card_id in state.face_up[seat]:
        upright = count(BY_ID[card_id], state.path)
        turned = count(BY_ID[card_id], state.path, turned=True)
        if upright:
            actions.append({"type": "score", "card": card_id, "turned": False})
        if turned and turned != upright:
            actions.append({"type": "score", "card": card_id, "turned": True})
    return actions


def test_masks_moves_and_scores_follow_the_path_through_random_matches() -> None:
    checked = 0
    for seed, players, master in [(1, 2, False), (2, 2, True), (3, 1, False), (4, 1, True)]:
        state = GAME.new_state(players=players, seed=seed, master=master)
        rng = random.Random(seed)
        while not state.is_over and checked < 4000:
            seat = state.actors()[0]
            legal = state.legal_actions(seat)
            assert state._bits == piece_bits(state.path)
            if state.phase == "play":
                moves = [a for a in legal if a["type"] in ("move", "exchange")]
                scores = [a for a in legal if a["type"] == "score"]
                assert moves == (plain_moves(state) if state._may_move() else [])
                assert scores == (plain_scores(state, seat) if state._may_score() else [])
                checked += 1
            state.apply(seat, rng.choice(legal))
    assert checked > 1000


def test_occupancy_packs_and_unpacks() -> None:
    state = GAME.new_state(players=2, seed=5)
    while state.phase == "setup":
        seat = state.actors()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    occupied = [space_mask(space) for space in state.path]
    assert occupancy(occupied) == state._occupancy()
    assert len(move_actions(state._occupancy())) == len(plain_moves(state))


def test_each_call_gives_a_new_list_and_the_shared_actions_stay_as_they_were() -> None:
    state = GAME.new_state(players=2, seed=6)
    while state.phase == "setup":
        seat = state.actors()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.actors()[0]
    first = state.legal_actions(seat)
    first.clear()
    second = state.legal_actions(seat)
    assert second and second == plain_moves(state)
    kept = copy.deepcopy(second)
    state.apply(seat, second[0])  # applying an action leaves it as it was
    assert state.legal_actions(seat)[-1] == {"type": "undo"}
    state.apply(seat, {"type": "undo"})
    assert second == kept and state.legal_actions(seat) == kept


def test_a_clone_or_a_determinized_copy_plays_on_without_touching_the_original() -> None:
    state = GAME.new_state(players=2, seed=7)
    rng = random.Random(7)
    for _ in range(40):
        seat = state.actors()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    before = (state.view(None), state.legal_actions(state.actors()[0]), list(state._bits))
    undo = list(state.undo_stack)
    for other in (state.clone(), state.determinize(state.actors()[0], random.Random(1))):
        while not other.is_over:
            seat = other.actors()[0]
            other.apply(seat, rng.choice(other.legal_actions(seat)))
        assert (state.view(None), state.legal_actions(state.actors()[0]), state._bits) == before
        assert state.undo_stack == undo
