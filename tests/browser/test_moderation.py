"""Reports and moderation in the browser: ana reports bea's chat line from the table (a
small dialog with the reason), dora the moderator reads it on #/moderation with its chat
lines, mutes bea for a day, the report leaves the list and the log keeps the action, and
bea's next line is refused with the moderator's words."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from coffeetable.store import Database, moderation
from coffeetable.store import players as players_db
from tests.browser.conftest import Server
from tests.browser.helpers import tid
from tests.browser.test_players import sign_up

pytestmark = pytest.mark.browser

FETCH = """async ([method, path, body]) => {
  const response = await fetch(path, {method, headers: {'Content-Type': 'application/json'},
    body: JSON.stringify(body)});
  return response.json();
}"""


def post(page: Page, path: str, body: dict) -> dict:  # type: ignore[type-arg]
    """POST from the page (its session cookie, its Origin)."""
    answer: dict = page.evaluate(FETCH, ["POST", path, body])  # type: ignore[type-arg]
    return answer


def make_moderator(server: Server, name: str) -> None:
    database = Database(f"sqlite:///{server.database}")
    try:
        with database.engine.begin() as conn:
            found = players_db.player_by_key(conn, name)
            assert found is not None
            moderation.set_moderator(conn, found.id, True)
    finally:
        database.close()


def at_table(page: Page, server: Server, table_id: str) -> None:
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("chat-input"))
    page.wait_for_selector(f"{tid('connection-status')}[data-status=open]")


def test_a_chat_line_is_reported_and_a_moderator_mutes_its_author(new_page, own_server) -> None:  # type: ignore[no-untyped-def]
    ana, bea, dora = new_page(), new_page(), new_page()
    for page, name in ((ana, "ana"), (bea, "bea"), (dora, "dora")):
        sign_up(page, own_server, name)
    make_moderator(own_server, "dora")
    table_id = post(ana, "/api/tables", {"game": "fika", "players": 2})["table_id"]
    post(bea, f"/api/tables/{table_id}/join", {})
    at_table(ana, own_server, table_id)
    at_table(bea, own_server, table_id)

    bea.fill(tid("chat-input"), "<b>you all play badly</b>")
    bea.click(tid("chat-send"))
    line = f"{tid('chat-line')}[data-name='bea']"
    ana.wait_for_selector(line)
    assert bea.locator(tid("chat-report")).count() == 0  # not one's own line
    ana.click(f"{line} {tid('chat-report')}")
    ana.wait_for_selector(tid("report-dialog"))
    assert ana.input_value(tid("report-reason")) == "chat"
    ana.fill(tid("report-text"), "rude after every round")
    ana.click(tid("report-send"))
    ana.wait_for_selector(f"{tid('report-dialog')}", state="detached")

    dora.reload()  # a moderator's menu leads to the page
    dora.click(tid("user-menu-button"))
    dora.click(tid("menu-moderation"))
    report = dora.wait_for_selector(tid("mod-report"))
    assert "ana reports bea" in report.inner_text()
    assert dora.inner_text(tid("mod-chat-line")) == "bea <b>you all play badly</b>"  # as text
    assert dora.inner_text(tid("mod-report-text")) == "rude after every round"
    dora.fill(tid("mod-why"), "insults")
    dora.fill(tid("mod-hours"), "24")
    dora.click(tid("mod-mute"))
    dora.wait_for_selector(tid("mod-none"))
    assert "dora: mute bea" in dora.inner_text(tid("mod-log-entry"))

    bea.fill(tid("chat-input"), "and again")
    bea.click(tid("chat-send"))
    bea.wait_for_selector(f"{tid('chat-error')}:has-text('a moderator muted your chat until')")

    ana.click(tid("user-menu-button"))
    assert ana.locator(tid("menu-moderation")).count() == 0
    ana.goto(f"{own_server.url}/#/moderation")  # not a moderator: the page says so
    ana.wait_for_selector(f"{tid('moderation-refused')}:has-text('moderators only')")


def test_a_player_is_reported_from_their_profile(new_page, own_server) -> None:  # type: ignore[no-untyped-def]
    ana, dora = new_page(), new_page()
    sign_up(ana, own_server, "ana")
    sign_up(dora, own_server, "dora")
    make_moderator(own_server, "dora")
    ana.goto(f"{own_server.url}/#/players/ana")
    ana.wait_for_selector(tid("profile-name"))
    assert ana.locator(tid("profile-report")).count() == 0  # not oneself
    ana.goto(f"{own_server.url}/#/players/dora")
    ana.click(tid("profile-report"))
    ana.select_option(tid("report-reason"), "cheating")
    ana.click(tid("report-send"))
    ana.wait_for_selector(tid("report-dialog"), state="detached")

    dora.goto(f"{own_server.url}/#/moderation")
    report = dora.wait_for_selector(tid("mod-report"))
    assert "ana reports dora: Cheating" in report.inner_text()
    dora.click(tid("mod-dismiss"))  # a report about herself is for another moderator
    dora.wait_for_selector(f"{tid('toast-error')}:has-text('another moderator')")
    assert dora.locator(tid("mod-report")).count() == 1  # still open
