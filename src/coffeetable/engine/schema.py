"""Checking actions against a game's published action schema, fast.

Every game publishes the JSON Schema of its actions (``Game.action_schema``,
built with ``action_schema``). ``ActionChecker`` compiles it once into a dict
from action type to a check, so ``State.apply`` can refuse a malformed action
with a readable reason before the game's rules see it. The schema is also what
clients and the OpenAPI page read: what is published is what is enforced.

Only the subset of JSON Schema our games use is understood. Compiling a schema
with any other keyword raises ``SchemaError``, so a schema never says more
than is checked.

Two deliberate departures from JSON Schema, both about Python's numbers:

* ``"integer"`` is ``type(v) is int``. JSON Schema calls ``1.0`` an integer
  and Python calls ``True`` one, but the rules index lists and ranges with
  these values (``1.0 in range(3)`` is true, ``[...][1.0]`` raises), so
  neither passes.
* ``enum`` and ``const`` compare types too: ``2.0`` is not one of ``[2, 3]``
  and ``True`` is not ``1``.

``oneOf`` is checked as ``anyOf`` (the first alternative that fits wins); the
alternatives in our schemas are disjoint, so the two agree.

Each compiled schema is a ``Check``. Its ``test`` only says yes or no, and is
all that runs for an action that fits: it is generated Python (``expr``, one
expression of the value, and one function per object), so checking a whole
action is one call with the field checks inlined, about as fast as the
hand-written checks it replaces. Its ``explain`` is ordinary code, only called
on a value ``test`` refused, and walks it again to say what is wrong, e.g.
"'slot' must be a whole number, not 1.0".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ActionChecker", "Check", "SchemaError", "compile_schema"]

_ANNOTATIONS = frozenset({"title", "description", "$schema", "$comment"})
#: The keywords that only make sense beside a "type".
_TYPED = {
    "integer": {"minimum", "maximum"},
    "array": {"items", "prefixItems", "minItems", "maxItems", "uniqueItems"},
    "object": {"properties", "required", "additionalProperties", "propertyNames"},
}
#: The keywords understood; annotations are accepted and ignored.
KEYWORDS = frozenset({"type", "enum", "const", "oneOf", "anyOf"}).union(
    *_TYPED.values(), _ANNOTATIONS
)
#: Enumerations longer than this are not spelt out in a reason.
_SPELT_OUT = 8
#: Arrays of a fixed length up to this have their items' checks unrolled.
_UNROLLED = 4
#: Objects with up to this many optional fields look each one up.
_LOOKED_UP = 4


class SchemaError(ValueError):
    """A schema outside the subset ``compile_schema`` understands."""


@dataclass(frozen=True, slots=True)
class Check:
    """One compiled schema: a fast yes/no test and, for a refusal, its reason."""

    #: True if the value fits. No exceptions, no messages: the hot path.
    test: Callable[[Any], bool]
    #: ``explain(value, path)``: why a value ``test`` refused does not fit.
    explain: Callable[[Any, str], str]
    #: What fits, as a noun phrase: "a whole number 0 to 2", "true or false".
    describe: str
    #: The one Python type of every value that fits, if there is one.
    kind: type | None
    #: ``test`` as a Python expression of ``{0}``, for the code of enclosing checks.
    #: It may raise TypeError (``[] in {"a"}``): the functions it ends up in say no.
    expr: str
    #: For an enum of strings, its values (a list of them is checked as a set).
    members: frozenset[str] | None = None
    #: True for an enum or a const: it explains itself by listing its values.
    listed: bool = False


def compile_schema(schema: Mapping[str, Any] | bool) -> Check:
    """Compile one JSON Schema (of the subset described above) into a ``Check``."""
    return _Compiler().compile(schema)


# -- reasons ---------------------------------------------------------------------------


def _show(value: Any) -> str:
    """A value for a reason: its repr, cut short (an action may be arbitrarily large)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _name(path: str) -> str:
    """A field for a reason: 'slot', 'follow.slot', 'area[0]'."""
    return repr(path) if path else "the value"


