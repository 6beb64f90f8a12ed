"""Test-session order (the browser tests run last) and the services some tests need.

Playwright's sync API keeps an asyncio loop running in the main thread for the
whole session once a browser test has started, and tests that call
``asyncio.run`` cannot run after that. Running browser tests last also gives
the fast tests' verdict first.

The fifth game: Coffee Beans Nim (tests/plugin_game/) is a package of its own,
registered through the ``coffeetable.games`` entry point like any installed game.
Its folder holds its ``.dist-info``, so putting the folder on ``sys.path`` (here,
before anything imports ``coffeetable.games``) installs it for this session, and on
``PYTHONPATH`` for the processes tests start (a browser test's server, the CLI).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PLUGIN_GAME = Path(__file__).parent / "plugin_game"
if str(PLUGIN_GAME) not in sys.path:
    sys.path.append(str(PLUGIN_GAME))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        part for part in (os.environ.get("PYTHONPATH"), str(PLUGIN_GAME)) if part
    )

import pytest  # noqa: E402

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
