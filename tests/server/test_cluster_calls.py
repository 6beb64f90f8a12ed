"""A refusal made on the process that runs a table reaches the asker whole.

Operations on a table another process runs travel over the cluster's bus
(``operations.run`` -> ``Cluster._on_call`` there -> the answer back). A refusal
crosses as its status, its sentence and its ``Retry-After``, so that the HTTP
answer a client gets does not depend on which process it asked.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from coffeetable.server.api import operations
from coffeetable.server.cluster.node import Cluster
from coffeetable.server.errors import Elsewhere, TableError


class AnsweringBus:
    """The bus's ``answer``, kept."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, Any]] = []

    def answer(self, message: dict[str, Any], kind: str, value: Any) -> None:
        self.answers.append((kind, value))


def test_the_owner_answers_a_refusal_with_its_retry_after() -> None:
    owner_process = object.__new__(Cluster)  # only the call handler: no Redis behind it
    bus = AnsweringBus()
    owner_process.bus = bus  # type: ignore[assignment]

    async def run_here(name: str, args: dict[str, Any]) -> Any:
        raise TableError(429, "too many tables: wait a minute", 12.5)

    owner_process.run_here = run_here  # type: ignore[method-assign]
    asyncio.run(owner_process._on_call({"op": "table.join", "args": {}}))
    assert bus.answers == [("error", [429, "too many tables: wait a minute", 12.5])]


def test_the_asker_raises_the_owners_refusal_whole() -> None:
    class AskingCluster:
        async def call(self, owner: str, name: str, args: dict[str, Any]) -> tuple[str, Any]:
            assert (owner, name) == ("process-b", "test.elsewhere")
            return "error", [429, "too many tables: wait a minute", 12.5]

    async def elsewhere(state: Any, **args: Any) -> Any:
        raise Elsewhere("process-b")

    class State:
        cluster = AskingCluster()

    operations.OPERATIONS["test.elsewhere"] = elsewhere
    try:
        with pytest.raises(TableError) as refused:
            asyncio.run(operations.run(State(), "test.elsewhere"))
    finally:
        del operations.OPERATIONS["test.elsewhere"]
    assert (refused.value.status, refused.value.retry_after) == (429, 12.5)