def _article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _word(value: Any) -> str:
    """A schema's value in a list of choices: a string bare, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def _words(values: Sequence[Any], last: str = "or") -> str:
    """``[a, b, c]`` as "a, b or c"."""
    shown = [_word(v) for v in values]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} {last} {shown[-1]}"


def _wrong(describe: str) -> Callable[[Any, str], str]:
    return lambda value, path: f"{_name(path)} must be {describe}, not {_show(value)}"


def _count(low: int, high: int | None) -> str:
    noun = "item" if high == 1 or (high is None and low == 1) else "items"
    if high is None:
        return f"at least {low} {noun}"
    return f"{high} {noun}" if low == high else f"{low} to {high} {noun}"


def _key(value: Any) -> str:
    """A key that tells apart what JSON tells apart (1, 1.0 and true are three values)."""
    try:
        return f"{type(value).__name__}:{json.dumps(value, sort_keys=True)}"
    except (TypeError, ValueError):
        return f"?{id(value)}"  # not JSON: equal to nothing in a schema


def _distinct(items: list[Any]) -> bool:
    return len({_key(item) for item in items}) == len(items)


# -- compiling -------------------------------------------------------------------------


class _Compiler:
    """Compiles schemas into ``Check``s, writing the Python source of their tests.

    A test's expression refers to constants (the set of an enum, the function
    of a nested object) by name; ``names`` holds them, and is the globals of
    every function generated for one schema.
    """

    def __init__(self) -> None:
        # MISSING: an absent field's value, in generated code.
        self.names: dict[str, Any] = {"MISSING": object(), "_key": _key, "_distinct": _distinct}

    def constant(self, value: Any) -> str:
        name = f"c{len(self.names)}"
        self.names[name] = value
        return name

    def function(self, code: list[str]) -> Callable[[Any], bool]:
        """The function ``test(x)`` whose body is ``code``; a KeyError or TypeError is a no."""
        lines = ["def test(x):", "    try:", *(f"        {line}" for line in code)]
        lines += ["    except (KeyError, TypeError):", "        return False"]
        scope: dict[str, Any] = {}
        exec("\n".join(lines), self.names, scope)
        test: Callable[[Any], bool] = scope["test"]
        return test

    def check(
        self,
        expr: str,
        explain: Callable[[Any, str], str],
        describe: str,
        kind: type | None,
        members: frozenset[str] | None = None,
        listed: bool = False,
    ) -> Check:
        test = self.function([f"return {expr.format('x')}"])
        return Check(test, explain, describe, kind, expr, members, listed)

    def compile(self, schema: Mapping[str, Any] | bool, *, action: bool = False) -> Check:
        if schema is True:
            return self.check("True", lambda value, path: "", "anything", None)
        if schema is False:
            return self.check(
                "False", lambda value, path: f"{_name(path)} is not allowed", "nothing", None
            )
        if not isinstance(schema, Mapping):
            raise SchemaError(f"a schema is a JSON object, not {schema!r}")
        unknown = sorted(schema.keys() - KEYWORDS)
        if unknown:
            raise SchemaError(f"schema keyword {unknown[0]!r} is not supported")
        kind = schema.get("type")
        for name, keywords in _TYPED.items():
            stray = sorted(keywords & schema.keys())
            if stray and kind != name:
                raise SchemaError(f'{stray[0]!r} needs "type": {name!r}')
        parts: list[Check] = []
        if kind is not None:
            parts.append(self._type(kind, schema, action))
        if "enum" in schema:
            parts.append(self._enum(list(schema["enum"])))
        if "const" in schema:
            parts.append(self._enum([schema["const"]]))
        for word in ("oneOf", "anyOf"):
            if word in schema:
                parts.append(self._union([self.compile(option) for option in schema[word]]))
        return self._all(parts) if parts else self.compile(True)

    def _type(self, kind: Any, schema: Mapping[str, Any], action: bool) -> Check:
        if kind == "integer":
            return self._integer(schema.get("minimum"), schema.get("maximum"))
        if kind == "boolean":
            return self.check("(type({0}) is bool)", _wrong("true or false"), "true or false", bool)
        if kind == "string":
            return self.check("(type({0}) is str)", _wrong("a string"), "a string", str)
        if kind == "array":
            return self._array(schema)
        if kind == "object":
            return self._object(schema, action)
        raise SchemaError(f'"type": {kind!r} is not supported')

    def _all(self, parts: list[Check]) -> Check:
        """Every part must fit; a reason is the first part's that does not."""
        if len(parts) == 1:
            return parts[0]

        def explain(value: Any, path: str) -> str:
            failing = next((part for part in parts if not part.test(value)), None)
            return failing.explain(value, path) if failing is not None else ""

        kinds = {part.kind for part in parts} - {None}
        expr = "(" + " and ".join(part.expr for part in parts) + ")"
        # The last part is the narrowest: "integer" then its enum.
        last = parts[-1]
        kind = kinds.pop() if len(kinds) == 1 else None
        return self.check(expr, explain, last.describe, kind, last.members, last.listed)

    def _integer(self, low: Any, high: Any) -> Check:
        for bound in (low, high):
            if bound is not None and type(bound) is not int:
                raise SchemaError(f"an integer bound is a whole number, not {bound!r}")
        expr = "type({0}) is int"
        if low is not None and high is not None:
            expr, span = f"{expr} and {low} <= {{0}} <= {high}", f"{low} to {high}"
        elif low is not None:
            expr, span = f"{expr} and {{0}} >= {low}", f"at least {low}"
        elif high is not None:
            expr, span = f"{expr} and {{0}} <= {high}", f"at most {high}"
        else:
            span = ""

        def explain(value: Any, path: str) -> str:
            if type(value) is not int:
                return f"{_name(path)} must be a whole number, not {_show(value)}"
            return f"{_name(path)} must be {span}, not {value}"

        return self.check(f"({expr})", explain, f"a whole number {span}".rstrip(), int)

    def _enum(self, values: list[Any]) -> Check:
        if not values:
            raise SchemaError("an enum lists at least one value")
        kinds = {type(v) for v in values}
        kind = next(iter(kinds)) if len(kinds) == 1 and kinds <= {str, int, bool} else None
        members = frozenset(values) if kind is str else None
        if members is not None:
            # Only a string equals a string: the set look-up alone is exact.
            expr = f"({{0}} in {self.constant(members)})"
        elif kind is not None:
            # Ints and bools: 1 == True == 1.0, so the type is checked too.
            allowed = self.constant(frozenset(values))
            expr = f"(type({{0}}) is {kind.__name__} and {{0}} in {allowed})"
        else:
            expr = f"(_key({{0}}) in {self.constant(frozenset(map(_key, values)))})"
        if len(values) == 1:
            describe = repr(values[0]) if isinstance(values[0], str) else json.dumps(values[0])
        elif len(values) == 2:
            describe = _words(values)  # "2 or 3"
        elif len(values) <= _SPELT_OUT:
            describe = f"one of {_words(values)}"
        else:
            describe = f"one of {', '.join(map(_word, values[:3]))}, ... ({len(values)} in all)"
        return self.check(expr, _wrong(describe), describe, kind, members, listed=True)

    def _union(self, options: list[Check]) -> Check:
        if not options:
            raise SchemaError("oneOf/anyOf lists at least one schema")
        describe = " or ".join(option.describe for option in options)

        def explain(value: Any, path: str) -> str:
            # A value of the type of exactly one alternative (an int for "a whole number
            # or 'new'") is explained by it: "'target' must be 0 to 47, not 99". Not by
            # a list of values, though: "'target' must be 'new'" would say too little.
            same = [option for option in options if option.kind is type(value)]
            if len(same) == 1 and not same[0].listed:
                return same[0].explain(value, path)
            return f"{_name(path)} must be {describe}, not {_show(value)}"

        kinds = {option.kind for option in options}
        expr = "(" + " or ".join(option.expr for option in options) + ")"
        return self.check(expr, explain, describe, kinds.pop() if len(kinds) == 1 else None)

    def _array(self, schema: Mapping[str, Any]) -> Check:
        prefix = [self.compile(s) for s in schema.get("prefixItems", ())]
        items_schema = schema.get("items", True)
        items = None if items_schema is False else self.compile(items_schema)
        low = int(schema.get("minItems", 0))
        high: int | None = schema.get("maxItems")
        if items is None:
            high = len(prefix) if high is None else min(high, len(prefix))
        unique = bool(schema.get("uniqueItems", False))

        def item(index: int) -> Check | None:
            return prefix[index] if index < len(prefix) else items

        terms = ["type({0}) is list"]
        if high is not None and low == high <= _UNROLLED:
            # A fixed, short length ([x, y]): each item's check inline.
            terms.append(f"len({{0}}) == {low}")
            for index in range(low):
                check = item(index)
                if check is not None:
                    terms.append(check.expr.format(f"{{0}}[{index}]"))
        else:
            terms.append(
                f"{low} <= len({{0}})" if high is None else f"{low} <= len({{0}}) <= {high}"
            )
            for index, check in enumerate(prefix):
                terms.append(f"(len({{0}}) <= {index} or {check.expr.format(f'{{0}}[{index}]')})")
            if items is not None:
                rest = f"{{0}}[{len(prefix)}:]" if prefix else "{0}"
                if items.members is not None:  # strings of an enum: one set operation
                    terms.append(f"{self.constant(items.members)}.issuperset({rest})")
                else:
                    terms.append(f"all(map({self.constant(items.test)}, {rest}))")
        if unique:
            # Items of one str or int type (checked first) are told apart by a set;
            # anything else by the keys JSON would give them.
            exact = items is not None and items.kind in (str, int) and not prefix
            terms.append("len(set({0})) == len({0})" if exact else "_distinct({0})")

        def explain(value: Any, path: str) -> str:
            name = _name(path)
            if type(value) is not list:
                return f"{name} must be a list, not {_show(value)}"
            if len(value) < low or (high is not None and len(value) > high):
                return f"{name} must hold {_count(low, high)}, not {len(value)}"
            for index, element in enumerate(value):
                check = item(index)
                if check is not None and not check.test(element):
                    return check.explain(element, f"{path}[{index}]")
            return f"{name} must not repeat an item"

        expr = "(" + " and ".join(terms) + ")"
        return self.check(expr, explain, f"a list of {_count(low, high)}", list)

    def _object(self, schema: Mapping[str, Any], action: bool) -> Check:
        """An object's test is a generated function: one look-up and one inline check a field.

        For a whole action (``action``) the "type" is left out: the checker
        found the test by it.
        """
        properties = {name: self.compile(s) for name, s in schema.get("properties", {}).items()}
        required = list(schema.get("required", ()))
        extra_schema = schema.get("additionalProperties", True)
        extra = None if extra_schema is False else self.compile(extra_schema)
        names = self.compile(schema["propertyNames"]) if "propertyNames" in schema else None
        # Keys beyond the properties are looked at one by one only if something is said of them.
        strict_keys = names is not None or extra_schema not in (True, {})
        known = self.constant(frozenset(properties))

        # Required fields are read with x[name] (a KeyError is a no). Optional ones
        # are looked up, and with no other field allowed, counting the fields found
        # is the check that there is none; but many optional fields (Fika's effect)
        # are checked in one pass over the fields there are.
        optional = {name: check for name, check in properties.items() if name not in required}
        code = ["if type(x) is not dict: return False"]
        for name in required:
            check = properties.get(name)
            if action and name == "type":
                continue  # the checker found this test by it
            if check is None:
                code.append(f"x[{name!r}]")
            else:
                code += [f"v = x[{name!r}]", f"if not {check.expr.format('v')}: return False"]
        count = extra is None and len(optional) <= _LOOKED_UP
        if count:
            code.append(f"n = {len(required)}")
        if extra is not None or count:
            for name, check in optional.items():
                code += [f"v = x.get({name!r}, MISSING)", "if v is not MISSING:"]
                code.append(f"    if not {check.expr.format('v')}: return False")
                code.append("    n += 1" if count else "    pass")
        else:
            code.append("for k, v in x.items():")
            for index, (name, check) in enumerate(optional.items()):
                code.append(f"    {'elif' if index else 'if'} k == {name!r}:")
                code.append(f"        if not {check.expr.format('v')}: return False")
            code.append(f"    elif k not in {self.constant(frozenset(required))}: return False")
        if extra is not None and strict_keys:
            code.append("for k, v in x.items():")
            code.append(f"    if k in {known}: continue")
            code.append("    if type(k) is not str: return False")
            if names is not None:
                code.append(f"    if not {names.expr.format('k')}: return False")
            code.append(f"    if not {extra.expr.format('v')}: return False")
        code.append("return len(x) == n" if count else "return True")
        test = self.function(code)

        const = schema.get("properties", {}).get("type", {}).get("const")
        #: How a reason names this object at the top of an action: "a play".
        title = _article(const) if isinstance(const, str) else "the action"

        def explain(value: Any, path: str) -> str:
            where = _name(path) if path else title
            if type(value) is not dict:
                return f"{where} must be an object, not {_show(value)}"
            for key, element in value.items():
                check = properties.get(key)
                if check is None:
                    if extra is None:
                        return f"unexpected field {_show(key)} in {where}"
                    if not strict_keys:
                        continue
                    if names is not None and not (type(key) is str and names.test(key)):
                        keys = names.describe
                        return f"{where} cannot have the key {_show(key)}: its keys are {keys}"
                    if type(key) is not str:
                        return f"the keys of {where} must be strings, not {_show(key)}"
                    check = extra
                if not check.test(element):
                    return check.explain(element, f"{path}.{key}" if path else str(key))
            missing = [name for name in required if name not in value]
            return f"{where} needs {missing[0]!r}" if missing else ""

        return Check(test, explain, "an object", dict, f"{self.constant(test)}({{0}})")


