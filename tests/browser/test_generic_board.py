"""A game that ships no board of its own (the suite's fifth game, Coffee Beans Nim from
tests/plugin_game, among ``games.names()``) plays on the generic board: its view as
readable text, its legal actions as buttons, against the site's bots to the end."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page

from coffeetable import games
from tests.browser.conftest import Server
from tests.browser.helpers import LONG, sit_at_new_table, tid

#: Every game without a board of its own: the generic board is theirs.
WITHOUT_A_BOARD = [name for name in games.names() if games.get(name).web_dir() is None]


def test_the_fifth_game_ships_no_board() -> None:
    assert "coffee_nim" in WITHOUT_A_BOARD


@pytest.mark.parametrize("name", WITHOUT_A_BOARD)
def test_a_game_without_a_board_plays_to_the_end_on_the_generic_board(
    page: Page, server: Server, name: str
) -> None:
    body = {"game": name, "players": 2, "name": "Ada", "bots": {"1": "random"}}
    sit_at_new_table(page, server, {**body, "options": {"bot_speed": 50}})
    page.wait_for_selector(f"{tid('generic-view')} dt", timeout=LONG)
    view = page.inner_text(tid("generic-view"))
    assert view.strip()  # the view, shown as text
    deadline = time.monotonic() + 60
    while not page.locator(tid("table-end")).is_visible():
        assert time.monotonic() < deadline, "the match did not end"
        buttons = page.locator(f"{tid('generic-actions')} button")
        if buttons.count():
            buttons.first.click()
        page.wait_for_timeout(100)
    assert page.locator(f"{tid('game-log')} li").count() > 0  # the events, as text
