"""Steps the browser tests share: open a table from the lobby, get ready, play a card.

Every wait is on a condition with a generous timeout; nothing depends on speed.
"""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

LONG = 120_000  # ms: a round with fast bots, or a slow CI machine


def tid(name: str) -> str:
    return f'[data-testid="{name}"]'


def sit_at_new_table(page: Page, server: Any, body: dict[str, Any]) -> str:
    """Create a table through the API (body: what POST /api/tables takes), keep its
    seat's token where the lobby keeps it, open the table and return its id."""
    created = server.post("/api/tables", body)
    table_id = str(created["table_id"])
    seats = {table_id: {"seat": created["seat"], "token": created["token"], "at": 0}}
    page.goto(server.url + "/#/")
    page.evaluate("seats => localStorage.setItem('coffeetable.seats', seats)", json.dumps(seats))
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("table-head") + " h1")
    return table_id


def open_table_from_lobby(
    page: Page,
    base_url: str,
    *,
    name: str = "Ada",
    bots: int = 3,
    level: str = "easy",
    speed: str = "5",
    target: int | None = None,
    players: int | None = None,
) -> str:
    """Create a table in the lobby form: seat 0 is ours, then `bots` bots, then
    open seats up to `players`; return its id."""
    page.goto(base_url + "/#/")
    page.fill(tid("create-name"), name)
    page.select_option(tid("create-players"), str(players or bots + 1))
    for seat in range(1, bots + 1):
        page.select_option(tid(f"seat-select-{seat}"), f"bot:{level}")
    for seat in range(bots + 1, players or bots + 1):  # the form's default is a bot
        page.select_option(tid(f"seat-select-{seat}"), "open")
    if bots:
        page.select_option(tid("bot-speed"), speed)
    if target is not None:
        page.fill(tid("option-target"), str(target))
    page.click(tid("create-submit"))
    page.wait_for_selector(tid("espresso"))
    return page.evaluate("location.hash").split("/")[-1]


def phase(page: Page) -> str | None:
    return page.get_attribute(tid("espresso"), "data-phase")


def my_plays(page: Page) -> int:
    return int(page.get_attribute(tid("espresso"), "data-my-plays") or 0)


def centre_cards(page: Page) -> int:
    return int(page.get_attribute(tid("centre"), "data-cards") or 0)


def click_ready_if_asked(page: Page) -> bool:
    button = page.locator(tid("ready-button"))
    if button.count() and button.is_visible():
        try:
            button.click(timeout=2_000)
        except PlaywrightError:
            return False
        return True
    return False


def get_ready(page: Page) -> None:
    """Press Ready and wait until the round is being played (after the countdown)."""
    page.click(tid("ready-button"))
    page.wait_for_selector(
        f'{tid("espresso")}[data-phase="play"][data-can-act="true"]', timeout=LONG
    )


def _try_mouse(page: Page, seat: int, drag: bool) -> bool:
    """Pick one of our playable cards and put it on a highlighted stack; False if none."""
    card = page.locator(f"{tid(f'player-{seat}')} .place.pickable").first
    if not card.count():
        return False
    if drag:
        target = page.locator(".stack.target").first
        card.click(timeout=2_000)  # shows the legal targets; the drag below plays it
        target.wait_for(timeout=2_000)
        box = page.locator(f"{tid(f'player-{seat}')} .place.selected").first.bounding_box()
        goal = target.bounding_box()
        if not box or not goal:
            return False
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(goal["x"] + 10, goal["y"] + 10, steps=6)
        page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=4)
        page.mouse.up()
    else:
        card.click(timeout=2_000)
        page.locator(".stack.target").first.click(timeout=2_000)
    return True


def _try_keys(page: Page, seat: int) -> bool:
    card = page.locator(f"{tid(f'player-{seat}')} .place.pickable[data-key]").first
    if not card.count():
        return False
    key = card.get_attribute("data-key", timeout=2_000)
    page.keyboard.press(key.lower() if key.isalpha() else key)
    label = page.locator(".stack.target .target-key").first
    label.wait_for(timeout=2_000)
    page.keyboard.press(label.inner_text(timeout=2_000).strip().lower())
    return True


def play_a_card(page: Page, *, seat: int = 0, how: str = "click", timeout: float = 150.0) -> int:
    """Play cards until the server accepted one of ours; return how many it accepted.

    how: "click" (card, then stack), "drag" (drag the card onto a stack) or "keys".
    When nothing is playable it flips (Space) or recycles, and it presses Ready
    between rounds. Refusals ("too slow") are part of the game: it tries again.
    """
    before = my_plays(page)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if my_plays(page) > before:
            return my_plays(page)
        if phase(page) != "play":
            click_ready_if_asked(page)
            page.wait_for_timeout(200)
            continue
        try:
            played = (
                _try_keys(page, seat) if how == "keys" else _try_mouse(page, seat, how == "drag")
            )
            if played:
                _wait_for_plays(page, before, 3.0)
                continue
            page.keyboard.press("Escape")
            if page.locator(f"{tid(f'hand-{seat}')}.actionable").count():
                page.keyboard.press(
                    "Space"
                    if int(page.get_attribute(tid(f"hand-count-{seat}"), "data-count") or 0)
                    else "r"
                )
            page.wait_for_timeout(150)
        except PlaywrightError:
            page.keyboard.press("Escape")  # the board moved under us: look again
    raise AssertionError(f"no card of ours was accepted within {timeout:.0f} s")


def _wait_for_plays(page: Page, before: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and my_plays(page) <= before:
        page.wait_for_timeout(50)


def play_until(
    page: Page, selector: str, *, seat: int = 0, ready: bool = False, timeout: float = 240.0
) -> None:
    """Take part (play what we can, else flip or recycle) until selector shows.

    A round only ends blocked once every player, us too, has gone through their
    hand, so the test player keeps playing rather than waiting idle. ready: also
    say Ready for the next rounds.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(selector).count() and page.locator(selector).first.is_visible():
            return
        if phase(page) != "play" or page.get_attribute(tid("espresso"), "data-can-act") != "true":
            if ready:
                click_ready_if_asked(page)
            page.wait_for_timeout(100)
            continue
        try:
            if not _try_keys(page, seat):
                hand = int(page.get_attribute(tid(f"hand-count-{seat}"), "data-count") or 0)
                page.keyboard.press("Space" if hand else "r")
            page.wait_for_timeout(100)
        except PlaywrightError:
            page.keyboard.press("Escape")
    where = page.evaluate("document.querySelector('[data-testid=espresso]')?.dataset")
    raise AssertionError(f"{selector} did not show within {timeout:.0f} s ({where})")
