"""Espresso Doppio in the browser: set up, move, exchange, undo, score and end turns
against the greedy bot until the end screen; a solo game until the beans run out;
the lobby's "coming soon" for games without a board; the clock in the header."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser.helpers import LONG, tid

pytestmark = pytest.mark.browser

ROOT = tid("doppio")
GAME_TIMEOUT = 600.0  # s: a whole game, clicking, on a slow machine


def attr(page: Page, name: str) -> str:
    return page.get_attribute(ROOT, f"data-{name}") or ""


def open_doppio(page: Page, base_url: str, *, players: int, clock: str | None = None) -> str:
    """Create a Doppio table in the lobby form (seat 1: the casual bot, greedy); return its id."""
    page.goto(base_url + "/#/")
    page.click(tid("new-table-doppio"))
    page.fill(tid("create-name"), "Ada")
    page.select_option(tid("create-players"), str(players))
    if players == 2:
        page.select_option(tid("seat-select-1"), "bot:casual")
        page.select_option(tid("bot-speed"), "10")
    if clock is not None:
        page.select_option(tid("clock-minutes"), clock)
    page.click(tid("create-submit"))
    page.wait_for_selector(ROOT)
    return page.evaluate("location.hash").split("/")[-1]


def wait_for_my_move(page: Page, over: str) -> bool:
    """Wait until we may act (True) or the game is over (False)."""
    page.wait_for_selector(f'{ROOT}[data-can-act="true"], {over}', timeout=LONG)
    return page.locator(over).count() == 0


def after(page: Page, seq: str, seconds: float = 5.0) -> None:
    """Wait (a while, not for ever: an action may be refused) for a newer state."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and attr(page, "seq") == seq:
        page.wait_for_timeout(50)


def place(page: Page) -> None:
    """Set-up: choose the first colour offered, then the first highlighted space."""
    if not page.locator(".d-colour.chosen").count():
        page.locator(".d-colour").first.click(timeout=2_000)
    page.locator(".target-tab").first.click(timeout=2_000)


def score_a_card(page: Page, seat: int) -> bool:
    card = page.locator(f"{tid(f'player-{seat}')} .dcard.scorable")
    if not card.count():
        return False
    card.first.click(timeout=2_000)
    choice = page.locator(f"{tid('score-choice')} button")
    if choice.count():  # both ways round are met: choose one
        choice.first.click(timeout=2_000)
    return True


def move_a_piece(page: Page) -> bool:
    pieces = page.locator(".pwrap.selectable")
    if not pieces.count():
        return False
    pieces.first.click(timeout=2_000)
    page.locator(".target-tab").first.click(timeout=2_000)
    return True


def step(page: Page, seat: int) -> None:
    """One legal step, with the mouse: place, else score, else end the turn, else move."""
    seq = attr(page, "seq")
    try:
        if attr(page, "phase") == "setup":
            place(page)
        elif score_a_card(page, seat):
            pass
        elif page.locator(tid("end-turn")).count() and int(attr(page, "actions") or 0) >= 1:
            page.click(tid("end-turn"), timeout=2_000)
        elif not move_a_piece(page):
            raise AssertionError(f"nothing to do: {attr(page, 'phase')}")
    except PlaywrightError:
        page.keyboard.press("Escape")  # the board changed under us: look again
    after(page, seq)


def play_to_the_end(page: Page, over: str, seat: int = 0) -> None:
    deadline = time.monotonic() + GAME_TIMEOUT
    while time.monotonic() < deadline:
        if not wait_for_my_move(page, over):
            return
        step(page, seat)
    raise AssertionError(f"{over} did not show within {GAME_TIMEOUT:.0f} s")


def exchange_two_cups(page: Page) -> None:
    """Select the cups of two spaces and swap them (always legal: one cup each)."""
    cups = page.locator('.pwrap.selectable[data-kind="cup"]')
    first, second = (int(cups.nth(i).get_attribute("data-space")) for i in (0, 1))
    seq = attr(page, "seq")
    cups.nth(0).click()
    page.wait_for_selector(".target-tab")  # one space selected: where it may move
    cups.nth(1).click()
    page.click(tid("exchange"))
    after(page, seq)
    assert attr(page, "actions") == "1"
    assert page.locator(tid(f"piece-{first}-cup")).count() == 1
    assert page.locator(tid(f"piece-{second}-cup")).count() == 1
    log = page.inner_text(tid("game-log"))
    assert f"cup (space {min(first, second) + 1}) with cup (space {max(first, second) + 1})" in log


