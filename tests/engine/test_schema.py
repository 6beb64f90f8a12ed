"""The compiled action schema: what it accepts, what it refuses, and why."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coffeetable import games
from coffeetable.engine import ActionChecker, SchemaError, action_schema
from coffeetable.engine.schema import compile_schema

_SLOT = {"type": "integer", "minimum": 0, "maximum": 2}
SCHEMA = {
    "oneOf": [
        action_schema(
            "play",
            ("source", "target"),
            source={"enum": ["espresso", "help", "pile"]},
            slot=_SLOT,
            target={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 47}, {"const": "new"}]},
            follow={
                "type": "object",
                "properties": {"source": {"type": "string"}, "slot": _SLOT},
                "required": ["source"],
                "additionalProperties": False,
            },
        ),
        action_schema("flip", (), count={"type": "integer", "enum": [2, 3]}),
        action_schema("score", ("card",), card={"type": "integer"}, turned={"type": "boolean"}),
        action_schema(
            "move",
            kinds={
                "type": "array",
                "items": {"enum": ["cup", "saucer", "spoon"]},
                "minItems": 1,
                "maxItems": 3,
                "uniqueItems": True,
            },
            area={"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        ),  # fmt: skip
        action_schema(
            "deliver",
            (),
            to={
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "propertyNames": {"enum": ["red", "green"]},
                    "additionalProperties": {"type": "integer", "minimum": 0},
                },
            },
        ),
        action_schema(
            "swap",
            swaps={
                "type": "array",
                "items": {
                    "type": "array",
                    "minItems": 2,
                    "items": False,
                    "prefixItems": [_SLOT, {"type": "boolean"}],
                },
            },
        ),  # fmt: skip
    ]
}
CHECKER = ActionChecker(SCHEMA)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "source": "help", "slot": 1, "target": "new"},
        {"type": "play", "source": "pile", "target": 47},
        {"type": "play", "source": "pile", "target": 0, "follow": {"source": "x", "slot": 2}},
        {"type": "flip"},
        {"type": "flip", "count": 2},
        {"type": "score", "card": -5},
        {"type": "score", "card": 3, "turned": True},
        {"type": "move", "kinds": ["spoon", "cup"], "area": [-1, 4]},
        {"type": "deliver"},
        {"type": "deliver", "to": {}},
        {"type": "deliver", "to": {"C01": {"red": 2, "green": 0}, "C02": {}}},
        {"type": "swap", "swaps": [[0, True], [2, False]]},
    ],
)
def test_actions_that_fit_are_accepted(action: dict[str, Any]) -> None:
    assert CHECKER.refusal(action) is None
    assert CHECKER.tests[action["type"]](action)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"type": "play", "source": "help", "slot": 1.0, "target": "new"},
         "'slot' must be a whole number, not 1.0"),
        ({"type": "play", "source": "help", "slot": True, "target": "new"},
         "'slot' must be a whole number, not True"),
        ({"type": "play", "source": "help", "slot": "1", "target": "new"},
         "'slot' must be a whole number, not '1'"),
        ({"type": "play", "source": "help", "slot": 3, "target": "new"},
         "'slot' must be 0 to 2, not 3"),
        ({"type": "play", "source": "help", "slot": 1}, "a play needs 'target'"),
        ({"type": "play", "source": "hand", "target": "new"},
         "'source' must be one of espresso, help or pile, not 'hand'"),
        ({"type": "play", "source": "pile", "target": 48}, "'target' must be 0 to 47, not 48"),
        ({"type": "play", "source": "pile", "target": "old"},
         "'target' must be a whole number 0 to 47 or 'new', not 'old'"),
        ({"type": "play", "source": "pile", "target": 1, "follow": {"slot": 0}},
         "'follow' needs 'source'"),
        ({"type": "play", "source": "pile", "target": 1, "follow": {"source": "a", "slot": 0.0}},
         "'follow.slot' must be a whole number, not 0.0"),
        ({"type": "play", "source": "pile", "target": 1, "follow": {"source": "a", "owner": 1}},
         "unexpected field 'owner' in 'follow'"),
        ({"type": "play", "source": "pile", "target": 1, "follow": ["pile"]},
         "'follow' must be an object, not ['pile']"),
        ({"type": "flip", "owner": 1}, "unexpected field 'owner' in a flip"),
        ({"type": "flip", "count": 3.0}, "'count' must be a whole number, not 3.0"),
        ({"type": "flip", "count": 4}, "'count' must be 2 or 3, not 4"),
        ({"type": "score", "card": 3, "turned": 0}, "'turned' must be true or false, not 0"),
        ({"type": "score", "card": None}, "'card' must be a whole number, not None"),
        ({"type": "move", "kinds": "cup", "area": [0, 0]}, "'kinds' must be a list, not 'cup'"),
        ({"type": "move", "kinds": [], "area": [0, 0]},
         "'kinds' must hold 1 to 3 items, not 0"),
        ({"type": "move", "kinds": ["cup", "cup"], "area": [0, 0]},
         "'kinds' must not repeat an item"),
        ({"type": "move", "kinds": ["cup", "mug"], "area": [0, 0]},
         "'kinds[1]' must be one of cup, saucer or spoon, not 'mug'"),
        ({"type": "move", "kinds": ["cup"], "area": [0]}, "'area' must hold 2 items, not 1"),
        ({"type": "move", "kinds": ["cup"], "area": [0, 1.5]},
         "'area[1]' must be a whole number, not 1.5"),
        ({"type": "deliver", "to": {"C01": {"blue": 1}}},
         "'to.C01' cannot have the key 'blue': its keys are red or green"),
        ({"type": "deliver", "to": {"C01": {"red": -1}}},
         "'to.C01.red' must be at least 0, not -1"),
        ({"type": "deliver", "to": {"C01": 3}}, "'to.C01' must be an object, not 3"),
        ({"type": "swap", "swaps": [[0, True, 1]]}, "'swaps[0]' must hold 2 items, not 3"),
        ({"type": "swap", "swaps": [[0, 1]]}, "'swaps[0][1]' must be true or false, not 1"),
        ("flip", "an action is a JSON object with a 'type', not 'flip'"),
        (None, "an action is a JSON object with a 'type', not None"),
        ([["type", "flip"]], "an action is a JSON object with a 'type', not [['type', 'flip']]"),
        ({}, "an action needs a 'type': play, flip, score, move, deliver or swap"),
        ({"type": "dance"}, "unknown action type 'dance': the actions are play, flip, score, "
                            "move, deliver or swap"),
        ({"type": ["flip"]}, "unknown action type ['flip']: the actions are play, flip, score, "
                             "move, deliver or swap"),
    ],
)  # fmt: skip
def test_actions_that_do_not_fit_are_refused_with_a_reason(action: Any, reason: str) -> None:
    assert CHECKER.refusal(action) == reason


def test_a_long_value_is_cut_short_in_a_reason() -> None:
    reason = CHECKER.refusal({"type": "score", "card": "x" * 1000})
    assert reason is not None and len(reason) < 100 and reason.endswith("...")


def test_a_long_enum_is_not_spelt_out() -> None:
    check = compile_schema({"enum": [f"C{n:02}" for n in range(1, 49)]})
    assert (
        check.explain("X", "card")
        == "'card' must be one of C01, C02, C03, ... (48 in all), not 'X'"
    )


def test_enums_and_consts_compare_types_as_json_does() -> None:
    assert not compile_schema({"enum": [2, 3]}).test(2.0)
    assert not compile_schema({"enum": [1]}).test(True)
    assert not compile_schema({"const": True}).test(1)
    assert compile_schema({"enum": [1, "a", None]}).test(None)
    assert not compile_schema({"enum": [1, "a", None]}).test(1.0)
    assert not compile_schema({"enum": ["a"]}).test(["a"])  # unhashable: a no, not a crash


def test_an_empty_schema_admits_any_object_with_a_string_type() -> None:
    anything = ActionChecker({})
    assert anything.refusal({"type": "whatever", "x": [1.5]}) is None
    assert anything.refusal({"type": 1}) is not None
    assert anything.refusal([]) is not None


@pytest.mark.parametrize(
    "schema",
    [
        {"oneOf": [action_schema("a", name={"type": "string", "pattern": "^x"})]},
        {"oneOf": [action_schema("a", n={"type": "number"})]},
        {"oneOf": [action_schema("a", n={"minimum": 0})]},
        {"oneOf": [action_schema("a", n={"type": "integer", "minimum": 0.5})]},
        {"oneOf": [action_schema("a"), action_schema("a")]},
        {"oneOf": [{"type": "object", "properties": {"type": {"enum": ["a"]}}}]},
        {"oneOf": [action_schema("a")], "required": ["type"]},
        {"oneOf": [action_schema("a", n={"enum": []})]},
    ],
)
def test_a_schema_outside_the_subset_is_refused_when_compiled(schema: dict[str, Any]) -> None:
    with pytest.raises(SchemaError):
        ActionChecker(schema)


def test_every_game_schema_compiles() -> None:
    for name in games.names():
        game = games.get(name)
        published = [
            option["properties"]["type"]["const"] for option in game.action_schema["oneOf"]
        ]
        assert list(game.action_checker.tests) == published


# -- the same verdicts as the jsonschema library ------------------------------------------


def _values(schema: Any) -> Iterator[Any]:
    """Every enum and const value, property name and bound in ``schema``."""
    if isinstance(schema, dict):
        yield from schema.get("enum", ())
        if "const" in schema:
            yield schema["const"]
        for bound in ("minimum", "maximum"):
            if bound in schema:
                yield from (schema[bound] - 1, schema[bound], schema[bound] + 1)
        yield from schema.get("properties", {})
        for value in schema.values():
            yield from _values(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _values(value)


def _json(name: str) -> st.SearchStrategy[Any]:
    """JSON values near the game's schema, with no whole-number floats (see schema.py)."""
    schema = games.get(name).action_schema
    near = sorted({json_repr for json_repr in _values(schema) if isinstance(json_repr, (str, int))},
                  key=repr)  # fmt: skip
    floats = st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer())
    leaf = st.sampled_from(near) | st.none() | st.booleans() | st.integers(-2, 20) | floats
    keys = st.sampled_from([k for k in near if isinstance(k, str)]) | st.text(max_size=3)
    return st.recursive(
        leaf,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=10,
    )


