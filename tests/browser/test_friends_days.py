"""Friends and slow games in the browser (issue #30): the new-table form offers one's
friends first, the invited player joins or declines from the table page; and two friends
play a 1-day Fika table from their "My games" pages while the notifications badge and the
page's title follow whose turn it is."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import tid
from tests.browser.test_players import sign_up

pytestmark = pytest.mark.browser


def fetch(page: Page, method: str, path: str, body: dict | None = None) -> dict:
    """A request by the page's own fetch (same origin, the page's session)."""
    return dict(
        page.evaluate(
            """async ([method, path, body]) => {
                const response = await fetch(path, {method,
                  headers: {'Content-Type': 'application/json'},
                  body: body == null ? undefined : JSON.stringify(body)});
                return {status: response.status, body: await response.json()};
            }""",
            [method, path, body],
        )
    )


def befriend(ana: Page, bea: Page) -> None:
    assert fetch(ana, "PUT", "/api/friends/bea")["body"]["status"] == "asked"
    assert fetch(bea, "PUT", "/api/friends/ana")["body"]["status"] == "friends"


def invite_from_the_form(ana: Page, server: Server, friend: str, days: str | None) -> str:
    """Ana opens a Fika table of two in the lobby's form, seat 2 inviting ``friend``."""
    ana.goto(f"{server.url}/#/")
    ana.click(tid("new-table-fika"))
    ana.wait_for_selector(f"{tid('create-form')} h2:has-text('Fika')")
    ana.select_option(tid("create-players"), "2")
    seat = tid("seat-select-1")
    ana.wait_for_selector(f"{seat} option[data-testid='invite-{friend}']", state="attached")
    if days is not None:
        ana.select_option(tid("days-per-move"), days)
    ana.select_option(seat, f"invite:{friend}")
    ana.click(tid("create-submit"))
    ana.wait_for_url("**/#/table/*")
    return ana.url.rsplit("/", 1)[1]


def test_the_form_offers_friends_first_and_the_invited_player_declines(
    new_page, own_server: Server
) -> None:  # type: ignore[no-untyped-def]
    ana, bea = new_page(), new_page()
    sign_up(ana, own_server, "ana")
    sign_up(bea, own_server, "bea")
    cyd = httpx.post(
        f"{own_server.url}/api/auth/register",
        json={"username": "cyd", "password": "correct horse battery"},
        timeout=10,
    )
    assert cyd.status_code == 200, cyd.text
    befriend(ana, bea)
    assert fetch(ana, "PUT", "/api/friends/cyd")["body"]["status"] == "asked"
    ana.goto(f"{own_server.url}/#/")
    ana.click(tid("new-table-fika"))
    ana.select_option(tid("create-players"), "2")
    ana.wait_for_selector(f"{tid('seat-select-1')} option[data-friend]", state="attached")
    labels = ana.locator(f"{tid('seat-select-1')} option").all_inner_texts()
    assert labels[0] == "Invite bea (online)", labels  # friends first; cyd only asked
    assert "Invite cyd" not in " ".join(labels)
    assert ana.input_value(tid("seat-select-1")).startswith("bot:")  # the default stays

    table_id = invite_from_the_form(ana, own_server, "bea", None)
    ana.wait_for_selector(f"{tid('seat-1')}")
    assert ana.locator(tid("invite-bar")).count() == 0  # only bea's page offers it

    bea.reload()
    bea.wait_for_selector(f"{tid('notices-count')}:text-is('2')")  # ana asked, ana invites
    bea.click(tid("notices-badge"))
    bea.click(f"{tid('notice')}[data-kind='invited'] a")
    bea.wait_for_url(f"**/#/table/{table_id}")
    bea.wait_for_selector(f"{tid('invite-bar')}:has-text('You are invited to seat 2.')")
    assert bea.locator(tid("take-seat")).count() == 0  # the seat is hers: join or decline
    bea.click(tid("invite-decline"))
    bea.wait_for_selector(tid("take-seat"))  # the seat is anyone's now
    assert bea.locator(tid("invite-bar")).count() == 0
    table = fetch(bea, "GET", f"/api/tables/{table_id}")["body"]
    assert table["seats"][1]["open"] is True and table["seats"][1]["invited"] is None


def test_the_invitation_in_french(new_page, own_server: Server) -> None:  # type: ignore[no-untyped-def]
    ana, bea = new_page(), new_page(locale="fr-FR")
    sign_up(ana, own_server, "ana")
    sign_up(bea, own_server, "bea")
    befriend(ana, bea)
    table_id = invite_from_the_form(ana, own_server, "bea", None)
    bea.goto(f"{own_server.url}/#/table/{table_id}")
    bea.wait_for_selector(f"{tid('invite-join')}:text-is('Rejoindre')")
    assert bea.inner_text(tid("invite-decline")) == "Refuser"
    bea.click(tid("invite-join"))
    bea.wait_for_selector(f"{tid('seat-1')}.me")
    assert bea.locator(tid("invite-bar")).count() == 0
