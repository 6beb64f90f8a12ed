"""JSON in and out of the server: strict on the way in, always valid on the way out.

orjson does both: it is RFC 8259 to the letter (``NaN``, ``Infinity`` and
``-Infinity`` are not JSON and are refused), and it encodes a table's state
about ten times faster than the standard library. Outgoing floats that are not
finite become ``null``, so a message can never break a browser's ``JSON.parse``.

``StrictJSONRoute`` makes FastAPI parse request bodies with ``loads``, so a
``NaN`` in a request is a 422 like any other malformed body, never a 500.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import Request, Response
from fastapi.routing import APIRoute

#: Deepest nesting a message may have; our deepest action is 4 levels.
MAX_DEPTH = 16


class JSONError(ValueError):
    """Not JSON, or JSON we do not take (too deep). ``reason`` reads well."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def loads(data: str | bytes) -> Any:
    """Parse strict JSON; raise ``JSONError`` for anything else (never RecursionError)."""
    try:
        value = orjson.loads(data)
    except (orjson.JSONDecodeError, RecursionError):
        raise JSONError("not valid JSON (NaN and Infinity are not JSON either)") from None
    if _too_deep(value):
        raise JSONError(f"JSON nested deeper than {MAX_DEPTH} levels")
    return value


def _too_deep(value: Any) -> bool:
    """True if ``value`` nests more than MAX_DEPTH containers (checked without recursion)."""
    level: list[Any] = [value]
    for _ in range(MAX_DEPTH + 1):
        below: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                below.extend(item.values())
            elif isinstance(item, list):
                below.extend(item)
        if not below:
            return False
        level = below
    return True


def dumps(message: Any) -> str:
    """Compact JSON text; raises ``TypeError`` for what JSON cannot hold (e.g. a 2**64 int)."""
    try:
        return orjson.dumps(message).decode()
    except orjson.JSONEncodeError as error:
        raise TypeError(str(error)) from None


class _StrictRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = loads(await self.body())
            except JSONError as error:
                # FastAPI turns a JSONDecodeError into its usual 422 "json_invalid".
                import json

                raise json.JSONDecodeError(error.reason, "", 0) from None
        return self._json


class StrictJSONRoute(APIRoute):
    """An API route whose JSON bodies are parsed by ``loads`` (strict, depth-limited)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            return await handler(_StrictRequest(request.scope, request.receive))

        return strict_handler
