"""Fika in the browser: a whole game against the greedy bot, through the page's
own controls (colour buttons, hand cards, café spots, effect choices, Skip,
Stop, Confirm), to the end screen. Every wait is on a condition."""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import LONG, tid

pytestmark = pytest.mark.browser

GAME_TIMEOUT = 600.0  # s: a whole best-of-three game, on a slow machine
SHOTS = os.environ.get("FIKA_SCREENSHOTS")  # a folder: save screenshots there


def open_fika_table(page: Page, server: Server, *, bot: str = "greedy", name: str = "Ada") -> str:
    """Create a table through the API (seat 0 ours, seat 1 the bot) and open it."""
    created = server.post(
        "/api/tables",
        {
            "game": "fika",
            "players": 2,
            "name": name,
            "bots": {"1": bot},
            "options": {"bot_speed": 20},
        },
    )
    table_id = str(created["table_id"])
    seats = {table_id: {"seat": created["seat"], "token": created["token"], "at": 0}}
    page.goto(server.url + "/#/")
    page.evaluate("seats => localStorage.setItem('coffeetable.seats', seats)", json.dumps(seats))
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("fika"))
    page.wait_for_selector(f"{tid('fika')}[data-phase]", timeout=LONG)
    return table_id


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def data(page: Page, key: str) -> str | None:
    return page.get_attribute(tid("fika"), f"data-{key}")


def act_once(page: Page, counts: dict[str, int]) -> bool:
    """Make one choice through the page's controls; False when there is nothing to do.

    A state that lands between seeing a control and clicking it redraws the board, and
    the click times out on a control that is gone: that counts as a try (True), and the
    caller looks again, so a board that never offers what it should still fails its test.
    """
    try:
        return _act_once(page, counts)
    except PlaywrightError:
        return True


def _act_once(page: Page, counts: dict[str, int]) -> bool:
    board = tid("fika")
    if data(page, "can-act") != "true":
        return False
    confirm = page.locator(f"{tid('confirm-button')}:not([disabled])")
    if confirm.count():  # effect 4 with a pair chosen: swap it
        confirm.first.click(timeout=2_000)
        counts["confirm"] = counts.get("confirm", 0) + 1
        return True
    colour = page.locator(f"{board} .colour-btn")
    if colour.count():
        colour.first.click(timeout=2_000)
        counts["colour"] = counts.get("colour", 0) + 1
        return True
    phase = data(page, "phase")
    clickable = page.locator(f"{board} .fk-slot.clickable")
    stop = page.locator(tid("stop-button"))
    if phase == "pick" and stop.count() and counts.get("pick", 0) % 5 == 4:
        stop.click(timeout=2_000)  # now and then, end the lone plays early
        counts["stop"] = counts.get("stop", 0) + 1
        return True
    if phase == "effect" and counts.get("effect-turn", 0) % 3 == 2:
        counts["effect-turn"] = counts.get("effect-turn", 0) + 1
        page.click(tid("skip-button"), timeout=2_000)
        counts["skip"] = counts.get("skip", 0) + 1
        return True
    if clickable.count():
        if phase == "effect" and not page.locator(f"{board} .fk-slot.selected").count():
            counts["effect-turn"] = counts.get("effect-turn", 0) + 1
        clickable.first.click(timeout=2_000)
        counts[phase or "?"] = counts.get(phase or "?", 0) + 1
        return True
    if phase == "effect":
        page.click(tid("skip-button"), timeout=2_000)
        counts["skip"] = counts.get("skip", 0) + 1
        return True
    if stop.count():
        stop.click(timeout=2_000)
        counts["stop"] = counts.get("stop", 0) + 1
        return True
    return False


def play_to_the_end(page: Page, timeout: float = GAME_TIMEOUT) -> dict[str, int]:
    counts: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    shots = set()
    while time.monotonic() < deadline:
        if page.locator(tid("end-screen")).count():
            return counts
        phase = data(page, "phase")
        key = f"{phase}-{data(page, 'effect') or ''}-{data(page, 'round')}"
        if SHOTS and key not in shots and data(page, "can-act") == "true":
            shots.add(key)
            shot(page, key)
        try:
            seq = data(page, "seq")
            if act_once(page, counts):
                # wait for the page to move on (a new state), or let a selection settle
                end = time.monotonic() + 5
                while time.monotonic() < end and data(page, "seq") == seq:
                    if page.locator(f"{tid('fika')} .fk-slot.selected").count():
                        break
                    page.wait_for_timeout(50)
            else:
                page.wait_for_timeout(100)
        except PlaywrightError:
            page.wait_for_timeout(100)  # the board was redrawn under the click: look again
    where = page.evaluate("JSON.stringify(document.querySelector('[data-testid=fika]')?.dataset)")
    raise AssertionError(f"the game did not end within {timeout:.0f} s ({where}, {counts})")