# -- whole actions ---------------------------------------------------------------------


class ActionChecker:
    """A game's action schema, compiled: the action types and the check of each.

    The schema is ``{"oneOf": [...]}`` (or ``anyOf``) of object schemas, one per
    action type, each with ``"type": {"const": <name>}`` among its properties,
    as ``engine.action_schema`` builds them; a single such object schema also
    does. An empty schema admits every object with a string ``type``.
    """

    def __init__(self, schema: Mapping[str, Any], what: str = "action") -> None:
        #: What the actions are called in a reason: "action", "table action".
        self.what = what
        #: Action type -> the check of a whole action of that type; None: any type.
        self.types: dict[str, Check] | None = None
        #: Action type -> the test of a whole action: the hot path is one look-up and
        #: one call (see ``State.apply``); ``refusal`` says why an action fails.
        self.tests: dict[str, Callable[[Any], bool]] = {}
        if not schema:
            return
        compiler = _Compiler()
        self.types = {}
        for option in _alternatives(schema):
            const = option.get("properties", {}).get("type", {}).get("const")
            if not isinstance(const, str) or option.get("type") != "object":
                raise SchemaError('each action is an object with "type": {"const": <name>}')
            if const in self.types:
                raise SchemaError(f"action type {const!r} is defined twice")
            self.types[const] = compiler.compile(option, action=True)
            self.tests[const] = self.types[const].test

    def refusal(self, action: Any) -> str | None:
        """Why ``action`` does not fit the schema, or None if it does."""
        try:
            test = self.tests[action["type"]]
        except (KeyError, TypeError, IndexError):  # no "type", not hashable, not a dict
            if self.types is None and type(action) is dict and type(action.get("type")) is str:
                return None
            return self._explain(action)
        return None if test(action) else self._explain(action)

    def _explain(self, action: Any) -> str:
        if type(action) is not dict:
            return f"{_article(self.what)} is a JSON object with a 'type', not {_show(action)}"
        kinds = _words(list(self.types)) if self.types else ""
        if "type" not in action:
            return f"{_article(self.what)} needs a 'type'" + (f": {kinds}" if self.types else "")
        kind = action["type"]
        check = self.types.get(kind) if self.types is not None and type(kind) is str else None
        if check is None:
            known = f": the {self.what}s are {kinds}" if self.types else ""
            return f"unknown {self.what} type {_show(kind)}{known}"
        return check.explain(action, "") or f"that {kind} does not fit the {self.what} schema"


def _alternatives(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    for word in ("oneOf", "anyOf"):
        if word in schema:
            stray = sorted(schema.keys() - {word} - _ANNOTATIONS)
            if stray:
                raise SchemaError(f"{stray[0]!r} beside the action types' {word!r}")
            return list(schema[word])
    return [schema]