@cache
def _legal(name: str) -> list[dict[str, Any]]:
    """Distinct legal actions met in random play: values that fit, to start from."""
    game, rng, seen = games.get(name), random.Random(3), {}
    options = {"zero": True, "chaos": True} if name == "espresso" else {}
    for seed in range(2):
        state = game.new_state(players=game.max_players, seed=seed, **options)
        for _ in range(300):
            if state.is_over or not state.actors():
                break
            seat = rng.choice(state.actors())
            legal = state.legal_actions(seat)
            for action in rng.sample(legal, min(3, len(legal))):
                seen.setdefault(repr(action), action)
            state.apply(seat, rng.choice(legal))
    return list(seen.values())


def _action(name: str) -> st.SearchStrategy[Any]:
    """A legal action, as is or with one field changed, dropped or added."""

    def spoil(action: dict[str, Any], how: int, field: str, value: Any) -> dict[str, Any]:
        if how == 0:
            return action
        if how == 1:
            return {**action, field if field in action else "type": value}
        if how == 2:
            return {k: v for k, v in action.items() if k != field}
        return {**action, field: value}

    fields = sorted({k for action in _legal(name) for k in action})
    return st.builds(
        spoil,
        st.sampled_from(_legal(name)),
        st.integers(0, 3),
        st.sampled_from(fields) | st.text(max_size=3),
        _json(name),
    )


@pytest.mark.parametrize("name", games.names())
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_checker_agrees_with_jsonschema_on_json_values(name: str, data: st.DataObject) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    game = games.get(name)
    validator = jsonschema.Draft202012Validator(dict(game.action_schema))
    value = data.draw(_action(name) | _json(name))
    assert (game.action_checker.refusal(value) is None) == validator.is_valid(value)
    assert not any(isinstance(f, float) and math.isfinite(f) and f.is_integer() for f in [value])