def test_a_game_against_the_greedy_bot_to_the_end(page, server):
    open_doppio(page, server.url, players=2)
    # Set-up until our first turn of play.
    while True:
        assert wait_for_my_move(page, tid("doppio-over"))
        if attr(page, "phase") == "play":
            break
        assert "your turn to place" in page.inner_text(tid("turn-status"))
        step(page, 0)
    assert "Your turn" in page.inner_text(tid("turn-status"))
    assert page.locator(".pwrap").count() == 9
    assert "placed the" in page.inner_text(tid("game-log"))
    # An exchange, taken back, then a move and the end of the turn.
    exchange_two_cups(page)
    seq = attr(page, "seq")
    page.click(tid("undo"))
    after(page, seq)
    assert attr(page, "actions") == "0"
    assert "took back a move" in page.inner_text(tid("game-log"))
    seq = attr(page, "seq")
    assert move_a_piece(page)
    after(page, seq)
    assert attr(page, "actions") == "1"
    assert "moved" in page.inner_text(tid("game-log"))
    # A reload keeps the game log: the server sends the match's recent events.
    told = page.inner_text(tid("game-log"))
    page.reload()
    page.wait_for_selector(f"{tid('game-log')} li")
    assert page.inner_text(tid("game-log")) == told
    # Then play on until the end screen.
    play_to_the_end(page, tid("doppio-over"))
    over = page.locator(tid("doppio-over"))
    winners = [int(s) for s in over.get_attribute("data-winners").split(",")]
    beans = [int(page.get_attribute(tid(f"beans-{s}"), "data-beans")) for s in (0, 1)]
    assert winners and all(beans[w] == max(beans) for w in winners)
    assert "Game over" in over.inner_text()
    assert page.locator(tid("end-turn")).count() == 0
    # The end screen says why: how the match ended, and what decided it.
    how = over.locator(tid("end-how")).inner_text()
    assert any(
        words in how
        for words in ("scored the last card of round 2", "reserve is empty", "a third time")
    )
    rule = over.locator(tid("end-rule")).inner_text()
    if beans[0] != beans[1]:
        assert rule == "Most beans wins."
    else:
        assert rule.startswith("Equal beans: the win ")


def test_a_solo_game_ends_with_its_rank(page, server):
    open_doppio(page, server.url, players=1)
    page.wait_for_selector(f'{ROOT}[data-can-act="true"]')
    assert attr(page, "solo") == "true"
    play_to_the_end(page, tid("solo-over"))
    over = page.locator(tid("solo-over"))
    assert over.get_attribute("data-rank") in (
        "tea",
        "filter",
        "french_press",
        "espresso_machine",
        "barista",
    )
    assert int(over.get_attribute("data-beans")) == 0  # solo ends when the beans run out
    assert page.locator(tid("end-turn")).count() == 0


def test_the_lobby_offers_new_tables_for_every_game_on_its_board_or_the_generic_one(page, server):
    with urllib.request.urlopen(server.url + "/api/games", timeout=10) as response:
        games = json.loads(response.read())
    boards = {game["name"]: game["board"] for game in games}
    assert boards["espresso"] and boards["doppio"]
    assert boards["coffee_nim"] is False  # the fifth game ships no board: the generic one
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("create-form"))
    for name in boards:
        assert page.locator(tid(f"new-table-{name}")).count() == 1, name


def test_the_clock_shows_for_each_seat(page, server):
    open_doppio(page, server.url, players=2, clock="5")
    page.wait_for_selector(f"{tid('clock-0')}, {tid('clock-1')}")
    page.wait_for_selector(f"{tid('clocks')} .clock.running")
    for seat in (0, 1):
        text = page.inner_text(tid(f"clock-{seat}"))
        assert ":" in text and int(page.get_attribute(tid(f"clock-{seat}"), "data-seconds")) <= 300


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "The law of the path"),
        ("fr", "La loi du chemin"),
        ("de", "Das Gesetz des Weges"),
        ("es", "La ley del camino"),
    ],
)
def test_the_rules_page_in_every_language(page, server, language, heading):
    page.goto(server.url + "/#/rules/doppio")
    page.select_option(tid("lang-select"), language)
    body = page.locator(tid("rules-body"))
    body.get_by_text(heading, exact=True).wait_for()
    assert body.locator(".doppio-legend svg").count() == 9  # three kinds in three colours
