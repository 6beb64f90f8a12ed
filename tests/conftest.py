"""Test-session order: the browser tests run last.

Playwright's sync API keeps an asyncio loop running in the main thread for the
whole session once a browser test has started, and tests that call
``asyncio.run`` cannot run after that. Running browser tests last also gives
the fast tests' verdict first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

BROWSER = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: BROWSER in Path(str(item.path)).parents)  # stable: order kept
