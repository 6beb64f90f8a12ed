"""Fixtures for the social tests: the server tests' real server and browsers, a turn-based
throwaway game (Sugar), and helpers that wait for a notification to arrive."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

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
