"""Bot accounts in the browser: a person makes a bot and a key on the Bots page (the
key shown once), invites the bot to a seat from the lobby form, sees it at the table
with the robot mark while it plays through ``coffeetable.client``, finds it on the bots'
leaderboard with its owner, and revokes the key. Fits a 360 px phone."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Page

from coffeetable import client
from tests.browser.conftest import Server
from tests.browser.helpers import tid
from tests.browser.test_players import sign_up

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def as_bot(server: Server, key: str, path: str) -> Any:
    request = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def make_bot_and_key(page: Page, server: Server) -> str:
    page.goto(f"{server.url}/#/bots")
    page.fill(tid("new-bot-name"), "bot-v2")
    page.fill(tid("new-bot-description"), "<b>tries</b> hard")
    page.click(tid("new-bot-submit"))
    page.wait_for_selector("[data-testid='bot-item'][data-bot='alice/bot-v2']")
    assert page.text_content(tid("bot-name")) == "alice/bot-v2"
    assert page.locator("b").count() == 0  # the description is text, not markup
    page.click(tid("new-key-button"))
    page.wait_for_selector(tid("new-key"))
    key = page.text_content(tid("new-key")) or ""
    assert key.startswith("ctb_")
    rows = page.locator(tid("key-row"))
    assert rows.count() == 1
    assert key not in (rows.first.text_content() or "")  # listed by its prefix only
    page.reload()
    page.wait_for_selector(tid("key-row"))
    assert page.locator(tid("new-key")).count() == 0  # shown once: gone after a reload
    return key


def test_a_person_sees_their_bot_at_the_table_and_on_the_bots_board(
    own_server: Server, page: Page
) -> None:
    page.set_viewport_size(PHONE)
    sign_up(page, own_server, "alice")
    key = make_bot_and_key(page, own_server)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The lobby form offers "my bot" for a seat: invited, it is marked at the table.
    page.goto(f"{own_server.url}/#/")
    page.click(tid("new-table-fika"))
    page.wait_for_selector(
        f"{tid('seat-select-1')} option[value='program:alice/bot-v2']", state="attached"
    )
    page.select_option(tid("seat-select-1"), "program:alice/bot-v2")
    page.click(tid("create-submit"))
    page.wait_for_selector(tid("seat-1"))
    chip = page.locator(tid("seat-1"))
    chip.locator(tid("robot-mark")).wait_for()
    assert "alice/bot-v2" in (chip.text_content() or "")
    assert chip.get_attribute("data-program") == "true"
    assert chip.get_attribute("title") == "alice's bot"
    assert page.locator(tid("seat-0")).locator(tid("robot-mark")).count() == 0

    # The bot plays a match of its own against the site's greedy bot; we watch it.
    def slow(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        time.sleep(0.05)
        return legal[0]

    results: list[client.MatchResult] = []
    worker = threading.Thread(
        target=lambda: results.extend(
            client.play(own_server.url, key, slow, game="fika", opponents=["greedy"])
        ),
        daemon=True,
    )
    invited = {t["table_id"] for t in as_bot(own_server, key, "/api/me")["tables"]}
    worker.start()
    deadline = time.monotonic() + 20
    own = set()
    while not own and time.monotonic() < deadline:
        own = {t["table_id"] for t in as_bot(own_server, key, "/api/me")["tables"]} - invited
        time.sleep(0.1)
    assert own, "the bot made its table"
    table_id = own.pop()
    page.goto(f"{own_server.url}/#/table/{table_id}")
    mine = page.locator(tid("seat-0"))
    mine.locator(tid("robot-mark")).wait_for()
    assert "alice/bot-v2" in (mine.text_content() or "")
    worker.join(120)
    assert results and results[0].status == "over"

    # The bots' leaderboard, beside the players': the bot, its owner, the site's bot.
    page.goto(f"{own_server.url}/#/leaderboards/fika")
    page.wait_for_selector(tid("bot-leaderboard"))
    row = page.locator("[data-testid='bot-board-row'][data-name='alice/bot-v2']")
    row.locator(tid("robot-mark")).wait_for()
    assert "alice" in (row.text_content() or "")
    assert page.locator("[data-testid='bot-board-row'][data-name='greedy']").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Its name leads to its profile (owner/name in the address), marked as a bot.
    row.locator("[data-player='alice/bot-v2']").click()
    page.wait_for_selector(f"{tid('profile-name')}:has-text('alice/bot-v2')")
    assert page.locator(tid("profile-name")).locator(tid("robot-mark")).count() == 1

    # Who may invite it: its owner only, until she lets anyone (saved on the server).
    page.goto(f"{own_server.url}/#/bots")
    assert not page.is_checked(tid("bot-invitable"))
    page.check(tid("bot-invitable"))
    page.wait_for_selector(f"{tid('bot-invitable')}:checked:not([disabled])")
    bots = json.loads(urllib.request.urlopen(f"{own_server.url}/api/players/alice/bots").read())
    assert [bot["invitable_by"] for bot in bots] == ["anyone"]

    # Revoked on the Bots page: the key is refused from then on.
    page.click(tid("revoke-key"))
    page.wait_for_selector(tid("key-revoked"))
    with pytest.raises(urllib.error.HTTPError) as refused:
        as_bot(own_server, key, "/api/me")
    assert refused.value.code == 401


def test_the_bots_page_asks_a_guest_to_sign_in(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/#/bots")
    page.wait_for_selector(tid("bots-signed-out"))
