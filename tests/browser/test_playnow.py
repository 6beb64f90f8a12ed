"""Play now in the lobby: two people meet at one table; a lone player gets bots
after the wait (3 s for the tests); cancelling leaves the queue."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import tid

pytestmark = pytest.mark.browser


def queues(server: Server) -> list:
    with urllib.request.urlopen(server.url + "/api/play-now", timeout=10) as response:
        return json.loads(response.read())


def choose(page: Page, server: Server, game: str, name: str, players: int | None = None) -> None:
    page.goto(server.url + "/#/")
    page.click(tid(f"play-now-{game}"))
    page.fill(tid("play-now-name"), name)
    if players is not None:
        page.select_option(tid("play-now-players"), str(players))


def test_two_people_meet_at_one_table(new_page, server: Server) -> None:  # type: ignore[no-untyped-def]
    ada, bea = new_page(), new_page()
    choose(ada, server, "fika", "Ada")
    choose(bea, server, "fika", "Bea")
    ada.click(tid("play-now-go"))
    ada.wait_for_selector(tid("play-now-waiting"))
    bea.click(tid("play-now-go"))
    for page in (ada, bea):
        page.wait_for_function("() => location.hash.startsWith('#/table/')")
    assert ada.evaluate("location.hash") == bea.evaluate("location.hash")
    ada.wait_for_selector(f"{tid('seat-list')} .me")
    bea.wait_for_selector(f"{tid('seat-list')} .me")
    names = ada.inner_text(tid("seat-list"))
    assert "Ada" in names and "Bea" in names


def test_a_lone_player_gets_bots_after_the_wait_and_may_cancel(new_page, server: Server) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    choose(page, server, "espresso", "Cy", players=3)
    page.select_option(tid("play-now-level"), "easy")
    page.click(tid("play-now-go"))
    page.wait_for_selector(tid("play-now-seconds"))
    assert "Cy" in page.inner_text(tid("play-now-waiting"))
    assert "second" in page.inner_text(tid("play-now-seconds"))
    page.wait_for_function("() => location.hash.startsWith('#/table/')", timeout=15_000)
    page.wait_for_selector(f"{tid('seat-0')}.me")
    assert page.locator(f"{tid('seat-list')} li").count() == 3
    page.wait_for_selector(tid("espresso"))
    # Cancel: the queue forgets us.
    choose(page, server, "doppio", "Cy")
    page.click(tid("play-now-go"))
    page.wait_for_selector(tid("play-now-cancel"))
    page.click(tid("play-now-cancel"))
    page.wait_for_selector(tid("play-now-go"))
    page.wait_for_timeout(4_000)  # past the wait: no table was dealt for us
    assert page.evaluate("location.hash") in ("#/", "")
    assert not any(q.get("game") == "doppio" and q.get("waiting") for q in queues(server))