def test_a_whole_game_against_the_greedy_bot(page: Page, server: Server) -> None:
    open_fika_table(page, server)
    page.wait_for_selector(f"{tid('fika')} {tid('street')}")
    assert page.locator(f"{tid('cafe-0')} .fk-slot").count() == 5
    assert page.locator(f"{tid('cafe-1')} .fk-slot").count() == 5
    assert page.locator(f"{tid('supply')} .fk-slot").count() == 4
    counts = play_to_the_end(page)
    print("controls used:", counts)
    shot(page, "end")
    end = page.locator(tid("end-screen"))
    assert end.is_visible()
    winner = int(end.get_attribute("data-winner") or -1)
    assert winner in (0, 1)
    tips = int(page.get_attribute(tid(f"tips-{winner}"), "data-tips") or 0)
    assert tips == 2
    # Our plays went through the page: colours, picks, places and effect choices.
    assert counts.get("pick", 0) >= 3 and counts.get("place", 0) >= 3, counts
    # The last round's scoring is shown card by card, and the log tells the story.
    assert page.locator(tid("round-score")).is_visible()
    assert page.locator(f"{tid('round-score')} tr[data-testid^='score-line-']").count() >= 5
    assert int(page.get_attribute(tid("log"), "data-count") or 0) > 10


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "Effects"), ("fr", "Effets"), ("de", "Effekte"), ("es", "Efectos")],
)
def test_the_rules_page_in_every_language(
    page: Page, server: Server, language: str, heading: str
) -> None:
    page.goto(server.url + "/#/rules/fika")
    page.select_option(tid("lang-select"), language)
    body = page.locator(tid("rules-body"))
    body.get_by_text(heading, exact=True).wait_for()
    assert body.locator("svg.fcard.face").count() == 3  # the three colours with their symbols
    assert body.locator("svg.fcard.group").count() == 1
    shot(page, f"rules-{language}")


def test_every_fika_string_exists_in_every_language(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/rules/fika")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    keys = page.evaluate(
        """async () => {
            const strings = (await import('/static/games/fika/i18n.js')).default;
            return Object.fromEntries(
                Object.entries(strings).map(([k, v]) => [k, Object.keys(v).sort()]));
        }"""
    )
    assert set(keys) == {"en", "fr", "de", "es"}
    for language in ("fr", "de", "es"):
        assert keys[language] == keys["en"], language


def test_the_board_speaks_french_and_offers_the_colours(new_page, server: Server) -> None:  # type: ignore[no-untyped-def]
    page = new_page(locale="fr-FR")
    open_fika_table(page, server, bot="random")
    page.wait_for_selector(tid("prompt-text"))
    # Either we choose a colour now (buttons), or the bot does and we are told so.
    page.wait_for_function(
        """() => {
            const text = document.querySelector('[data-testid=prompt-text]')?.textContent || '';
            return /couleur|Choisissez|choisit|main/.test(text);
        }""",
        timeout=LONG,
    )
    text = page.inner_text(tid("board")).lower()  # labels may be shown in capitals
    assert "votre café" in text
    assert "réserve" in text
    # Our hand: six cards, face up, each with its colour's symbol.
    assert page.locator(f"{tid('hand')} svg.fcard.face").count() == 6


def test_a_spectator_watches_two_bots_to_the_end(page: Page, server: Server) -> None:
    created = server.post(
        "/api/tables",
        {
            "game": "fika",
            "players": 2,
            "bots": {"0": "greedy", "1": "random"},
            "options": {"bot_speed": 50},
        },
    )
    assert created["seat"] is None
    page.goto(f"{server.url}/#/table/{created['table_id']}")
    page.wait_for_selector(tid("spectator-badge"))
    page.wait_for_selector(tid("fika"))
    assert page.locator(tid("hand")).count() == 0  # nobody's hand is shown to a spectator
    assert page.get_attribute(tid("fika"), "data-can-act") == "false"
    page.wait_for_selector(tid("end-screen"), timeout=GAME_TIMEOUT * 1000)
    assert page.locator(f"{tid('fika')} .fk-slot.clickable").count() == 0


def test_the_keyboard_picks_a_card(page: Page, server: Server) -> None:
    open_fika_table(page, server, bot="random")
    # Choose colours when asked, until the hand can be picked from.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and data(page, "phase") != "pick":
        colour = page.locator(f"{tid('fika')} .colour-btn")
        if colour.count():
            with contextlib.suppress(PlaywrightError):
                colour.first.click(timeout=2_000)
        page.wait_for_timeout(100)
    page.wait_for_selector(f"{tid('hand')} .fk-slot.clickable")
    page.locator(f"{tid('hand')} .fk-slot.clickable").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{tid('hand')} .fk-slot.picked", timeout=LONG)
