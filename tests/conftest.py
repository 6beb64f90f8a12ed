"""Test-session order (the browser tests run last) and the services some tests need.

Playwright's sync API keeps an asyncio loop running in the main thread for the
whole session once a browser test has started, and tests that call
``asyncio.run`` cannot run after that. Running browser tests last also gives
the fast tests' verdict first.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

BROWSER = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: BROWSER in Path(str(item.path)).parents)  # stable: order kept


#: Set by CI: a test whose service (PostgreSQL, Redis) is missing fails instead of skipping.
REQUIRE_SERVICES = "COFFEETABLE_REQUIRE_SERVICES"


def service_url(env: str, what: str) -> str:
    """The URL of a service for tests, from ``env`` (scripts/services.sh sets it).

    Without it the test skips and says why, or fails where CI requires the services.
    """
    url = os.environ.get(env)
    if url:
        return url
    reason = f"no {what}: set {env} (scripts/test.sh starts one when run as root)"
    if os.environ.get(REQUIRE_SERVICES):
        pytest.fail(f"{reason}; {REQUIRE_SERVICES} is set, so this must run")
    pytest.skip(reason)
