"""Espresso in the browser: open a table with bots from the lobby, get ready, play
cards with the mouse and the keyboard, finish a round, finish a match."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.helpers import (
    LONG,
    click_ready_if_asked,
    get_ready,
    my_plays,
    open_table_from_lobby,
    play_a_card,
    play_until,
    tid,
)

pytestmark = pytest.mark.browser


def test_lobby_opens_a_table_with_three_bots(page, server):
    table_id = open_table_from_lobby(page, server.url, bots=3, speed="5")
    assert page.locator(f"{tid('seat-list')} li").count() == 4
    assert "you" in page.inner_text(tid("seat-0"))
    for seat in (1, 2, 3):
        page.wait_for_selector(tid(f"ready-mark-{seat}"), timeout=LONG)  # the bots say ready
    assert page.locator(tid("ready-button")).is_visible()
    # Help cards stay face down until everyone is ready.
    assert page.locator(f"{tid('card-0-help-0')} svg.back").count() == 1
    get_ready(page)
    page.wait_for_selector(f"{tid('card-0-help-0')} svg.face")
    assert page.locator(tid("shortcuts")).is_visible()
    # The lobby lists the table as running.
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid(f"table-row-{table_id}"))
    assert page.locator(tid(f"rejoin-{table_id}")).is_visible()


@pytest.mark.parametrize("how", ["click", "drag"])
def test_play_cards_with_the_mouse(page, server, how):
    open_table_from_lobby(page, server.url, bots=3, level="easy", speed="2")
    get_ready(page)
    round_before = page.locator(tid("espresso")).get_attribute("data-round")
    plays = play_a_card(page, how=how)
    assert plays >= 1  # the server accepted a card we played with the mouse
    # ... and it lands in the centre (the state follows the event), unless a bot called
    # FINITO meanwhile and a new round began
    page.wait_for_function(
        """(before) => {
            const table = document.querySelector('[data-testid=espresso]');
            const centre = document.querySelector('[data-testid=centre]');
            return Number(centre.dataset.cards) >= 1 || table.dataset.round !== before;
        }""",
        arg=round_before,
    )
    # Nothing stays selected or in flight once the card has landed.
    page.wait_for_selector(f'{tid("espresso")}[data-selected=""]')


def test_play_cards_with_the_keyboard(page, server):
    open_table_from_lobby(page, server.url, bots=3, level="easy", speed="5")
    get_ready(page)
    first = play_a_card(page, how="keys")
    second = play_a_card(page, how="keys")
    assert second > first >= 1


def test_space_flips_three_cards(page, server):
    open_table_from_lobby(page, server.url, bots=1, level="easy", speed="1")
    get_ready(page)
    hand = tid("hand-count-0")
    before = int(page.get_attribute(hand, "data-count"))
    page.keyboard.press("Space")
    page.wait_for_selector(f'{hand}:not([data-count="{before}"])')
    assert int(page.get_attribute(hand, "data-count")) == before - 3
    assert int(page.get_attribute(tid("pile-count-0"), "data-count")) == 3


def test_a_round_ends_with_its_summary(page, server):
    open_table_from_lobby(page, server.url, bots=3, level="hard", speed="10")
    get_ready(page)
    play_until(page, tid("round-summary"))
    summary = page.wait_for_selector(tid("round-summary"))
    assert summary.get_attribute("data-round") == "1"
    text = summary.inner_text()
    assert "FINITO" in text or "Blocked" in text
    # The score sheet has a column for round 1, and the next round waits for us.
    assert "R1" in page.inner_text(tid("score-sheet"))
    assert page.locator(tid("ready-button")).is_visible()
    totals = [int(page.inner_text(tid(f"total-{seat}"))) for seat in range(4)]
    points = [int(page.inner_text(tid(f"round-points-{seat}"))) for seat in range(4)]
    assert totals == points and sum(points) > 0


def test_the_match_ends_with_its_winners(page, server):
    open_table_from_lobby(page, server.url, bots=2, level="hard", speed="10", target=5)
    get_ready(page)
    play_until(page, tid("winners"), ready=True)  # a blocked round may leave everyone under 5
    winners = page.wait_for_selector(tid("winners"))
    seats = [int(s) for s in winners.get_attribute("data-winners").split(",")]
    totals = [int(page.inner_text(tid(f"total-{seat}"))) for seat in range(3)]
    assert seats and all(totals[s] == max(totals) for s in seats)
    assert max(totals) >= 5
    assert page.locator(tid("match-over")).is_visible()
    assert page.locator(tid("ready-button")).count() == 0


def test_a_refused_card_snaps_back_with_too_slow(page, server):
    """The server refuses a card that lost the race: it goes back, marked "Too slow!"."""
    refused = []

    def route(ws):  # between the page and the real server: refuse every card played
        to_server = ws.connect_to_server()

        def from_page(message):
            data = json.loads(message)
            if data.get("type") == "act" and data["action"]["type"] in ("play", "joker"):
                refused.append(data["action"])
                ws.send(
                    json.dumps(
                        {
                            "type": "rejected",
                            "reason": "too slow: another card got there first",
                            "code": "too_slow",
                            "action": data["action"],
                        }
                    )
                )
            else:
                to_server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    open_table_from_lobby(page, server.url, bots=1, level="easy", speed="5")
    get_ready(page)
    deadline = time.monotonic() + 120
    while not refused and time.monotonic() < deadline:
        card = page.locator(f"{tid('player-0')} .place.pickable").first
        try:
            if click_ready_if_asked(page):  # a blocked round: none of our cards ever lands
                continue
            if card.count():
                card.click(timeout=2_000)
                page.locator(".stack.target").first.click(timeout=2_000)
            else:  # nothing to play: flip, or recycle an empty hand
                hand = int(page.get_attribute(tid("hand-count-0"), "data-count") or 0)
                page.keyboard.press("Space" if hand else "r")
                page.wait_for_timeout(150)
        except PlaywrightError:
            page.keyboard.press("Escape")
    assert refused, "no card could be played"
    page.wait_for_selector(tid("too-slow"))
    assert "Too slow!" in page.inner_text(tid("too-slow"))
    page.wait_for_selector(".place.pending", state="detached")  # the card is back in its place
    assert my_plays(page) == 0
