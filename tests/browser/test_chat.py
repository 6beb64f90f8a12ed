"""The table's chat: players and spectators, escaped names and texts, quick
phrases in the reader's language, muting a player, the spectators' channel."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import tid

pytestmark = pytest.mark.browser

HOSTILE = "<img src=x onerror=alert(1)>"
TWO_LINES = "() => document.querySelectorAll('[data-testid=chat-line]').length === 2"


def seat_page(page: Page, server: Server, table_id: str, seat: int, token: str) -> Page:
    seats = {table_id: {"seat": seat, "token": token, "at": 0}}
    page.goto(server.url + "/#/")
    page.evaluate("seats => localStorage.setItem('coffeetable.seats', seats)", json.dumps(seats))
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("chat-input"))
    page.wait_for_selector(f"{tid('connection-status')}[data-status=open]")
    return page


def two_people(server: Server, game: str = "fika") -> tuple[str, dict, dict]:
    created = server.post("/api/tables", {"game": game, "players": 2, "name": "Ada"})
    table_id = str(created["table_id"])
    joined = server.post(f"/api/tables/{table_id}/join", {"name": "Bea"})
    return table_id, created, joined


def lines(page: Page) -> list[str]:
    return page.locator(tid("chat-line")).all_inner_texts()


def test_chat_reaches_players_and_spectators_escaped_and_translated(new_page, server: Server):
    table_id, ada_seat, bea_seat = two_people(server)
    ada = seat_page(new_page(), server, table_id, ada_seat["seat"], ada_seat["token"])
    bea = seat_page(new_page(), server, table_id, bea_seat["seat"], bea_seat["token"])
    watcher = new_page("fr-FR")
    watcher.goto(f"{server.url}/#/table/{table_id}")
    watcher.wait_for_selector(tid("spectator-badge"))
    watcher.wait_for_selector(f"{tid('connection-status')}[data-status=open]")

    ada.fill(tid("chat-input"), HOSTILE)
    ada.click(tid("chat-send"))
    for page in (ada, bea, watcher):
        page.wait_for_selector(tid("chat-text"))
        assert page.inner_text(tid("chat-text")) == HOSTILE  # text, not an image
        assert page.locator(f"{tid('chat-lines')} img").count() == 0
        assert "Ada" in page.inner_text(tid("chat-line"))

    # A quick phrase: each reader sees it in their own language.
    bea.click(tid("chat-phrase-gg"))
    watcher.wait_for_function(TWO_LINES)
    assert watcher.locator(tid("chat-text")).nth(1).inner_text() == "Bonne partie !"
    ada.wait_for_function(TWO_LINES)
    assert ada.locator(tid("chat-text")).nth(1).inner_text() == "Good game!"
    assert watcher.inner_text(tid("chat-phrase-well_played")) == "Bien joué !"

    # The spectator speaks in the spectators' channel; a player may hide it (kept on reload).
    watcher.fill(tid("chat-input"), "hi from the rail")
    watcher.press(tid("chat-input"), "Enter")
    bea.wait_for_selector(f"{tid('chat-line')}[data-channel=spectators]")
    bea.uncheck(tid("chat-show-spectators"))
    assert bea.locator(f"{tid('chat-line')}[data-channel=spectators]").count() == 0
    bea.reload()
    bea.wait_for_selector(f"{tid('chat-line')}[data-name=Ada]")
    assert not bea.is_checked(tid("chat-show-spectators"))
    assert bea.locator(f"{tid('chat-line')}[data-channel=spectators]").count() == 0
    assert watcher.locator(tid("chat-show-spectators")).is_hidden()  # a spectator sees both

    # Mute Ada: her lines go (and stay gone after a reload); unmute brings them back.
    bea.locator(f"{tid('chat-line')}[data-name=Ada] {tid('chat-mute')}").click()
    assert bea.locator(f"{tid('chat-line')}[data-name=Ada]").count() == 0
    assert bea.locator(f"{tid('chat-line')}[data-name=Bea]").count() == 1
    bea.reload()
    bea.wait_for_selector(f"{tid('chat-line')}[data-name=Bea]")
    assert bea.locator(f"{tid('chat-line')}[data-name=Ada]").count() == 0
    bea.click(tid("chat-unmute"))
    assert bea.locator(f"{tid('chat-line')}[data-name=Ada]").count() == 1


def test_the_servers_refusal_shows_in_the_chat(new_page, server: Server):
    table_id, ada_seat, _ = two_people(server)
    ada = seat_page(new_page(), server, table_id, ada_seat["seat"], ada_seat["token"])
    for n in range(30):  # past the rate limit
        ada.evaluate(
            "n => { const i = document.querySelector('[data-testid=chat-input]');"
            " i.value = 'spam ' + n; i.form.requestSubmit(); }",
            n,
        )
    ada.wait_for_selector(f"{tid('chat-error')}:not([hidden])")
    assert "slow down" in ada.inner_text(tid("chat-error"))


def test_a_player_who_hides_the_spectators_is_not_sent_their_lines(new_page, server: Server):
    """Hiding the spectators' channel tells the server (``chat_mute``), which stops sending
    it to that page's socket; showing it again brings the lines back."""
    from tests.server.conftest import Client

    table_id, ada_seat, bea_seat = two_people(server)
    received: list[dict] = []
    bea = new_page()
    bea.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda data: received.append(json.loads(data))),
    )
    bea = seat_page(bea, server, table_id, bea_seat["seat"], bea_seat["token"])
    bea.uncheck(tid("chat-show-spectators"))
    deadline = 100
    while sum(m["type"] == "chat_history" for m in received) < 2 and deadline:
        bea.wait_for_timeout(50)  # the server's answer to the page's chat_mute (one more)
        deadline -= 1
    assert deadline, "the page did not tell the server to leave the spectators out"
    ws_url = server.url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    watcher, ada = Client(ws_url), Client(f"{ws_url}?token={ada_seat['token']}")
    try:
        watcher.send({"type": "chat", "text": "psst, from the rail"})
        watcher.until(lambda m: m["type"] == "chat")
        ada.send({"type": "chat", "text": "players only"})
        bea.wait_for_selector(f"{tid('chat-line')}[data-name=Ada]")
        chats = [m["message"] for m in received if m["type"] == "chat"]
        assert [m["channel"] for m in chats] == ["players"]
        bea.check(tid("chat-show-spectators"))
        bea.wait_for_selector(f"{tid('chat-line')}[data-channel=spectators]")
    finally:
        watcher.close()
        ada.close()
