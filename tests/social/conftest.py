"""Fixtures for the social tests: the server tests' real server and browsers, a turn-based
throwaway game (Sugar), a fresh database (SQLite, then PostgreSQL), and helpers that wait
for a notification to arrive or read a whole database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from coffeetable.store.db import metadata
from tests.players.conftest import database_url  # noqa: F401  (a fixture, used by name)
from tests.server.conftest import (  # noqa: F401  (fixtures, used by name)
    TIMEOUT,
    Browser,
    ServerThread,
    browsers,
    clients,
    server,
    start_server,
    sugar,
)


def notices(browser: Browser, **params: Any) -> dict[str, Any]:
    response = browser.http.get("/api/notifications", params=params)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def wait_for(test: Callable[[], Any], what: str) -> Any:
    """Poll ``test`` until it returns something true; return it."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        found = test()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited in vain for {what}")


def kinds(browser: Browser) -> list[tuple[str, str | None, bool]]:
    """(kind, table_id, read) of each of the browser's notifications, newest first."""
    return [(n["kind"], n["table_id"], n["read"]) for n in notices(browser)["notifications"]]


def disconnected(site: ServerThread, table_id: str, seat: int) -> bool:
    return not site.summary(table_id)["seats"][seat]["connected"]


def database_text(url: str) -> str:
    """Every value of every row of every table at ``url``, as one text (on a connection of
    its own: callable from any thread)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return "\n".join(
                repr(tuple(row))
                for table in metadata.sorted_tables
                for row in conn.execute(sa.select(table))
            )
    finally:
        engine.dispose()


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    yield loop
    loop.close()
