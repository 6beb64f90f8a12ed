"""Every game refuses malformed actions with an IllegalAction and changes nothing.

The contract (``State.apply``) checks an action against the game's published
schema before the rules see it. Here every registered game is played at
random; at sampled states each legal action is spoilt in the ways a client
could spoil it (a float, a bool, a string or null where a whole number
belongs; a required field dropped; a field added; not an object; an unknown
type) and every spoilt action must be refused with a reason, leaving every
view and every seat's legal actions as they were.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coffeetable import games
from coffeetable.engine import Action, Game, IllegalAction, State

#: Option sets to sample each game under (Espresso's jokers and other seats' cards too).
OPTIONS: dict[str, list[dict[str, Any]]] = {"espresso": [{}, {"zero": True, "chaos": True}]}
#: Legal actions spoilt per action type and option set.
PER_TYPE = 6


def snapshot(state: State) -> str:
    """Everything a seat or a spectator can observe, and what each seat may do."""
    seats = range(state.players)
    return json.dumps(
        {
            "views": [state.view(seat) for seat in [None, *seats]],
            "legal": [state.legal_actions(seat) for seat in seats],
        },
        sort_keys=True,
    )


def required_fields(game: Game, kind: str) -> list[str]:
    """The fields the published schema says an action of type ``kind`` must have."""
    for option in game.action_schema["oneOf"]:
        if option["properties"]["type"]["const"] == kind:
            return [name for name in option["required"] if name != "type"]
    raise AssertionError(f"{game.name} publishes no {kind!r}")


def integer_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path (keys and indices) to every whole number inside ``value``."""
    if type(value) is int:
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from integer_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from integer_paths(item, (*path, index))


def object_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path to every object inside ``value`` (the action itself first)."""
    if isinstance(value, dict):
        yield path
        for key, item in value.items():
            yield from object_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from object_paths(item, (*path, index))


def replaced(action: Action, path: tuple[Any, ...], new: Any) -> Action:
    """A deep copy of ``action`` with the value at ``path`` set to ``new``."""
    copy: Action = json.loads(json.dumps(action))
    *parents, last = path
    target: Any = copy
    for step in parents:
        target = target[step]
    target[last] = new
    return copy


def spoilt(game: Game, action: Action) -> Iterator[tuple[str, Any]]:
    """(what was done, the spoilt action) for every way of spoiling ``action``."""
    for path in integer_paths(action):
        value: Any = action
        for step in path:
            value = value[step]
        for bad in (float(value), True, False, str(value), None):
            yield f"{list(path)} = {bad!r}", replaced(action, path, bad)
    for name in required_fields(game, action["type"]):
        yield f"without {name!r}", {k: v for k, v in action.items() if k != name}
    for path in object_paths(action):
        if path:
            yield f"{list(path)} with an extra field", replaced(action, (*path, "zzz"), 1)
        else:
            yield "an extra field", {**action, "zzz": 1}
    yield "as a list", list(action.items())
    yield "as a string", json.dumps(action)
    yield "as null", None
    yield "an unknown type", {**action, "type": "no such action"}
    yield "a type that is not a string", {**action, "type": 1}
    yield "no type", {k: v for k, v in action.items() if k != "type"}


def sampled_actions(game: Game, options: dict[str, Any]) -> Iterator[tuple[State, int, Action]]:
    """(state, seat, legal action) from random play, up to PER_TYPE of each action type.

    Actions of a type seen less often are preferred, so rare types (a joker,
    a deliver) are reached whenever random play offers them.
    """
    rng = random.Random(7)
    seen: dict[str, int] = {}
    for players in sorted({game.min_players, game.max_players}):
        for seed in range(3):
            state = game.new_state(players=players, seed=seed, **options)
            for _ in range(400):
                if state.is_over or not state.actors():
                    break
                seat = rng.choice(state.actors())
                legal = state.legal_actions(seat)
                if not legal:
                    break
                fresh = [a for a in legal if seen.get(a["type"], 0) < PER_TYPE]
                if fresh:
                    fewest = min(seen.get(a["type"], 0) for a in fresh)
                    action = rng.choice([a for a in fresh if seen.get(a["type"], 0) == fewest])
                    seen[action["type"]] = seen.get(action["type"], 0) + 1
                    yield state, seat, action
                state.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("name", games.names())
def test_every_spoilt_legal_action_is_refused_and_changes_nothing(name: str) -> None:
    game = games.get(name)
    kinds: set[str] = set()
    for options in OPTIONS.get(name, [{}]):
        for state, seat, action in sampled_actions(game, options):
            kinds.add(action["type"])
            before = snapshot(state)
            for what, bad in spoilt(game, action):
                try:
                    state.apply(seat, bad)
                except IllegalAction as error:
                    assert error.reason, f"{action} {what}: a refusal says why"
                else:
                    pytest.fail(f"{name}: {action} {what} was accepted: {bad!r}")
                assert snapshot(state) == before, f"{name}: {action} {what} changed the state"
    published = {option["properties"]["type"]["const"] for option in game.action_schema["oneOf"]}
    # Fika's "stop" (the lone player's) is the one type random play rarely offers.
    assert published - kinds <= {"stop"}, f"never sampled: {published - kinds}"


@pytest.mark.parametrize("name", games.names())
def test_a_bad_seat_is_refused_before_the_action_is_read(name: str) -> None:
    game = games.get(name)
    state = game.new_state(players=game.min_players, seed=1)
    seat = state.actors()[0]
    action = state.legal_actions(seat)[0]
    before = snapshot(state)
    for bad_seat in (state.players, -1, True, float(seat), str(seat)):
        with pytest.raises(IllegalAction, match="no seat"):
            state.apply(bad_seat, action)  # type: ignore[arg-type]
    assert snapshot(state) == before


@pytest.mark.parametrize("name", [n for n in games.names() if games.get(n).table_action_schema])
def test_the_table_acts_only_with_its_own_actions(name: str) -> None:
    game = games.get(name)
    state = game.new_state(players=game.min_players, seed=1)
    seat = state.actors()[0]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="unknown table action type"):
        state.apply(None, state.legal_actions(seat)[0])
    assert snapshot(state) == before


@pytest.mark.parametrize("name", [n for n in games.names() if not games.get(n).table_action_schema])
def test_a_game_without_table_actions_refuses_seat_none(name: str) -> None:
    game = games.get(name)
    state = game.new_state(players=game.min_players, seed=1)
    action = state.legal_actions(state.actors()[0])[0]
    with pytest.raises(IllegalAction, match="has no table actions"):
        state.apply(None, action)


# -- a property: whatever a client sends, a refusal or a legal move, never a crash ------------


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(-3, 60) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@cache
def positions(name: str) -> list[tuple[State, int, Action]]:
    """A few (state, seat, legal action) per action type, to spoil at random."""
    game = games.get(name)
    return [
        (state.clone(), seat, action)
        for options in OPTIONS.get(name, [{}])
        for state, seat, action in sampled_actions(game, options)
    ][::3]


@pytest.mark.parametrize("name", games.names())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_in_any_field_is_refused_or_played_never_a_crash(
    name: str, data: st.DataObject
) -> None:
    state, seat, action = data.draw(st.sampled_from(positions(name)))
    field = data.draw(st.sampled_from(sorted(action)))
    bad = {**action, field: data.draw(JSON)}
    trial = state.clone()
    before = snapshot(trial)
    try:
        trial.apply(seat, bad)
    except IllegalAction:
        assert snapshot(trial) == before
