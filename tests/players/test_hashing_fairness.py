"""Password hashing is bounded per client address and shared out in turn: one address
cannot queue sign-ins ahead of everyone else's (``fair_slots.py``)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from coffeetable.server.limits import Limits
from coffeetable.server.players.fair_slots import Busy, FairSlots
from coffeetable.server.players.passwords import Hasher

from .conftest import PASSWORD
from .test_guessing import Browsers, browsers

GUESSER, OWNER = "203.0.113.7", "2001:db8:5:6::1"


def wait_until(condition: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.005)


def test_a_client_has_at_most_per_client_jobs_and_clients_take_turns() -> None:
    async def scenario() -> tuple[list[str], bool]:
        slots = FairSlots(slots=1, per_client=3)
        order: list[str] = []
        gate = asyncio.Event()

        async def job(client: str, name: str) -> None:
            async with slots.slot(client):
                order.append(name)
                await gate.wait()

        tasks = [asyncio.create_task(job("a", f"a{i}")) for i in range(1, 4)]
        await asyncio.sleep(0)
        try:
            async with slots.slot("a"):
                refused = False
        except Busy:
            refused = True  # a fourth from "a", at once
        tasks.append(asyncio.create_task(job("b", "b1")))
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(*tasks)
        return order, refused

    order, refused = asyncio.run(scenario())
    assert refused
    assert order == ["a1", "a2", "b1", "a3"]  # in turn, not in arrival order (a3 before b1)


def test_a_waiter_that_gives_up_does_not_keep_a_slot() -> None:
    async def scenario() -> int:
        slots = FairSlots(slots=1, per_client=2)
        gate = asyncio.Event()

        async def job(client: str) -> None:
            async with slots.slot(client):
                await gate.wait()

        running = asyncio.create_task(job("a"))
        waiting = asyncio.create_task(job("b"))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.sleep(0)
        gate.set()
        await running
        async with slots.slot("c"):
            pass
        return slots.held("b") + slots.held("a")

    assert asyncio.run(scenario()) == 0


class GatedHasher(PasswordHasher):
    """Cheap argon2 whose verifications wait at a gate and note whose they were."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.gate = threading.Event()
        self.entered: list[str] = []

    def verify(self, hash: Any, password: Any) -> bool:
        self.entered.append("owner" if password == PASSWORD else "guesser")
        self.gate.wait(10)
        return bool(super().verify(hash, password))


def flood_and_owner(site: Browsers, hasher: Hasher, gated: GatedHasher, pool: Any) -> None:
    """32 sign-ins at once for unknown names from one address, then the owner's."""
    flood = [pool.submit(site.login, f"nobody{i}", f"guess number {i}", GUESSER) for i in range(32)]
    wait_until(lambda: sum(f.done() for f in flood) >= 29, "the excess is refused")
    refused = [f.result() for f in flood if f.done()]
    assert len(refused) == 29  # three hash (one at a time), the rest are told at once
    for answer in refused:
        assert answer.status_code == 429 and "at once from your address" in answer.text
        assert answer.headers["retry-after"] == "1"
    wait_until(lambda: hasher.slots.held(GUESSER) == 3, "three of the guesser's wait")
    owner = pool.submit(site.login, "Bea", PASSWORD, OWNER)
    wait_until(lambda: hasher.slots.held("2001:db8:5:6::/64") == 1, "the owner waits")
    gated.gate.set()
    assert owner.result().status_code == 200
    assert sorted(f.result().status_code for f in flood) == [401] * 3 + [429] * 29


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Browsers]:
    yield from browsers(tmp_path, Limits(hashes_per_client=3))


def test_one_address_cannot_saturate_the_hashing_queue(site: Browsers) -> None:
    site.register("Bea", OWNER)
    gated = GatedHasher()
    hasher = Hasher(gated, concurrency=1, per_client=3)
    site.app.state.players.hasher = hasher
    with ThreadPoolExecutor(max_workers=40) as pool:
        try:
            flood_and_owner(site, hasher, gated, pool)
        finally:
            gated.gate.set()  # a failed check lets every waiting sign-in go at once
    # The owner's sign-in was second in line, not behind the guesser's queue.
    assert gated.entered == ["guesser", "guesser", "owner", "guesser"]
