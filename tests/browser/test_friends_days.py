"""Friends and slow games in the browser (issue #30): the new-table form offers one's
friends first, the invited player joins or declines from the table page; and two friends
play a 1-day Fika table from their "My games" pages while the notifications badge and the
page's title follow whose turn it is."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import tid
from tests.browser.test_fika import act_once
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

    guest = new_page()  # the lobby offers a held seat to its invited player only
    guest.goto(f"{own_server.url}/#/")
    guest.wait_for_selector(tid(f"watch-{table_id}"))
    assert guest.locator(tid(f"join-{table_id}")).count() == 0
    bea.goto(f"{own_server.url}/#/")
    bea.wait_for_selector(tid(f"join-{table_id}"))
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


def test_a_friend_chosen_for_a_seat_stays_chosen_when_the_form_is_redrawn(
    new_page, own_server: Server
) -> None:  # type: ignore[no-untyped-def]
    ana, bea = new_page(), new_page()
    sign_up(ana, own_server, "ana")
    sign_up(bea, own_server, "bea")
    befriend(ana, bea)
    ana.goto(f"{own_server.url}/#/")
    ana.click(tid("new-table-espresso"))
    ana.wait_for_selector(f"{tid('create-form')} h2:has-text('Espresso')")
    seat = tid("seat-select-1")
    ana.wait_for_selector(f"{seat} option[data-testid='invite-bea']", state="attached")
    ana.select_option(seat, "invite:bea")
    ana.select_option(tid("seat-select-2"), "open")

    ana.select_option(tid("create-players"), "3")  # the form is drawn anew, fewer seats
    ana.wait_for_selector(f"{seat} option[data-testid='invite-bea']", state="attached")
    ana.wait_for_function(  # put back once the friends have arrived again
        "() => document.querySelector(\"[data-testid='seat-select-1']\").value === 'invite:bea'"
    )
    assert ana.input_value(tid("seat-select-2")) == "open"  # the other seats keep theirs too
    ana.select_option(tid("create-players"), "2")  # seat 3 goes: seat 2 keeps its friend
    ana.wait_for_function(
        "() => document.querySelector(\"[data-testid='seat-select-1']\").value === 'invite:bea'"
    )
    assert ana.locator(tid("seat-select-2")).count() == 0

    ana.click(tid("new-table-cafe"))  # another game: the invited friend stays invited
    ana.wait_for_selector(f"{tid('create-form')} h2:has-text('Café')")
    ana.wait_for_function(
        "() => document.querySelector(\"[data-testid='seat-select-1']\").value === 'invite:bea'"
    )
    assert ana.input_value(tid("seat-select-2")).startswith("bot:")  # not kept: not an invite
    ana.click(tid("create-submit"))
    ana.wait_for_url("**/#/table/*")
    table_id = ana.url.rsplit("/", 1)[1]
    table = fetch(ana, "GET", f"/api/tables/{table_id}")["body"]
    assert table["game"] == "cafe"
    assert table["seats"][1]["invited"] == "bea" and table["seats"][1]["open"] is True


def my_games(page: Page, server: Server) -> str:
    """Open #/games (a fresh page: the badge looks at once); the table's state there."""
    page.goto(f"{server.url}/#/games")
    page.reload()
    page.wait_for_selector(tid("my-game-state"))
    return page.inner_text(tid("my-game-state"))


def my_turn(page: Page) -> bool:
    games = fetch(page, "GET", "/api/me/games")["body"]
    return bool(games["tables"][0]["my_turn"])


def play_my_turn(page: Page) -> None:
    """From the table page: act through the board until the turn passes (the API says)."""
    page.wait_for_selector(f"{tid('fika')}[data-can-act='true']")
    counts: dict[str, int] = {}
    deadline = time.monotonic() + 60
    while my_turn(page):
        assert time.monotonic() < deadline, counts
        seq = page.get_attribute(tid("fika"), "data-seq")
        if act_once(page, counts):
            end = time.monotonic() + 5
            while time.monotonic() < end and page.get_attribute(tid("fika"), "data-seq") == seq:
                page.wait_for_timeout(50)
        else:
            page.wait_for_timeout(100)


def unread(page: Page) -> int:
    page.wait_for_selector(f"{tid('notices-badge')}[data-unread]")
    return int(page.get_attribute(tid("notices-badge"), "data-unread") or 0)


def test_two_friends_play_a_one_day_fika_table_from_my_games(new_page, own_server: Server) -> None:  # type: ignore[no-untyped-def]
    ana, bea = new_page(), new_page()
    sign_up(ana, own_server, "ana")
    sign_up(bea, own_server, "bea")
    ana.goto(f"{own_server.url}/#/friends")  # friends, through the friends pages
    ana.fill(tid("ask-name"), "bea")
    ana.click(tid("ask-submit"))
    ana.wait_for_selector(f"{tid('friend')}[data-name='bea'] {tid('friend-remove')}")
    bea.goto(f"{own_server.url}/#/friends")
    bea.click(f"{tid('friend')}[data-name='ana'] {tid('friend-accept')}")
    bea.wait_for_selector(f"{tid('friend')}[data-name='ana'] {tid('friend-online')}")

    table_id = invite_from_the_form(ana, own_server, "bea", "1")  # 1 day per move
    bea.goto(f"{own_server.url}/#/notifications")
    bea.click(f"{tid('notice')}[data-kind='invited'] a")
    bea.click(tid("invite-join"))
    bea.wait_for_selector(f"{tid('seat-1')}.me")
    ana.wait_for_selector(f"{tid('days')}:has-text('1 d per move')")
    for page in (ana, bea):  # from here on, every notice counted is a "your turn"
        fetch(page, "POST", "/api/notifications/read", {"all": True})

    for turn in range(3):
        states = {name: my_games(page, own_server) for name, page in (("ana", ana), ("bea", bea))}
        assert sorted(states.values()) == ["waiting for the others", "your move"], states
        mover, other = (ana, bea) if states["ana"] == "your move" else (bea, ana)
        assert unread(other) == 0 and not other.title().startswith("(")
        if turn:  # the other played while this one was away: a "your turn" waits
            assert unread(mover) == 1 and mover.title().startswith("(1) ")
            assert mover.locator(tid("time-left")).inner_text().startswith("23 h")
        mover.click(f"[data-table='{table_id}'] {tid('my-game-link')}")
        play_my_turn(mover)
        my_games(mover, own_server)  # away again; playing read the "your turn"
        assert unread(mover) == 0 and not mover.title().startswith("(")
        other.reload()
        assert unread(other) == 1, turn  # the turn passed to someone away: told
        other.click(tid("notices-badge"))
        other.wait_for_selector(f"{tid('notice')}[data-kind='your_turn']:has-text('Fika')")
