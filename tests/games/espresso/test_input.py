"""Espresso's bad input: malformed actions, wrong seats, the table's own action.

Every refusal is an IllegalAction with a reason a person can read, and the
state is unchanged. The shape of an action is the contract's to check (against
the game's schema); what depends on the table is the rules'.
"""

from __future__ import annotations

from typing import Any

import pytest

from coffeetable.engine import IllegalAction
from tests.games.espresso.helpers import fingerprint, started


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (0, "flip", "JSON object"),
        (0, None, "JSON object"),
        (0, {}, "needs a 'type'"),
        (0, {"type": "dance"}, "unknown action type"),
        (0, {"type": ["play"]}, "unknown action type"),
        (5, {"type": "flip", "count": 3}, "no seat 5"),
        (True, {"type": "flip", "count": 3}, "no seat"),
        ("0", {"type": "flip", "count": 3}, "no seat"),
        (0, {"type": "flip", "count": 7}, "'count' must be 2 or 3, not 7"),
        (0, {"type": "flip", "count": 2}, "flip 3"),  # only when stuck
        (0, {"type": "flip", "count": 3, "extra": 1}, "unexpected field"),
        (0, {"type": "play", "source": "hand", "target": "new"}, "source"),
        (0, {"type": "play", "source": "help", "target": "new"}, "slot"),
        (0, {"type": "play", "source": "help", "slot": "0", "target": "new"}, "slot"),
        (0, {"type": "play", "source": "help", "slot": True, "target": "new"}, "slot"),
        (0, {"type": "play", "source": "pile", "slot": 1, "target": "new"}, "only a help card"),
        (0, {"type": "play", "source": "espresso", "target": 30}, "no stack 30"),
        (0, {"type": "play", "source": "espresso", "target": 99}, "'target' must be 0 to 47"),
        (0, {"type": "play", "source": "espresso", "target": "old"}, "target"),
        (0, {"type": "play", "source": "espresso"}, "target"),
        (0, {"type": "recycle"}, "recycle only"),
        (0, {"type": "ready"}, "under way"),
        (0, {"type": "joker", "source": "espresso", "target": "new", "follow": 3}, "'follow'"),
        (
            0,
            {"type": "joker", "source": "espresso", "target": "new", "follow": {"source": "pile"}},
            "Zero",
        ),
        (0, {"type": "flip", "owner": 1}, "unexpected field 'owner' in a flip"),
        (0, {"type": "play", "source": "help", "slot": 1, "owner": 1.0, "target": "new"}, "owner"),
        (0, {"type": "play", "source": "espresso", "target": 0.0}, "'target'"),
        (0, {"type": "play", "source": "espresso", "target": None}, "'target'"),
    ],
)
def test_bad_input_raises_a_readable_reason_and_changes_nothing(
    seat: object, action: object, reason: str
) -> None:
    state = started(players=2, seed=3)
    before = fingerprint(state)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(seat, action)  # type: ignore[arg-type]
    assert fingerprint(state) == before


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        # Whole-number floats once slipped through: 1.0 in range(3) is true.
        (
            {"type": "play", "source": "help", "slot": 1.0, "target": "new"},
            "'slot' must be a whole number, not 1.0",
        ),
        ({"type": "flip", "count": 3.0}, "'count' must be a whole number, not 3.0"),
    ],
)
def test_whole_number_floats_are_refused_with_a_reason(action: Any, reason: str) -> None:
    state = started(players=2, seed=3)
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(0, action)
    assert error.value.reason == reason
    assert fingerprint(state) == before


def test_a_joker_follower_is_checked_like_an_action() -> None:
    state = started(players=2, zero=True)
    before = fingerprint(state)
    joker = {"type": "joker", "source": "espresso", "target": "new"}
    for follow, reason in (
        ({"source": "help", "slot": 1.0}, "'follow.slot' must be a whole number, not 1.0"),
        ({"source": "pile", "colour": "red"}, "unexpected field 'colour' in 'follow'"),
        ({"slot": 0}, "'follow' needs 'source'"),
    ):
        with pytest.raises(IllegalAction) as error:
            state.apply(0, {**joker, "follow": follow})
        assert error.value.reason == reason
    assert fingerprint(state) == before


def test_the_table_has_only_its_idle_action() -> None:
    state = started(players=2)
    before = fingerprint(state)
    for action, reason in (
        ({"type": "ready"}, "unknown table action type 'ready'"),
        ({"type": "idle", "seat": 0}, "unexpected field 'seat' in an idle"),
        ("idle", "a table action is a JSON object"),
    ):
        with pytest.raises(IllegalAction) as error:
            state.apply(None, action)
        assert reason in error.value.reason
    assert fingerprint(state) == before
