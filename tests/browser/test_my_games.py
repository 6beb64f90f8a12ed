"""My games in the browser: a table with days per move offered in the new-table form, the
page #/games listing the table waiting for my move first with its time left, the
header's counts, a vacation from the page, the page in French and on a phone."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import tid
from tests.browser.test_players import fits_the_phone, sign_up

pytestmark = pytest.mark.browser


def create(page: Page, body: dict) -> str:
    """A table made by the page's own fetch (same origin, the page's session)."""
    made = page.evaluate(
        """async (body) => {
            const response = await fetch('/api/tables', {method: 'POST',
              headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
            return response.json();
        }""",
        body,
    )
    return str(made["table_id"])


def test_my_games_lists_my_move_first_with_counts_in_the_header(
    new_page, own_server: Server
) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    sign_up(page, own_server, "ada")
    assert page.is_hidden(tid("nav-games")) is False
    bea = httpx.Client(base_url=own_server.url, timeout=10)
    answer = bea.post(
        "/api/auth/register", json={"username": "bea", "password": "correct horse battery"}
    )
    assert answer.status_code == 200, answer.text
    theirs = create(
        page, {"game": "doppio", "players": 2, "options": {"days_per_move": 1, "first_player": 1}}
    )
    mine = create(
        page, {"game": "doppio", "players": 2, "options": {"days_per_move": 2, "first_player": 0}}
    )
    for table_id in (theirs, mine):
        assert bea.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    page.goto(f"{own_server.url}/#/")  # the lobby's list says what each table is
    page.wait_for_selector(f"{tid(f'table-asks-{mine}')}:has-text('2 d per move')")
    page.goto(f"{own_server.url}/#/games")
    page.wait_for_selector(tid("my-game"))
    rows = page.locator(tid("my-game"))
    assert rows.count() == 2
    assert rows.nth(0).get_attribute("data-table") == mine  # my move first
    assert rows.nth(0).locator(tid("my-game-state")).inner_text() == "your move"
    left = rows.nth(0).locator(tid("time-left")).inner_text()
    assert left in ("1 d 23 h left", "2 d 0 h left"), left  # of two days per move
    assert rows.nth(1).locator(tid("my-game-state")).inner_text() == "waiting for the others"
    page.wait_for_selector(f"{tid('games-count')}:text-is('(1/2)')")
    assert page.inner_text(tid("my-games-count")) == "1 waiting for your move, 2 in all"
    fits_the_phone(page, tid("my-game"))
    # A vacation from the page; then the page in French.
    page.fill(tid("vacation-days"), "3")
    page.click(tid("vacation-submit"))
    page.wait_for_selector(f"{tid('vacation-status')}:has-text('27 of 30 days left')")
    page.select_option(tid("lang-select"), "fr")
    page.wait_for_selector(f"{tid('my-game-state')}:text-is('à vous de jouer')")
    assert page.inner_text(tid("nav-games")).startswith("Mes parties")
    # The row opens the table, where my seat is.
    page.click(f"[data-table='{mine}'] {tid('my-game-link')}")
    page.wait_for_url(f"**/#/table/{mine}")
    bea.close()


def test_a_days_table_shows_the_time_left_and_expels_from_the_table_page(
    new_page, own_server: Server
) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    sign_up(page, own_server, "ada")
    bea = httpx.Client(base_url=own_server.url, timeout=10)
    answer = bea.post(
        "/api/auth/register", json={"username": "bea", "password": "correct horse battery"}
    )
    assert answer.status_code == 200, answer.text
    options = {"days_per_move": 1, "first_player": 1}
    table_id = create(page, {"game": "doppio", "players": 2, "options": options})
    assert bea.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    page.goto(f"{own_server.url}/#/table/{table_id}")
    page.wait_for_selector(f"{tid('days-1')}:has-text('bea: 23 h 59 min')")
    assert page.is_hidden(tid("expel-1"))  # Bea is not out of time
    assert page.locator(tid("replace-bot-1")).count() == 0  # a days table waits for her
    bea.close()
